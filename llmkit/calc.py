"""Back-of-envelope calculators the chapters quote: KV-cache bytes, parameters, FLOPs per token."""

from __future__ import annotations

from .config import ModelConfig

__all__ = ["kv_cache_bytes", "kv_cache_bytes_for", "param_count", "flops_per_token"]


def kv_cache_bytes(
    num_layers: int,
    num_kv_heads: int,
    head_dim: int,
    seq_len: int,
    bytes_per_elem: int = 2,
    batch_size: int = 1,
) -> int:
    """2 (K and V) * L * H_kv * d_head * S * bytes * B."""
    return 2 * num_layers * num_kv_heads * head_dim * seq_len * bytes_per_elem * batch_size


def kv_cache_bytes_for(
    config: ModelConfig, seq_len: int, bytes_per_elem: int = 2, batch_size: int = 1
) -> int:
    """kv_cache_bytes with the dimensions taken from a config."""
    return kv_cache_bytes(
        config.num_hidden_layers,
        config.num_key_value_heads,
        config.head_dim,
        seq_len,
        bytes_per_elem,
        batch_size,
    )


def _layer_matmul_params(config: ModelConfig) -> int:
    h, d = config.hidden_size, config.head_dim
    attn = (
        h * config.num_attention_heads * d * 2 + h * config.num_key_value_heads * d * 2
    )  # q,o + k,v
    ffn = (3 if config.ffn_type == "swiglu" else 2) * h * config.intermediate_size
    return attn + ffn


def param_count(config: ModelConfig) -> int:
    """Every parameter of llmkit's Transformer(config): embedding, blocks, final norm, LM head."""
    h = config.hidden_size
    norm = h if config.norm_type == "rms" else 2 * h  # LayerNorm also has a bias
    per_layer = _layer_matmul_params(config) + 2 * norm
    final_norm = norm if config.norm_position == "pre" else 0  # post-norm blocks end normalized
    head = 0 if config.tie_word_embeddings else config.vocab_size * h
    return config.vocab_size * h + config.num_hidden_layers * per_layer + final_norm + head


def flops_per_token(config: ModelConfig, seq_len: int) -> int:
    """Forward FLOPs for one token that attends to `seq_len` keys (a multiply-add = 2 FLOPs).

    2 * (every matmul weight, LM head included) + per layer 2 * 2 * S * H * d_head for Q K^T and
    the weighted sum of V. Norms, softmax and activations are left out (they are O(h), not O(h^2)).
    """
    weights = (
        config.num_hidden_layers * _layer_matmul_params(config)
        + config.vocab_size * config.hidden_size
    )
    attention = (
        config.num_hidden_layers * 4 * seq_len * config.num_attention_heads * config.head_dim
    )
    return 2 * weights + attention

"""Loading a GGUF file (llama.cpp's and Ollama's one-file checkpoint) into llmkit: its metadata
becomes a ModelConfig, its tensors (dequantized by llmkit.gguf_file) an HF-named state dict.

llama.cpp stores Llama's q/k projections with each head's rows interleaved (the RoPE pairing of
Meta's original checkpoints, rows 2i and 2i+1 a pair); they are put back in Hugging Face's
half-split order, so the model is the one `config.json` + safetensors would give. Qwen2/Qwen3 are
stored unpermuted. Llama 3.1/3.2 files carry their RoPE scaling only as per-pair factors
(`rope_freqs.weight`), matched here against the llama3 scalings. Metadata llmkit does not model
(MoE, sliding windows, partial rotary, other RoPE scalings or factors) is refused by name. Mistral
7B files say architecture "llama" and, as in llama.cpp, attend without a sliding window.
"""

from __future__ import annotations

import functools
from pathlib import Path

import torch

from .config import ModelConfig
from .gguf_file import GGUFTensor, dequantize_tensors, read_gguf
from .hf import interleaved_from_half_split, load_hf_state
from .hf_config import as_dtype
from .model import Transformer
from .rope import rope_frequencies
from .rope_scaling import llama3_frequencies

__all__ = ["ARCHITECTURES", "config_from_gguf", "from_gguf", "load_gguf", "read_config"]

ARCHITECTURES = ("llama", "qwen2", "qwen3")  # general.architecture values llmkit models

# (GGUF name, Hugging Face name); {i} is the layer index.
_NAMES = [
    ("token_embd.weight", "model.embed_tokens.weight"),
    ("output_norm.weight", "model.norm.weight"),
    ("output.weight", "lm_head.weight"),
    ("blk.{i}.attn_norm.weight", "model.layers.{i}.input_layernorm.weight"),
    ("blk.{i}.ffn_norm.weight", "model.layers.{i}.post_attention_layernorm.weight"),
    ("blk.{i}.attn_q.weight", "model.layers.{i}.self_attn.q_proj.weight"),
    ("blk.{i}.attn_k.weight", "model.layers.{i}.self_attn.k_proj.weight"),
    ("blk.{i}.attn_v.weight", "model.layers.{i}.self_attn.v_proj.weight"),
    ("blk.{i}.attn_q.bias", "model.layers.{i}.self_attn.q_proj.bias"),
    ("blk.{i}.attn_k.bias", "model.layers.{i}.self_attn.k_proj.bias"),
    ("blk.{i}.attn_v.bias", "model.layers.{i}.self_attn.v_proj.bias"),
    ("blk.{i}.attn_q_norm.weight", "model.layers.{i}.self_attn.q_norm.weight"),
    ("blk.{i}.attn_k_norm.weight", "model.layers.{i}.self_attn.k_norm.weight"),
    ("blk.{i}.attn_output.weight", "model.layers.{i}.self_attn.o_proj.weight"),
    ("blk.{i}.ffn_gate.weight", "model.layers.{i}.mlp.gate_proj.weight"),
    ("blk.{i}.ffn_up.weight", "model.layers.{i}.mlp.up_proj.weight"),
    ("blk.{i}.ffn_down.weight", "model.layers.{i}.mlp.down_proj.weight"),
]


def _hf_name(name: str) -> str:
    parts = name.split(".")
    layer = parts[1] if parts[0] == "blk" else None
    generic = ".".join(["blk", "{i}", *parts[2:]]) if layer is not None else name
    for gguf_name, hf_name in _NAMES:
        if gguf_name == generic:
            return hf_name.replace("{i}", layer or "")
    raise ValueError(f"tensor {name!r} is not a weight llmkit models (a Llama-family decoder's)")


# Llama 3.1 / 3.2's RoPE scalings: a file stores only their per-frequency factors (rope_freqs).
LLAMA3_SCALINGS = [
    {"type": "llama3", "factor": factor, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
     "original_max_position_embeddings": 8192}
    for factor in (8.0, 32.0)
]  # fmt: skip


def _llama3_scaling(rope_freqs: torch.Tensor | None, head_dim: int, theta: float) -> dict | None:
    """The Llama 3 scaling whose frequency factors (old / new frequency per pair) the file's
    rope_freqs tensor holds; ValueError if none does (llmkit has no free per-pair factors)."""
    if rope_freqs is None:
        return None
    inv_freq = rope_frequencies(head_dim, theta)
    for scaling in LLAMA3_SCALINGS:
        factors = inv_freq / llama3_frequencies(inv_freq, scaling)
        if factors.shape == rope_freqs.shape and torch.allclose(factors, rope_freqs, rtol=1e-5):
            return scaling
    raise ValueError(
        "GGUF: tensor rope_freqs.weight holds RoPE frequency factors that are not Llama 3.1's "
        "or 3.2's scaling (llama3, factor 8 or 32); not supported by llmkit"
    )


def config_from_gguf(
    metadata: dict,
    tensor_names: list[str] | tuple[str, ...],
    rope_freqs: torch.Tensor | None = None,
) -> ModelConfig:
    """A ModelConfig from GGUF metadata; ValueError naming anything llmkit does not model.
    rope_freqs: the file's `rope_freqs.weight` (per-pair RoPE factors), where it has one."""
    arch = metadata.get("general.architecture")
    if arch not in ARCHITECTURES:
        raise ValueError(
            f"GGUF architecture {arch!r} is not supported by llmkit (supported: "
            f"{', '.join(ARCHITECTURES)})"
        )

    def key(name: str, default=None):
        return metadata.get(f"{arch}.{name}", default)

    for name in ("expert_count", "attention.sliding_window", "rope.scaling.type"):
        value = key(name)
        if value not in (None, 0, "none"):
            raise ValueError(f"GGUF: {arch}.{name}={value!r} is not supported by llmkit")
    if "rope_freqs.weight" in tensor_names and rope_freqs is None:
        raise ValueError("GGUF: tensor rope_freqs.weight (RoPE frequency factors) is not read")
    heads, kv_heads = key("attention.head_count"), key("attention.head_count_kv")
    kv_heads = heads if kv_heads is None else kv_heads
    if isinstance(kv_heads, list):  # per-layer counts
        if len(set(kv_heads)) != 1:
            raise ValueError(f"GGUF: per-layer {arch}.attention.head_count_kv is not supported")
        kv_heads = kv_heads[0]
    hidden = key("embedding_length")
    head_dim = key("attention.key_length") or hidden // heads
    if key("attention.value_length", head_dim) != head_dim:
        raise ValueError("GGUF: attention.value_length != key_length is not supported by llmkit")
    if key("rope.dimension_count", head_dim) != head_dim:
        raise ValueError("GGUF: partial rotary (rope.dimension_count < head_dim) is not supported")
    vocab = key("vocab_size") or len(metadata.get("tokenizer.ggml.tokens", ()))
    theta = float(key("rope.freq_base", 10000.0))
    biases = all(f"blk.0.attn_{p}.bias" in tensor_names for p in "qkv")
    if biases != (arch == "qwen2"):  # Qwen2 always has them, the others never
        raise ValueError(f"GGUF: a {arch} file {'with' if biases else 'without'} q/k/v biases "
                         "is not modelled by llmkit")  # fmt: skip
    return ModelConfig(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=key("feed_forward_length"),
        num_hidden_layers=key("block_count"),
        num_attention_heads=heads,
        num_key_value_heads=kv_heads,
        head_dim=head_dim,
        rms_norm_eps=float(key("attention.layer_norm_rms_epsilon", 1e-5)),
        rope_theta=theta,
        rope_scaling=_llama3_scaling(rope_freqs, head_dim, theta),
        max_position_embeddings=key("context_length", 2048),
        tie_word_embeddings="output.weight" not in tensor_names,
        qkv_bias=arch == "qwen2",
        qk_norm=arch == "qwen3",
    )


def _llama_row_order(config: ModelConfig, tensor: GGUFTensor) -> torch.Tensor | None:
    """Where each stored row goes (None: in place): llama.cpp interleaved Llama's q/k heads."""
    if not tensor.name.endswith(("attn_q.weight", "attn_k.weight")):
        return None
    heads = config.num_attention_heads if "attn_q" in tensor.name else config.num_key_value_heads
    rows = torch.arange(tensor.shape[0]).unsqueeze(1)  # [H * D, 1]
    # Stored row g holds Hugging Face row order[g].
    return interleaved_from_half_split(rows, heads).squeeze(1)


def read_config(path: str | Path) -> tuple[dict, list[GGUFTensor], ModelConfig]:
    """(metadata, tensor entries, ModelConfig) of a GGUF file; no weight is read but the small
    rope_freqs table, where the file has one."""
    metadata, tensors = read_gguf(path)
    found = [t for t in tensors if t.name == "rope_freqs.weight"]
    rope_freqs = next((v for _, v in dequantize_tensors(path, found, dtype=torch.float32)), None)
    return metadata, tensors, config_from_gguf(metadata, [t.name for t in tensors], rope_freqs)


def from_gguf(
    path: str | Path,
    *,
    dtype: torch.dtype | str | None = None,
    device: torch.device | str = "cpu",
) -> Transformer:
    """The llmkit Transformer of a GGUF file, dequantized into `dtype` (default float32), in
    eval mode."""
    metadata, tensors, config = read_config(path)
    dtype = torch.float32 if dtype is None else as_dtype(dtype)
    return load_gguf(path, metadata, tensors, config, dtype, torch.device(device))


def load_gguf(
    path: str | Path,
    metadata: dict,
    tensors: list[GGUFTensor],
    config: ModelConfig,
    dtype: torch.dtype,
    device: torch.device,
) -> Transformer:
    """The weights of a GGUF file whose header was already read (read_config)."""
    with torch.device("meta"):
        model = Transformer(config)
    llama = metadata["general.architecture"] == "llama"
    order = functools.partial(_llama_row_order, config) if llama else (lambda tensor: None)
    state = {}
    weights = [t for t in tensors if t.name != "rope_freqs.weight"]  # a RoPE table, not a weight
    for tensor, value in dequantize_tensors(path, weights, dtype=dtype, row_order=order):
        state[_hf_name(tensor.name)] = value.to(device)  # one tensor at a time on the device
    return load_hf_state(model, state, device)

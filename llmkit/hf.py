"""Loading Hugging Face Llama checkpoints (LlamaForCausalLM) into llmkit: the weight names, and the
q/k row order of Meta's interleaved RoPE pairing against Hugging Face's half-split one."""

from __future__ import annotations

import re

import torch
from torch import Tensor

from .config import ModelConfig
from .hf_config import config_from_json
from .model import Transformer

__all__ = [
    "config_from_hf",
    "hf_to_llmkit_state_dict",
    "llmkit_to_hf_state_dict",
    "load_hf_state_dict",
    "load_hf_state",
    "from_hf",
    "half_split_from_interleaved",
    "interleaved_from_half_split",
]

# (HF pattern, llmkit pattern); {i} is the layer index.
_NAMES = [
    ("model.embed_tokens.weight", "embed.weight"),
    ("model.norm.weight", "norm.weight"),
    ("lm_head.weight", "lm_head.weight"),
    ("model.layers.{i}.input_layernorm.weight", "layers.{i}.attn_norm.weight"),
    ("model.layers.{i}.post_attention_layernorm.weight", "layers.{i}.ffn_norm.weight"),
    ("model.layers.{i}.self_attn.q_proj.weight", "layers.{i}.attn.q_proj.weight"),
    ("model.layers.{i}.self_attn.k_proj.weight", "layers.{i}.attn.k_proj.weight"),
    ("model.layers.{i}.self_attn.v_proj.weight", "layers.{i}.attn.v_proj.weight"),
    ("model.layers.{i}.self_attn.q_norm.weight", "layers.{i}.attn.q_norm.weight"),
    ("model.layers.{i}.self_attn.k_norm.weight", "layers.{i}.attn.k_norm.weight"),
    ("model.layers.{i}.self_attn.q_proj.bias", "layers.{i}.attn.q_proj.bias"),
    ("model.layers.{i}.self_attn.k_proj.bias", "layers.{i}.attn.k_proj.bias"),
    ("model.layers.{i}.self_attn.v_proj.bias", "layers.{i}.attn.v_proj.bias"),
    ("model.layers.{i}.self_attn.o_proj.weight", "layers.{i}.attn.o_proj.weight"),
    ("model.layers.{i}.mlp.gate_proj.weight", "layers.{i}.ffn.w1.weight"),
    ("model.layers.{i}.mlp.up_proj.weight", "layers.{i}.ffn.w3.weight"),
    ("model.layers.{i}.mlp.down_proj.weight", "layers.{i}.ffn.w2.weight"),
]


def _compile(pattern: str) -> re.Pattern:
    return re.compile("^" + re.escape(pattern).replace(r"\{i\}", r"(?P<i>\d+)") + "$")


_HF_TO_LLMKIT = [(_compile(hf), ours) for hf, ours in _NAMES]
_LLMKIT_TO_HF = [(_compile(ours), hf) for hf, ours in _NAMES]


def _rename(name: str, table: list[tuple[re.Pattern, str]]) -> str:
    for pattern, target in table:
        match = pattern.match(name)
        if match:
            return target.replace("{i}", match.groupdict().get("i") or "")
    raise ValueError(f"no mapping for parameter {name!r} (not a Llama decoder weight)")


def hf_to_llmkit_state_dict(state_dict: dict[str, Tensor]) -> dict[str, Tensor]:
    """Rename LlamaForCausalLM weights to llmkit's names (tensors are shared, not copied)."""
    return {_rename(name, _HF_TO_LLMKIT): t for name, t in state_dict.items()}


def llmkit_to_hf_state_dict(state_dict: dict[str, Tensor]) -> dict[str, Tensor]:
    """The inverse renaming."""
    return {_rename(name, _LLMKIT_TO_HF): t for name, t in state_dict.items()}


def config_from_hf(hf_config) -> ModelConfig:
    """A ModelConfig of a transformers LlamaConfig, read as its config.json would be (options
    llmkit does not model are refused by name)."""
    return config_from_json(hf_config.to_dict())


def load_hf_state_dict(model: Transformer, state_dict: dict[str, Tensor]) -> None:
    """Copy a LlamaForCausalLM state dict into an llmkit Transformer (every weight must match)."""
    renamed = hf_to_llmkit_state_dict(state_dict)
    if model.config.tie_word_embeddings:
        renamed.pop("lm_head.weight", None)
        renamed["lm_head.weight"] = renamed["embed.weight"]
    model.load_state_dict(renamed, strict=True)


def from_hf(hf_model) -> Transformer:
    """An llmkit Transformer holding the weights of a transformers LlamaForCausalLM,
    on the same device and dtype."""
    weight = hf_model.get_input_embeddings().weight
    model = Transformer(config_from_hf(hf_model.config)).to(
        device=weight.device, dtype=weight.dtype
    )
    load_hf_state_dict(model, hf_model.state_dict())
    return model.eval()


def load_hf_state(
    model: Transformer, state: dict[str, Tensor], device: torch.device
) -> Transformer:
    """`model` (built on `meta`) with the Hugging Face-named weights of `state` put in place."""
    config = model.config
    renamed = hf_to_llmkit_state_dict(state)
    if config.tie_word_embeddings:
        renamed["lm_head.weight"] = renamed["embed.weight"]
    model.load_state_dict(renamed, strict=True, assign=True)
    if config.tie_word_embeddings:
        model.lm_head.weight = model.embed.weight  # one parameter again, as built
    model.rope.reset_tables(device)
    return model.eval()


def half_split_from_interleaved(weight: Tensor, num_heads: int) -> Tensor:
    """Reorder q/k projection rows so a half-split model equals an interleaved one.

    Per head, output rows 2i and 2i+1 (an adjacent pair) move to rows i and i + D/2. This is the
    permutation Meta-to-HF Llama conversion applies. weight: [num_heads * D, in_features].
    """
    out_features, in_features = weight.shape
    head_dim = out_features // num_heads
    # [H, D/2, 2, in] -> [H, 2, D/2, in]: row (h, i, j) lands at (h, j, i)
    return (
        weight.view(num_heads, head_dim // 2, 2, in_features)
        .transpose(1, 2)
        .reshape(out_features, in_features)
    )


def interleaved_from_half_split(weight: Tensor, num_heads: int) -> Tensor:
    """Inverse of half_split_from_interleaved."""
    out_features, in_features = weight.shape
    head_dim = out_features // num_heads
    return (
        weight.view(num_heads, 2, head_dim // 2, in_features)
        .transpose(1, 2)
        .reshape(out_features, in_features)
    )

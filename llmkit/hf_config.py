"""A Hugging Face `config.json` read into a ModelConfig (Llama, Qwen2/2.5, Qwen3, Mistral), and the
dtype it says the weights are stored in. An option llmkit does not model is refused by name instead
of being silently ignored."""

from __future__ import annotations

import torch

from .config import ROPE_SCALINGS, ModelConfig

__all__ = ["as_dtype", "config_from_json", "stored_dtype"]

# What a Llama-family config.json may say that llmkit models exactly (value: what is accepted).
_ACCEPTED = {
    "model_type": ("llama", "qwen2", "qwen3", "mistral"),
    "hidden_act": ("silu",),
    "attention_bias": (False, None),
    "mlp_bias": (False, None),
    "pretraining_tp": (1, None),
    "attention_dropout": (0, 0.0, None),
    "use_sliding_window": (False, None),
}


def _rope(data: dict) -> tuple[float, dict | None]:
    """(theta, llmkit rope_scaling) from either the old (`rope_theta`, `rope_scaling`) or the new
    (`rope_parameters`) layout; refuses scalings llmkit does not implement with HF's semantics."""
    params = dict(data.get("rope_parameters") or {})
    theta = float(params.get("rope_theta", data.get("rope_theta", 10000.0)))
    scaling = data.get("rope_scaling") or params
    kind = scaling.get("rope_type", scaling.get("type", "default")) if scaling else "default"
    # "ntk" is llmkit's own static NTK-aware scaling: Hugging Face has no such rope_type
    supported = [name for name in ROPE_SCALINGS if name != "ntk"]
    if kind == "default":
        return theta, None
    if kind not in supported:
        raise ValueError(
            f"config.json: rope_type {kind!r} is not supported by llmkit (supported: default, "
            f"{', '.join(supported)}); loading it would give wrong logits"
        )
    if kind != "yarn":
        return theta, {"type": kind, **{key: scaling[key] for key in ROPE_SCALINGS[kind]}}
    unknown = set(scaling) - _YARN_KEYS
    if unknown:
        raise ValueError(
            f"config.json: rope option(s) {sorted(unknown)} of rope_type 'yarn' are not "
            "supported by llmkit"
        )
    original = (
        data.get("original_max_position_embeddings")  # Phi-3 style, outside the rope dict
        or scaling.get("original_max_position_embeddings")
        or data["max_position_embeddings"]
    )
    factor = scaling.get("factor") or data["max_position_embeddings"] / original
    options = {key: scaling[key] for key in _YARN_KEYS if scaling.get(key) is not None}
    options.update(factor=float(factor), original_max_position_embeddings=original)
    return theta, {**options, "type": "yarn"}


_YARN_KEYS = {
    "rope_type",
    "type",
    "rope_theta",
    "factor",
    "original_max_position_embeddings",
    "beta_fast",
    "beta_slow",
    "attention_factor",
    "mscale",
    "mscale_all_dim",
    "truncate",
}


def config_from_json(data: dict) -> ModelConfig:
    """A ModelConfig from a Llama config.json; ValueError naming any option llmkit does not model."""
    for name, accepted in _ACCEPTED.items():
        if name in data and data[name] not in accepted:
            raise ValueError(
                f"config.json: {name}={data[name]!r} is not supported by llmkit "
                f"(supported: {', '.join(repr(a) for a in accepted if a is not None)})"
            )
    theta, scaling = _rope(data)
    if (
        data.get("partial_rotary_factor", 1.0) != 1.0
        or (scaling or {}).get("partial_rotary_factor", 1.0) != 1.0
    ):
        raise ValueError("config.json: partial_rotary_factor != 1 is not supported by llmkit")
    # Mistral slides its window in every layer; Qwen's optional window is refused above.
    window = data.get("sliding_window") if data.get("model_type") == "mistral" else None
    layer_types = set(data.get("layer_types") or ["full_attention"])
    if layer_types != {"full_attention"}:
        raise ValueError(
            f"config.json: layer_types={sorted(layer_types)!r} is not supported by llmkit "
            "(supported: 'full_attention' in every layer)"
        )
    heads = data["num_attention_heads"]
    return ModelConfig(
        vocab_size=data["vocab_size"],
        hidden_size=data["hidden_size"],
        intermediate_size=data["intermediate_size"],
        num_hidden_layers=data["num_hidden_layers"],
        num_attention_heads=heads,
        num_key_value_heads=data.get("num_key_value_heads") or heads,
        head_dim=data.get("head_dim"),
        rms_norm_eps=float(data.get("rms_norm_eps", 1e-6)),
        rope_theta=theta,
        rope_scaling=scaling,
        max_position_embeddings=data.get("max_position_embeddings", 2048),
        tie_word_embeddings=bool(data.get("tie_word_embeddings", False)),
        qkv_bias=data.get("model_type") == "qwen2",  # Qwen2 always has q/k/v biases
        qk_norm=data.get("model_type") == "qwen3",  # Qwen3 always normalises q and k per head
        sliding_window=window,
    )


def as_dtype(dtype: torch.dtype | str) -> torch.dtype:
    """A torch.dtype from itself or its name ("bfloat16", "torch.bfloat16")."""
    if isinstance(dtype, torch.dtype):
        return dtype
    found = getattr(torch, str(dtype).removeprefix("torch."), None)
    if not isinstance(found, torch.dtype):
        raise ValueError(f"{dtype!r} is not a torch dtype")
    return found


def stored_dtype(data: dict) -> torch.dtype:
    """The dtype config.json says the weights are stored in (`dtype`, formerly `torch_dtype`;
    float32 when it says neither)."""
    return as_dtype(data.get("dtype") or data.get("torch_dtype") or "float32")

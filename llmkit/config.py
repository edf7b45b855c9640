"""Model configuration (textbook: "the shape of a decoder") and the public presets as data."""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass

__all__ = ["ModelConfig", "PRESETS", "ROPE_SCALINGS", "check_rope_scaling", "rope_context_length"]

# The sizes every config states (positive ints), in the order the preset table lists them.
SIZES = (
    "vocab_size",
    "hidden_size",
    "intermediate_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "max_position_embeddings",
)
_NORM_POSITIONS = ("pre", "post")
_NORM_TYPES = ("rms", "layer")
_FFN_TYPES = ("swiglu", "relu", "gelu")

# Every RoPE scaling llmkit implements (a class each in llmkit.rope) and the keys each one needs; checkpoint
# loaders and RotaryEmbedding check against this table, nothing else lists the kinds.
ROPE_SCALINGS: dict[str, tuple[str, ...]] = {
    "linear": ("factor",),
    "ntk": ("factor",),
    "dynamic": ("factor",),
    "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    "yarn": ("factor", "original_max_position_embeddings"),
}


def check_rope_scaling(scaling: dict | None) -> None:
    """ValueError unless `scaling` is None or a kind of ROPE_SCALINGS with its keys, factor >= 1."""
    if scaling is None:
        return
    _check_choice("rope_scaling['type']", scaling.get("type"), tuple(ROPE_SCALINGS))
    missing = [key for key in ROPE_SCALINGS[scaling["type"]] if key not in scaling]
    if missing:
        raise ValueError(
            f"rope_scaling of type {scaling['type']!r} needs {missing}, got {scaling!r}"
        )
    if float(scaling["factor"]) < 1.0:
        raise ValueError(f"rope_scaling['factor'] must be >= 1, got {scaling!r}")


def rope_context_length(max_position_embeddings: int, scaling: dict | None) -> int:
    """The most positions RoPE serves: the table, or factor x the original context for dynamic
    NTK (which extends past max_position_embeddings)."""
    if scaling is not None and scaling.get("type") == "dynamic":
        return int(max_position_embeddings * float(scaling["factor"]))
    return max_position_embeddings


@dataclass(frozen=True)
class ModelConfig:
    """Every dimension of a decoder-only transformer; `head_dim` defaults to hidden_size // heads.

    `rope_scaling` is None or {"type": "linear" | "ntk" | "dynamic", "factor": float} (context
    extension), Llama 3.1's {"type": "llama3", "factor", "low_freq_factor", "high_freq_factor",
    "original_max_position_embeddings"} or YaRN's {"type": "yarn", "factor",
    "original_max_position_embeddings", optional "beta_fast", "beta_slow", "attention_factor",
    "mscale", "mscale_all_dim", "truncate"} (see llmkit.rope).
    `sliding_window` (Mistral): each query sees only the last `sliding_window` positions.
    `rope_interleaved` picks the RoPE pairing: False = half-split (Hugging Face), True = adjacent
    pairs (RoFormer paper, Meta checkpoints).
    """

    vocab_size: int
    hidden_size: int
    intermediate_size: int
    num_hidden_layers: int
    num_attention_heads: int
    num_key_value_heads: int
    head_dim: int | None = None
    rms_norm_eps: float = 1e-6
    rope_theta: float = 10000.0
    max_position_embeddings: int = 2048
    norm_position: str = "pre"
    norm_type: str = "rms"
    ffn_type: str = "swiglu"
    tie_word_embeddings: bool = False
    rope_scaling: dict | None = None
    rope_interleaved: bool = False
    qkv_bias: bool = False  # biases on the q/k/v projections (Qwen2 / Qwen2.5); o_proj has none
    qk_norm: bool = False  # RMSNorm over each head's q and k before RoPE (Qwen3)
    sliding_window: int | None = None  # keys within the last W positions only (Mistral)

    def __post_init__(self) -> None:
        for name in SIZES:
            value = getattr(self, name)
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"{name} must be a positive int, got {value!r}")
        heads, kv_heads = self.num_attention_heads, self.num_key_value_heads
        if heads % kv_heads != 0:
            raise ValueError(
                f"num_attention_heads ({heads}) must be divisible by num_key_value_heads "
                f"({kv_heads}): each KV head serves a whole group of query heads"
            )
        if self.head_dim is None:
            if self.hidden_size % heads != 0:
                raise ValueError(
                    f"hidden_size ({self.hidden_size}) is not divisible by num_attention_heads "
                    f"({heads}); pass head_dim explicitly"
                )
            object.__setattr__(self, "head_dim", self.hidden_size // heads)  # frozen: derived once
        if self.head_dim % 2 != 0:
            raise ValueError(
                f"head_dim must be even for RoPE (it rotates pairs), got {self.head_dim}"
            )
        if self.sliding_window is not None and (
            not isinstance(self.sliding_window, int) or self.sliding_window <= 0
        ):
            raise ValueError(
                f"sliding_window must be a positive int or None, got {self.sliding_window!r}"
            )
        _check_choice("norm_position", self.norm_position, _NORM_POSITIONS)
        _check_choice("norm_type", self.norm_type, _NORM_TYPES)
        _check_choice("ffn_type", self.ffn_type, _FFN_TYPES)
        check_rope_scaling(self.rope_scaling)

    @property
    def context_length(self) -> int:
        """The most positions a sequence may have (see rope_context_length)."""
        return rope_context_length(self.max_position_embeddings, self.rope_scaling)

    @property
    def num_groups(self) -> int:
        """Query heads per KV head: 1 = MHA, num_attention_heads = MQA, in between = GQA."""
        return self.num_attention_heads // self.num_key_value_heads

    def replace(self, **changes) -> ModelConfig:
        """A copy with some fields changed (head_dim is re-derived unless given)."""
        if "head_dim" not in changes and (
            "hidden_size" in changes or "num_attention_heads" in changes
        ):
            changes["head_dim"] = None
        return dataclasses.replace(self, **changes)

    @classmethod
    def preset(cls, name: str) -> ModelConfig:
        """The named row of PRESETS; ValueError listing the names for an unknown one."""
        if name not in PRESETS:
            raise ValueError(f"no preset {name!r}; presets: {', '.join(PRESETS)}")
        return PRESETS[name]


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")


# Presets, written once. tiny and medium are this project's test/benchmark models; the rest are
# the public configurations the chapters quote (from the models' published params.json /
# config.json). Each is also ModelConfig.<name with "_" for "-">(): ModelConfig.llama2_7b().
PRESETS: dict[str, ModelConfig] = {
    name: ModelConfig(**dict(zip(SIZES, dims, strict=True)), **other)
    for name, dims, other in [
        # name          vocab   hidden  ffn    layers heads kv  context
        ("tiny",       (1000,   256,    688,   4,     8,    2,  512),  {}),
        ("medium",     (32000,  768,    2048,  12,    12,   4,  2048), {}),
        ("llama2-7b",  (32000,  4096,   11008, 32,    32,   32, 4096), {"rms_norm_eps": 1e-5}),
        ("llama2-70b", (32000,  8192,   28672, 80,    64,   8,  4096), {"rms_norm_eps": 1e-5}),
        ("llama3-8b",  (128256, 4096,   14336, 32,    32,   8,  8192),
         {"rms_norm_eps": 1e-5, "rope_theta": 500000.0}),
    ]
}  # fmt: skip

# The named constructors the chapters call, derived from the table (configs are frozen: shared).
for _name in PRESETS:
    setattr(
        ModelConfig,
        _name.replace("-", "_"),
        staticmethod(functools.partial(ModelConfig.preset, _name)),
    )
del _name

"""llmkit: the building blocks of modern LLMs, one module per textbook section."""

from .analysis import grad_norm_by_depth
from .attention import Attention, FusedAttention, attention_weights, causal_mask
from .block import TransformerBlock
from .calc import flops_per_token, kv_cache_bytes, kv_cache_bytes_for, param_count
from .checkpoint import from_pretrained
from .config import PRESETS, ModelConfig
from .counting import count_kv_projections
from .ffn import GELUFFN, FusedSwiGLU, ReLUFFN, SwiGLU, silu, swiglu_hidden_dim
from .fusion import fuse_projections
from .generate import generate, sample_next
from .gguf import from_gguf
from .hf import (
    config_from_hf,
    from_hf,
    half_split_from_interleaved,
    interleaved_from_half_split,
    load_hf_state_dict,
)
from .hf_config import config_from_json
from .kv_cache import ConcatKVCache, KVCache, RollingKVCache, StaticKVCache
from .matvec import Linear
from .model import Transformer
from .norm import LayerNorm, RMSNorm, layer_norm, rms_norm
from .rope import (
    ROPE_VARIANTS,
    RotaryEmbedding,
    apply_rope,
    rope_frequencies,
    rotary_embedding,
    rotate_2d,
    rotate_half,
    rotate_interleaved,
)

__all__ = [
    "ModelConfig",
    "PRESETS",
    "RMSNorm",
    "LayerNorm",
    "rms_norm",
    "layer_norm",
    "rope_frequencies",
    "RotaryEmbedding",
    "ROPE_VARIANTS",
    "rotary_embedding",
    "apply_rope",
    "rotate_half",
    "rotate_interleaved",
    "rotate_2d",
    "half_split_from_interleaved",
    "interleaved_from_half_split",
    "Attention",
    "FusedAttention",
    "causal_mask",
    "attention_weights",
    "KVCache",
    "StaticKVCache",
    "ConcatKVCache",
    "RollingKVCache",
    "Linear",
    "SwiGLU",
    "FusedSwiGLU",
    "ReLUFFN",
    "GELUFFN",
    "silu",
    "swiglu_hidden_dim",
    "TransformerBlock",
    "Transformer",
    "generate",
    "fuse_projections",
    "sample_next",
    "config_from_hf",
    "config_from_json",
    "from_pretrained",
    "from_gguf",
    "from_hf",
    "load_hf_state_dict",
    "kv_cache_bytes",
    "kv_cache_bytes_for",
    "param_count",
    "flops_per_token",
    "count_kv_projections",
    "grad_norm_by_depth",
]

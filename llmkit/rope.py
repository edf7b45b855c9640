"""Rotary position embedding (textbook: RoPE), both pairing conventions, and one class per context
extension (as torchtune: plain, linear, static NTK, Llama 3.1, YaRN, dynamic NTK)."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .config import ModelConfig, check_rope_scaling, rope_context_length
from .rope_scaling import dynamic_ntk_frequencies, llama3_frequencies, yarn_frequencies

__all__ = [
    "rope_frequencies",
    "RotaryEmbedding",
    "LinearRotaryEmbedding",
    "NTKRotaryEmbedding",
    "Llama3RotaryEmbedding",
    "YaRNRotaryEmbedding",
    "DynamicNTKRotaryEmbedding",
    "ROPE_VARIANTS",
    "rotary_embedding",
    "apply_rope",
    "rotate_half",
    "rotate_interleaved",
    "rotate_2d",
]


def rope_frequencies(
    head_dim: int, base: float = 10000.0, device: torch.device | str | None = None
) -> Tensor:
    """theta_i = base^(-2i/d) for i = 0 .. d/2-1, float32: one angular speed per rotated pair."""
    if head_dim <= 0 or head_dim % 2 != 0:
        raise ValueError(
            f"RoPE needs an even, positive head_dim (it rotates pairs), got {head_dim}"
        )
    exponents = torch.arange(0, head_dim, 2, dtype=torch.int64, device=device).float() / head_dim
    return 1.0 / (base**exponents)


def rotate_2d(vec: Tensor, angle: float | Tensor) -> Tensor:
    """Rotate a 2-vector counter-clockwise by `angle` radians: the whole of RoPE on one pair."""
    angle = torch.as_tensor(angle, dtype=vec.dtype, device=vec.device)
    c, s = torch.cos(angle), torch.sin(angle)
    return torch.stack((c * vec[0] - s * vec[1], s * vec[0] + c * vec[1]))


def rotate_half(x: Tensor) -> Tensor:
    """Half-split pairing (dim i with i + d/2): (x1, x2) -> (-x2, x1)."""
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def rotate_interleaved(x: Tensor) -> Tensor:
    """Adjacent pairing (dim 2i with 2i+1): (a, b) -> (-b, a) in every pair."""
    a, b = x[..., 0::2], x[..., 1::2]
    return torch.stack((-b, a), dim=-1).flatten(-2)


def apply_rope(x: Tensor, cos: Tensor, sin: Tensor, interleaved: bool = False) -> Tensor:
    """x * cos + rotate(x) * sin; x [B, H, S, D], cos/sin [S, D] (cast to x's dtype, as HF does)."""
    rotated = rotate_interleaved(x) if interleaved else rotate_half(x)
    if cos.dtype != x.dtype:
        cos, sin = cos.to(x.dtype), sin.to(x.dtype)
    return x * cos + rotated * sin


def _on_meta() -> bool:
    """Whether tensors are being created on the meta device (`with torch.device("meta")`)."""
    return torch.empty(0).device.type == "meta"


class RotaryEmbedding(nn.Module):
    """Plain RoPE: precomputed float32 cos/sin tables [max_seq_len, head_dim], looked up by
    position. Each context extension is a subclass (ROPE_VARIANTS) that overrides what it changes:
    the frequencies, the positions, the attention factor or the lookup; `scaling` is its
    rope_scaling dict (llmkit.config.ROPE_SCALINGS), None here.
    """

    KIND: str | None = None  # the rope_scaling type this class implements
    attention_factor = 1.0  # cos/sin are multiplied by it (YaRN)

    def __init__(
        self,
        head_dim: int,
        max_seq_len: int,
        base: float = 10000.0,
        *,
        interleaved: bool = False,
        scaling: dict | None = None,
    ) -> None:
        super().__init__()
        kind = None if scaling is None else scaling.get("type")
        if kind != self.KIND:
            raise ValueError(
                f"{type(self).__name__} implements rope_scaling type {self.KIND!r}, got "
                f"{scaling!r}; rotary_embedding(..., scaling=...) picks the class"
            )
        check_rope_scaling(scaling)
        self.head_dim, self.max_seq_len, self.interleaved = head_dim, max_seq_len, interleaved
        self.base, self.scaling = base, scaling
        self.limit = rope_context_length(max_seq_len, scaling)
        self.reset_tables(torch.device("cpu") if _on_meta() else None)

    @classmethod
    def from_config(cls, config: ModelConfig) -> RotaryEmbedding:
        """The tables a model of `config` uses (one per model, shared by every layer), of the
        class its rope_scaling names."""
        return rotary_embedding(
            config.head_dim,
            config.max_position_embeddings,
            config.rope_theta,
            interleaved=config.rope_interleaved,
            scaling=config.rope_scaling,
        )

    def inv_freq(self, device: torch.device | None) -> Tensor:
        """[D/2] float32: the angular speed of each rotated pair."""
        return rope_frequencies(self.head_dim, self.base, device=device)

    def table_positions(self, device: torch.device | None) -> Tensor:
        """[max_seq_len] float32: the position each table row rotates by."""
        return torch.arange(self.max_seq_len, dtype=torch.float32, device=device)

    def cos_sin(self, angles: Tensor) -> tuple[Tensor, Tensor]:
        """angles [..., D/2] -> cos, sin [..., D] in this module's pairing, attention-scaled."""
        if self.interleaved:
            angles = angles.repeat_interleave(2, dim=-1)  # pair i on dims 2i, 2i+1
        else:
            angles = torch.cat((angles, angles), dim=-1)  # pair i on dims i, i + D/2
        if self.attention_factor != 1.0:
            return angles.cos() * self.attention_factor, angles.sin() * self.attention_factor
        return angles.cos(), angles.sin()

    def reset_tables(self, device: torch.device | str | None) -> None:
        """(Re)compute the cos/sin tables on `device` (after building on `meta`: they are in no
        checkpoint). They are kept as the int32 bits of float32 values: model.to(torch.bfloat16)
        converts floating buffers only, so the tables move with the model but are never rounded."""
        device = None if device is None else torch.device(device)
        angles = torch.outer(self.table_positions(device), self.inv_freq(device))  # [S, D/2]
        cos, sin = self.cos_sin(angles)
        self.register_buffer("cos_bits", cos.view(torch.int32), persistent=False)
        self.register_buffer("sin_bits", sin.view(torch.int32), persistent=False)

    @property
    def cos(self) -> Tensor:
        """[max_seq_len, D] float32."""
        return self.cos_bits.view(torch.float32)

    @property
    def sin(self) -> Tensor:
        """[max_seq_len, D] float32."""
        return self.sin_bits.view(torch.float32)

    def lookup(self, positions: Tensor) -> tuple[Tensor, Tensor]:
        """cos, sin [..., D] at integer positions [...]: rows of the tables."""
        return self.cos[positions], self.sin[positions]

    def range_name(self) -> str:
        """What the valid positions are, for the out-of-range message."""
        return f"the RoPE table (max_seq_len={self.max_seq_len})"

    def check(self, lo: int, hi: int) -> None:
        """ValueError unless positions lo..hi (host ints) have angles here: 0..limit-1."""
        if lo >= 0 and hi < self.limit:
            return
        bad = hi if hi >= self.limit else lo
        raise ValueError(
            f"position {bad} is outside {self.range_name()} (valid: 0..{self.limit - 1})"
        )

    def forward(self, positions: Tensor, check: bool = True) -> tuple[Tensor, Tensor]:
        """cos, sin [S, D] for integer positions [S]; [B, 1, S, D] for per-row positions [B, S]
        (they broadcast over the heads of [B, H, S, D]). check=False: the caller checked the
        range already (the model does, once per forward, without reading positions back)."""
        if check and positions.numel() and not torch.compiler.is_compiling():
            self.check(int(positions.min()), int(positions.max()))
        cos, sin = self.lookup(positions)
        if positions.dim() == 2:
            return cos.unsqueeze(1), sin.unsqueeze(1)
        return cos, sin

    def rotate(self, x: Tensor, positions: Tensor) -> Tensor:
        """x [B, H, S, D] rotated to `positions` [S]."""
        cos, sin = self(positions)
        return apply_rope(x, cos, sin, self.interleaved)

    def extra_repr(self) -> str:
        shape = f"head_dim={self.head_dim}, max_seq_len={self.max_seq_len}"
        scaling = "" if self.scaling is None else f", scaling={self.scaling}"
        return f"{shape}, interleaved={self.interleaved}{scaling}"


class LinearRotaryEmbedding(RotaryEmbedding):
    """Position interpolation, {"type": "linear", "factor": s}: position m turns as m / s."""

    KIND = "linear"

    def table_positions(self, device: torch.device | None) -> Tensor:
        return super().table_positions(device) / float(self.scaling["factor"])


class NTKRotaryEmbedding(RotaryEmbedding):
    """Static NTK-aware scaling, {"type": "ntk", "factor": s}: base -> base * s^(d / (d - 2)), so
    the slowest pair turns s times slower and the fastest keeps its speed."""

    KIND = "ntk"

    def inv_freq(self, device: torch.device | None) -> Tensor:
        d = self.head_dim
        base = self.base * float(self.scaling["factor"]) ** (d / (d - 2))
        return rope_frequencies(d, base, device=device)


class Llama3RotaryEmbedding(RotaryEmbedding):
    """Llama 3.1's scaling, {"type": "llama3", "factor", "low_freq_factor", "high_freq_factor",
    "original_max_position_embeddings"} (llmkit.rope_scaling.llama3_frequencies)."""

    KIND = "llama3"

    def inv_freq(self, device: torch.device | None) -> Tensor:
        return llama3_frequencies(super().inv_freq(device), self.scaling)


class YaRNRotaryEmbedding(RotaryEmbedding):
    """YaRN, {"type": "yarn", "factor", "original_max_position_embeddings", optional "beta_fast",
    "beta_slow", "attention_factor", "mscale", "mscale_all_dim", "truncate"}: blended
    frequencies, cos/sin scaled by the attention factor (llmkit.rope_scaling.yarn_frequencies)."""

    KIND = "yarn"

    def inv_freq(self, device: torch.device | None) -> Tensor:
        # YaRN's frequencies come with the attention factor that cos_sin then applies
        inv_freq, self.attention_factor = yarn_frequencies(
            self.head_dim, self.base, self.scaling, device
        )
        return inv_freq


class DynamicNTKRotaryEmbedding(RotaryEmbedding):
    """Dynamic NTK, {"type": "dynamic", "factor": s}: within max_seq_len (the original context)
    the plain table; beyond it the base grows with the longest position of each call, up to
    s x max_seq_len, computed per call as Hugging Face does."""

    KIND = "dynamic"

    def lookup(self, positions: Tensor) -> tuple[Tensor, Tensor]:
        seq_len = positions.max() + 1
        grown = dynamic_ntk_frequencies(
            self.head_dim, self.base, float(self.scaling["factor"]), self.max_seq_len, seq_len
        )
        original = rope_frequencies(self.head_dim, self.base, device=positions.device)
        inv_freq = torch.where(seq_len > self.max_seq_len, grown, original)
        return self.cos_sin(positions.float()[..., None] * inv_freq)

    def range_name(self) -> str:
        return f"the dynamic NTK range (factor x max_seq_len = {self.limit})"


# rope_scaling type -> its class; None is plain RoPE.
ROPE_VARIANTS: dict[str | None, type[RotaryEmbedding]] = {
    cls.KIND: cls
    for cls in (
        RotaryEmbedding,
        LinearRotaryEmbedding,
        NTKRotaryEmbedding,
        Llama3RotaryEmbedding,
        YaRNRotaryEmbedding,
        DynamicNTKRotaryEmbedding,
    )
}


def rotary_embedding(
    head_dim: int,
    max_seq_len: int,
    base: float = 10000.0,
    *,
    interleaved: bool = False,
    scaling: dict | None = None,
) -> RotaryEmbedding:
    """The RotaryEmbedding of the class `scaling` names (None: plain RoPE)."""
    check_rope_scaling(scaling)
    variant = ROPE_VARIANTS[None if scaling is None else scaling["type"]]
    return variant(head_dim, max_seq_len, base, interleaved=interleaved, scaling=scaling)

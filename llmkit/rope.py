"""Rotary position embedding (textbook: RoPE), both pairing conventions, and context extension."""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

__all__ = [
    "llama3_frequencies",
    "rope_frequencies",
    "RotaryEmbedding",
    "apply_rope",
    "rotate_half",
    "rotate_interleaved",
    "rotate_2d",
    "half_split_from_interleaved",
    "interleaved_from_half_split",
    "check_positions",
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


def check_positions(positions: Tensor, limit: int, what: str) -> None:
    """ValueError when a position is negative or >= limit (skipped inside torch.compile)."""
    if positions.numel() == 0 or torch.compiler.is_compiling():
        return
    lo, hi = int(positions.min()), int(positions.max())
    if lo < 0 or hi >= limit:
        raise ValueError(
            f"position {hi if hi >= limit else lo} is outside {what} (valid: 0..{limit - 1})"
        )


def llama3_frequencies(inv_freq: Tensor, scaling: dict) -> Tensor:
    """Llama 3.1's context extension: slow pairs (wavelength longer than the original context /
    low_freq_factor) turn `factor` times slower, fast pairs (shorter than context /
    high_freq_factor) stay, and the band between blends the two linearly in context / wavelength."""
    factor = float(scaling["factor"])
    low, high = float(scaling["low_freq_factor"]), float(scaling["high_freq_factor"])
    context = float(scaling["original_max_position_embeddings"])
    wavelength = 2 * math.pi / inv_freq
    blend = ((context / wavelength - low) / (high - low)).clamp(0.0, 1.0)  # 0: slow, 1: fast
    return (1 - blend) * inv_freq / factor + blend * inv_freq


def _on_meta() -> bool:
    """Whether tensors are being created on the meta device (`with torch.device("meta")`)."""
    return torch.empty(0).device.type == "meta"


class RotaryEmbedding(nn.Module):
    """Precomputed float32 cos/sin tables [max_seq_len, head_dim], looked up by position.

    scaling: None, {"type": "linear", "factor": s} (position interpolation: m -> m / s) or
    {"type": "ntk", "factor": s} (NTK-aware: base -> base * s^(d / (d - 2)), high frequencies kept).
    """

    def __init__(
        self,
        head_dim: int,
        max_seq_len: int,
        base: float = 10000.0,
        scaling: dict | None = None,
        interleaved: bool = False,
    ) -> None:
        super().__init__()
        self.head_dim, self.max_seq_len, self.interleaved = head_dim, max_seq_len, interleaved
        kind = None if scaling is None else scaling.get("type")
        if kind not in (None, "linear", "ntk", "llama3"):
            raise ValueError(f"rope scaling type must be 'linear', 'ntk' or 'llama3', got {kind!r}")
        self.base, self.scaling = base, scaling
        cos, sin = self._tables(torch.device("cpu") if _on_meta() else None)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    def _tables(self, device: torch.device | None) -> tuple[Tensor, Tensor]:
        kind = None if self.scaling is None else self.scaling.get("type")
        factor = 1.0 if self.scaling is None else float(self.scaling["factor"])
        base = self.base
        if kind == "ntk":
            base = base * factor ** (self.head_dim / (self.head_dim - 2))
        inv_freq = rope_frequencies(self.head_dim, base, device=device)
        if kind == "llama3":
            inv_freq = llama3_frequencies(inv_freq, self.scaling)
        positions = torch.arange(self.max_seq_len, dtype=torch.float32, device=device)
        if kind == "linear":
            positions = positions / factor
        angles = torch.outer(positions, inv_freq)  # [S, D/2]
        if self.interleaved:
            angles = angles.repeat_interleave(2, dim=-1)  # pair i on dims 2i, 2i+1
        else:
            angles = torch.cat((angles, angles), dim=-1)  # pair i on dims i, i + D/2
        return angles.cos(), angles.sin()

    def reset_tables(self, device: torch.device | str) -> None:
        """Recompute the cos/sin tables on `device` (after building on `meta`: they are not
        in any checkpoint)."""
        self.cos, self.sin = self._tables(torch.device(device))

    def _apply(self, fn, recurse=True):
        # model.to(torch.bfloat16) must not round the angle tables: move them, keep them float32.
        cos, sin = self.cos, self.sin
        super()._apply(fn, recurse)
        if self.cos.dtype != torch.float32:
            self.cos = cos.to(device=self.cos.device, dtype=torch.float32)
            self.sin = sin.to(device=self.sin.device, dtype=torch.float32)
        return self

    def forward(self, positions: Tensor, check: bool = True) -> tuple[Tensor, Tensor]:
        """cos, sin [S, D] for integer positions [S]."""
        if check:
            check_positions(
                positions, self.max_seq_len, f"the RoPE table (max_seq_len={self.max_seq_len})"
            )
        return self.cos[positions], self.sin[positions]

    def rotate(self, x: Tensor, positions: Tensor) -> Tensor:
        cos, sin = self(positions)
        return apply_rope(x, cos, sin, self.interleaved)

    def extra_repr(self) -> str:
        return f"head_dim={self.head_dim}, max_seq_len={self.max_seq_len}, interleaved={self.interleaved}"


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

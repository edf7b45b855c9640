"""Rotary position embedding (textbook: RoPE), both pairing conventions, and context extension."""

from __future__ import annotations

import math

import torch
from torch import Tensor, nn

from .config import ModelConfig, check_rope_scaling, rope_context_length

__all__ = [
    "llama3_frequencies",
    "yarn_frequencies",
    "dynamic_ntk_frequencies",
    "rope_frequencies",
    "RotaryEmbedding",
    "apply_rope",
    "rotate_half",
    "rotate_interleaved",
    "rotate_2d",
    "half_split_from_interleaved",
    "interleaved_from_half_split",
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


def yarn_frequencies(
    head_dim: int, base: float, scaling: dict, device: torch.device | str | None = None
) -> tuple[Tensor, float]:
    """YaRN (Peng et al. 2023), Hugging Face's semantics: pairs that turn fewer than beta_slow
    times over the original context are interpolated (factor times slower), pairs turning more
    than beta_fast times are kept, a linear ramp blends those between; cos/sin are multiplied by
    the returned attention factor (0.1 ln(factor) + 1 unless given)."""
    factor = float(scaling["factor"])
    context = float(scaling["original_max_position_embeddings"])
    beta_fast, beta_slow = scaling.get("beta_fast") or 32, scaling.get("beta_slow") or 1

    def mscale(scale: float, m: float = 1.0) -> float:
        return 1.0 if scale <= 1 else 0.1 * m * math.log(scale) + 1.0

    attention = scaling.get("attention_factor")
    if attention is None:
        m, m_all = scaling.get("mscale"), scaling.get("mscale_all_dim")
        attention = mscale(factor, m) / mscale(factor, m_all) if m and m_all else mscale(factor)

    def pair_index(rotations: float) -> float:  # the pair that turns `rotations` times in context
        return head_dim * math.log(context / (rotations * 2 * math.pi)) / (2 * math.log(base))

    low, high = pair_index(beta_fast), pair_index(beta_slow)
    if scaling.get("truncate", True):
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, head_dim - 1)
    if low == high:
        high += 0.001  # the ramp needs a width
    pairs = torch.arange(head_dim // 2, dtype=torch.float32, device=device)
    keep = 1 - ((pairs - low) / (high - low)).clamp(0, 1)  # 1: extrapolate (fast), 0: interpolate
    speeds = base ** (torch.arange(0, head_dim, 2, device=device).float() / head_dim)
    inv_freq = (1.0 / (factor * speeds)) * (1 - keep) + (1.0 / speeds) * keep
    return inv_freq, float(attention)


def dynamic_ntk_frequencies(
    head_dim: int, base: float, factor: float, original: int, seq_len: Tensor
) -> Tensor:
    """Dynamic NTK (Hugging Face's "dynamic"): for a sequence of seq_len > original positions the
    base grows to base * (factor * seq_len / original - (factor - 1))^(d / (d - 2)); float32
    arithmetic on a tensor length, as HF computes it during generation."""
    seq = torch.clamp(seq_len, min=original)
    grown = base * ((factor * seq / original) - (factor - 1)) ** (head_dim / (head_dim - 2))
    exponents = torch.arange(0, head_dim, 2, dtype=torch.int64, device=seq_len.device).float()
    return 1.0 / (grown ** (exponents / head_dim))


def _on_meta() -> bool:
    """Whether tensors are being created on the meta device (`with torch.device("meta")`)."""
    return torch.empty(0).device.type == "meta"


class RotaryEmbedding(nn.Module):
    """Precomputed float32 cos/sin tables [max_seq_len, head_dim], looked up by position.

    scaling (context extension): None; {"type": "linear", "factor": s} (position interpolation:
    m -> m / s); {"type": "ntk", "factor": s} (static NTK-aware: base -> base * s^(d / (d - 2)));
    {"type": "llama3", ...} (Llama 3.1); {"type": "yarn", "factor", ...} (YaRN, cos/sin scaled);
    {"type": "dynamic", "factor": s} (dynamic NTK: the base grows with the longest position of
    each call beyond max_seq_len, which is then the original context; computed per call, no table).
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
        check_rope_scaling(scaling)
        self.kind = None if scaling is None else scaling["type"]
        self.base, self.scaling = base, scaling
        self.attention_factor = 1.0
        self.limit = rope_context_length(max_seq_len, scaling)
        cos, sin = self._tables(torch.device("cpu") if _on_meta() else None)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)

    @classmethod
    def from_config(cls, config: ModelConfig) -> RotaryEmbedding:
        """The tables a model of `config` uses (one per model, shared by every layer)."""
        return cls(
            config.head_dim,
            config.max_position_embeddings,
            config.rope_theta,
            config.rope_scaling,
            config.rope_interleaved,
        )

    def _inv_freq(self, device: torch.device | None) -> Tensor:
        factor = 1.0 if self.scaling is None else float(self.scaling["factor"])
        if self.kind == "yarn":
            inv_freq, self.attention_factor = yarn_frequencies(
                self.head_dim, self.base, self.scaling, device
            )
            return inv_freq
        base = self.base
        if self.kind == "ntk":
            base = base * factor ** (self.head_dim / (self.head_dim - 2))
        inv_freq = rope_frequencies(self.head_dim, base, device=device)
        if self.kind == "llama3":
            inv_freq = llama3_frequencies(inv_freq, self.scaling)
        return inv_freq

    def _cos_sin(self, angles: Tensor) -> tuple[Tensor, Tensor]:
        """angles [..., D/2] -> cos, sin [..., D] in this module's pairing, attention-scaled."""
        if self.interleaved:
            angles = angles.repeat_interleave(2, dim=-1)  # pair i on dims 2i, 2i+1
        else:
            angles = torch.cat((angles, angles), dim=-1)  # pair i on dims i, i + D/2
        if self.attention_factor != 1.0:
            return angles.cos() * self.attention_factor, angles.sin() * self.attention_factor
        return angles.cos(), angles.sin()

    def _tables(self, device: torch.device | None) -> tuple[Tensor, Tensor]:
        inv_freq = self._inv_freq(device)
        positions = torch.arange(self.max_seq_len, dtype=torch.float32, device=device)
        if self.kind == "linear":
            positions = positions / float(self.scaling["factor"])
        return self._cos_sin(torch.outer(positions, inv_freq))  # [S, D/2] angles

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

    def _dynamic(self, positions: Tensor) -> tuple[Tensor, Tensor]:
        seq_len = positions.max() + 1
        grown = dynamic_ntk_frequencies(
            self.head_dim, self.base, float(self.scaling["factor"]), self.max_seq_len, seq_len
        )
        original = rope_frequencies(self.head_dim, self.base, device=positions.device)
        inv_freq = torch.where(seq_len > self.max_seq_len, grown, original)
        return self._cos_sin(positions.float()[..., None] * inv_freq)

    def check(self, lo: int, hi: int) -> None:
        """ValueError unless positions lo..hi (host ints) have angles here: 0..limit-1."""
        if lo >= 0 and hi < self.limit:
            return
        what = (
            f"the dynamic NTK range (factor x max_seq_len = {self.limit})"
            if self.kind == "dynamic"
            else f"the RoPE table (max_seq_len={self.max_seq_len})"
        )
        bad = hi if hi >= self.limit else lo
        raise ValueError(f"position {bad} is outside {what} (valid: 0..{self.limit - 1})")

    def forward(self, positions: Tensor, check: bool = True) -> tuple[Tensor, Tensor]:
        """cos, sin [S, D] for integer positions [S]; [B, 1, S, D] for per-row positions [B, S]
        (they broadcast over the heads of [B, H, S, D]). check=False: the caller checked the
        range already (the model does, once per forward, without reading positions back)."""
        if check and positions.numel() and not torch.compiler.is_compiling():
            self.check(int(positions.min()), int(positions.max()))
        if self.kind == "dynamic":
            cos, sin = self._dynamic(positions)
        else:
            cos, sin = self.cos[positions], self.sin[positions]
        if positions.dim() == 2:
            return cos.unsqueeze(1), sin.unsqueeze(1)
        return cos, sin

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

"""Context extension for RoPE (textbook: stretching a model past its trained length): the
frequencies each scaling gives, as Hugging Face computes them. llmkit.rope turns them into tables."""

from __future__ import annotations

import math

import torch
from torch import Tensor

__all__ = ["llama3_frequencies", "yarn_frequencies", "dynamic_ntk_frequencies"]


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

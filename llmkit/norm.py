"""Normalization (textbook: LayerNorm vs RMSNorm)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

__all__ = ["RMSNorm", "LayerNorm", "rms_norm", "layer_norm", "make_norm"]


def rms_norm(x: Tensor, weight: Tensor | None = None, eps: float = 1e-6) -> Tensor:
    """x / sqrt(mean(x^2) + eps) * weight over the last dim.

    The statistic is computed in float32 and cast back *before* the weight multiply: the order of
    Hugging Face Llama and Meta's reference, which keeps bf16 outputs bit-compatible with them.
    """
    dtype = x.dtype
    x32 = x.float()
    # eps inside the square root: it bounds the scale when a row is all zeros.
    y = (x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + eps)).to(dtype)
    return y if weight is None else weight * y


def layer_norm(
    x: Tensor, weight: Tensor | None = None, bias: Tensor | None = None, eps: float = 1e-5
) -> Tensor:
    """(x - mean) / sqrt(var + eps) * weight + bias, written out for comparison with rms_norm."""
    dtype = x.dtype
    x32 = x.float()
    mean = x32.mean(-1, keepdim=True)
    var = (x32 - mean).pow(2).mean(-1, keepdim=True)  # biased variance, as in the LayerNorm paper
    y = ((x32 - mean) * torch.rsqrt(var + eps)).to(dtype)
    if weight is not None:
        y = weight * y
    if bias is not None:
        y = y + bias
    return y


class RMSNorm(nn.Module):
    """Root-mean-square norm with a learned per-channel gain (no mean subtraction, no bias)."""

    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: Tensor) -> Tensor:
        # Same arithmetic as rms_norm(), through PyTorch's fused kernel: one op instead of eight
        # matters when decoding one token at a time.
        if x.dtype == torch.float32:
            return self.weight * F.rms_norm(x, self.weight.shape, eps=self.eps)
        return self.weight * F.rms_norm(x.float(), self.weight.shape, eps=self.eps).to(x.dtype)

    def extra_repr(self) -> str:
        return f"{self.weight.shape[0]}, eps={self.eps}"


class LayerNorm(nn.Module):
    """LayerNorm with gain and bias (the 2017 transformer's norm)."""

    def __init__(self, dim: int, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x: Tensor) -> Tensor:
        return layer_norm(x, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.weight.shape[0]}, eps={self.eps}"


def make_norm(norm_type: str, dim: int, eps: float) -> nn.Module:
    """The norm a config names: "rms" or "layer"."""
    if norm_type == "rms":
        return RMSNorm(dim, eps)
    if norm_type == "layer":
        return LayerNorm(dim, eps)
    raise ValueError(f"norm_type must be 'rms' or 'layer', got {norm_type!r}")

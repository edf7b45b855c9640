"""Feed-forward networks (textbook: from ReLU FFN to SwiGLU)."""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .matvec import Linear, fused_linear

__all__ = ["silu", "SwiGLU", "FusedSwiGLU", "ReLUFFN", "GELUFFN", "swiglu_hidden_dim", "make_ffn"]


def silu(x: Tensor) -> Tensor:
    """SiLU (swish with beta=1): x * sigmoid(x)."""
    return x * torch.sigmoid(x)


def swiglu_hidden_dim(
    dim: int, multiple_of: int = 256, ffn_dim_multiplier: float | None = None
) -> int:
    """LLaMA's SwiGLU width: 2/3 of 4*dim (same parameters as a 4*dim ReLU FFN), optionally
    scaled, then rounded up to a multiple of `multiple_of` (4096 -> 11008)."""
    hidden = int(2 * (4 * dim) / 3)
    if ffn_dim_multiplier is not None:
        hidden = int(ffn_dim_multiplier * hidden)
    return multiple_of * ((hidden + multiple_of - 1) // multiple_of)


class SwiGLU(nn.Module):
    """w2(silu(w1 x) * w3 x): w1 is the gate, w3 the up projection, w2 the down projection."""

    def __init__(self, dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.w1 = Linear(dim, hidden_dim, bias=False)
        self.w3 = Linear(dim, hidden_dim, bias=False)
        self.w2 = Linear(hidden_dim, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


class FusedSwiGLU(nn.Module):
    """SwiGLU with w1 and w3 as one Linear, `gate_up` [2 * hidden, dim] (llmkit.fusion): made
    from a SwiGLU, whose weights it takes over; the same function."""

    def __init__(self, separate: SwiGLU) -> None:
        super().__init__()
        self.gate_up = fused_linear([separate.w1, separate.w3])
        self.w2 = separate.w2

    def forward(self, x: Tensor) -> Tensor:
        gate, up = self.gate_up(x).chunk(2, dim=-1)  # [..., hidden] each
        return self.w2(F.silu(gate) * up)


class ReLUFFN(nn.Module):
    """The 2017 FFN: w2(relu(w1 x)), two matrices."""

    def __init__(self, dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.w1 = Linear(dim, hidden_dim, bias=False)
        self.w2 = Linear(hidden_dim, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.w2(F.relu(self.w1(x)))


class GELUFFN(nn.Module):
    """The GPT/BERT FFN: w2(gelu(w1 x)) with the exact (erf) GELU."""

    def __init__(self, dim: int, hidden_dim: int) -> None:
        super().__init__()
        self.w1 = Linear(dim, hidden_dim, bias=False)
        self.w2 = Linear(hidden_dim, dim, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        return self.w2(F.gelu(self.w1(x)))


_FFNS = {"swiglu": SwiGLU, "relu": ReLUFFN, "gelu": GELUFFN}


def make_ffn(ffn_type: str, dim: int, hidden_dim: int) -> nn.Module:
    """The FFN a config names: "swiglu", "relu" or "gelu"."""
    if ffn_type not in _FFNS:
        raise ValueError(f"ffn_type must be one of {sorted(_FFNS)}, got {ffn_type!r}")
    return _FFNS[ffn_type](dim, hidden_dim)

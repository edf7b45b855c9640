"""Batch-1 decoding reads every weight once per token (textbook: decoding is bound by memory
bandwidth, not by arithmetic), so its speed is how fast the matrix-vector products stream weights.

On CPU the BLAS path for a one-row product ([1, in] @ [in, out]) streams far below the memory
bandwidth: measured here (2 threads, fp32, SmolLM2-135M's shapes) about 6 GB/s against 14 GB/s for
a plain sum over the same bytes. Written as multiply-and-sum over each weight row, the same
product becomes one vectorised reduction that torch.compile (inductor) splits across threads and
runs at about 17 GB/s. `Linear` is nn.Linear (same parameters, same state dict, same eager path)
that takes this form only while torch.compile traces a one-row CPU input: the compiled decode step.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

__all__ = ["Linear", "fused_linear", "streams_rows"]


def streams_rows(x: Tensor) -> bool:
    """Whether a product with input x [..., in] is traced as multiply-and-sum: one row, on CPU,
    while torch.compile traces (eager code keeps BLAS, which is fast for many rows)."""
    return torch.compiler.is_compiling() and x.device.type == "cpu" and x[..., 0].numel() == 1


class Linear(nn.Linear):
    """nn.Linear whose compiled one-row CPU product is y_j = sum_i x_i W[j, i] over each
    contiguous weight row, a reduction the compiler streams at memory bandwidth."""

    def forward(self, x: Tensor) -> Tensor:
        if not streams_rows(x):
            return super().forward(x)
        y = (x.unsqueeze(-2) * self.weight).sum(-1)  # [..., 1, in] * [out, in] -> [..., out]
        return y if self.bias is None else y + self.bias


def fused_linear(linears: list[nn.Linear]) -> Linear:
    """One Linear whose output is the concatenation of `linears`' outputs (same input)."""
    first = linears[0]
    out_features = sum(m.out_features for m in linears)
    bias = first.bias is not None
    fused = Linear(
        first.in_features,
        out_features,
        bias=bias,
        device=first.weight.device,
        dtype=first.weight.dtype,
    )
    with torch.no_grad():
        fused.weight.copy_(torch.cat([m.weight for m in linears]))
        if bias:
            fused.bias.copy_(torch.cat([m.bias for m in linears]))
    return fused

"""Fused projections (textbook: why batch-1 decoding is bound by reading weights): Q, K and V read
the same input, and so do SwiGLU's gate and up, so one [sum(out), in] matmul can replace each group.

Opt-in and for inference: `fuse_projections(model)` replaces the separate Linears by one fused
Linear per group (q/k/v -> qkv_proj, w1/w3 -> gate_up), layer by layer, so the model never holds
two copies of a weight (the peak is one extra layer). The fused model's state dict uses the fused
names; load checkpoints before fusing.
"""

from __future__ import annotations

import torch
from torch import nn

from .matvec import Linear

__all__ = ["fuse_projections", "fused_linear"]


def fused_linear(linears: list[nn.Linear]) -> nn.Linear:
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


def fuse_projections(model: nn.Module) -> nn.Module:
    """Fuse every Attention's q/k/v and every SwiGLU's gate/up in place; returns the model."""
    from .attention import Attention
    from .ffn import SwiGLU

    for module in model.modules():
        if isinstance(module, Attention) and module.qkv_proj is None:
            module.qkv_proj = fused_linear([module.q_proj, module.k_proj, module.v_proj])
            module.q_proj = module.k_proj = module.v_proj = None  # frees the separate weights
        elif isinstance(module, SwiGLU) and module.gate_up is None:
            module.gate_up = fused_linear([module.w1, module.w3])
            module.w1 = module.w3 = None
    return model

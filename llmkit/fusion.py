"""Fused projections (textbook: why batch-1 decoding is bound by reading weights): Q, K and V read
the same input, and so do SwiGLU's gate and up, so one [sum(out), in] matmul can replace each group.

Opt-in and for inference: `fuse_projections(model)` replaces each Attention by a FusedAttention
(q/k/v -> qkv_proj) and each SwiGLU by a FusedSwiGLU (w1/w3 -> gate_up), layer by layer, so the
model never holds two copies of a weight (the peak is one extra layer). The fused model's state
dict uses the fused names; load checkpoints before fusing.
"""

from __future__ import annotations

from torch import nn

from .attention import Attention, FusedAttention
from .ffn import FusedSwiGLU, SwiGLU

__all__ = ["fuse_projections"]

# The exact class (a subclass may compute something else) -> its fused form.
_FUSED = {Attention: FusedAttention, SwiGLU: FusedSwiGLU}


def fuse_projections(model: nn.Module) -> nn.Module:
    """Fuse every Attention's q/k/v and every SwiGLU's gate/up in place; returns the model.
    Fused modules are left as they are, so fusing twice changes nothing."""
    for name, child in model.named_children():  # replacing a child keeps the dict's size
        fused = _FUSED.get(type(child))
        if fused is None:
            fuse_projections(child)
        else:  # the separate weights are freed with `child`, one layer at a time
            setattr(model, name, fused(child))
    return model

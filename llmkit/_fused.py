"""Inference-only concatenation of Linear weights that read the same input (QKV, gate+up).

One matmul instead of three is what batch-1 decoding on a CPU is bound by. The concatenated copy
is rebuilt whenever a source weight changes (version counter or storage) and dropped on .to().
Training, torch.compile and hooked modules use the plain separate Linears.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn
from torch.nn.modules import module as _module


class FusedLinearWeights:
    def __init__(self) -> None:
        self._key: tuple | None = None
        self._weight: Tensor | None = None

    def get(self, linears: list[nn.Linear]) -> Tensor | None:
        """The [sum(out), in] weight, or None when the separate Linears must run."""
        if torch.is_grad_enabled() or torch.compiler.is_compiling():
            return None
        if _module._global_forward_hooks or _module._global_forward_pre_hooks:
            return None
        if any(m._forward_hooks or m._forward_pre_hooks for m in linears):
            return None  # e.g. count_kv_projections watching k_proj
        try:
            key = tuple((m.weight.data_ptr(), m.weight._version) for m in linears)
        except RuntimeError:  # weights created under inference_mode carry no version counter
            return None
        if key != self._key:
            self._weight = torch.cat([m.weight for m in linears])
            self._key = key
        return self._weight

    def clear(self) -> None:
        self._key = self._weight = None

"""KV caches (textbook: why decoding caches K and V, and how a static cache is laid out)."""

from __future__ import annotations

import torch
from torch import Tensor

from .attention import causal_mask
from .config import ModelConfig

__all__ = ["StaticKVCache", "ConcatKVCache"]


class StaticKVCache:
    """Preallocated K and V buffers per layer, [B, H_kv, max_len, D], written in place.

    Positions are tensors and writes use index_copy_, so the shapes never change from step to
    step: one compiled decode step (or CUDA graph) serves every position. Attention reads the
    whole buffer and a mask hides slots beyond each query's position, so "resetting" the cache is
    just writing from position 0 again.
    """

    def __init__(
        self,
        config: ModelConfig,
        batch_size: int,
        max_len: int,
        dtype: torch.dtype = torch.float32,
        device: torch.device | str | None = None,
    ) -> None:
        if max_len <= 0 or batch_size <= 0:
            raise ValueError(
                f"batch_size and max_len must be positive, got {batch_size}, {max_len}"
            )
        self.max_len = max_len
        shape = (batch_size, config.num_key_value_heads, max_len, config.head_dim)
        self.k = [
            torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.num_hidden_layers)
        ]
        self.v = [
            torch.zeros(shape, dtype=dtype, device=device) for _ in range(config.num_hidden_layers)
        ]
        self._slots = torch.arange(max_len, device=device)  # [max_len], key positions for the mask

    @property
    def nbytes(self) -> int:
        """Bytes really allocated for K and V (all layers)."""
        return sum(t.numel() * t.element_size() for t in (*self.k, *self.v))

    def check(self, positions: Tensor) -> None:
        """ValueError when a write at `positions` would fall outside the buffers."""
        if positions.numel() == 0 or torch.compiler.is_compiling():
            return
        hi, lo = int(positions.max()), int(positions.min())
        if hi >= self.max_len or lo < 0:
            raise ValueError(
                f"KV cache overflow: writing position {hi if lo >= 0 else lo} but the static cache "
                f"holds positions 0..{self.max_len - 1} (max_len={self.max_len}); allocate a larger max_len"
            )

    def update(
        self, layer_idx: int, positions: Tensor, k: Tensor, v: Tensor, check: bool = True
    ) -> tuple[Tensor, Tensor]:
        """Write k, v [B, H_kv, S, D] at `positions` [S]; return the full buffers [B, H_kv, max_len, D]."""
        if check:
            self.check(positions)
        k_buf, v_buf = self.k[layer_idx], self.v[layer_idx]
        k_buf.index_copy_(2, positions, k)
        v_buf.index_copy_(2, positions, v)
        return k_buf, v_buf

    def mask(self, positions: Tensor, k_len: int) -> Tensor:
        """[S, max_len] bool: query at position p sees slots 0..p (bottom-right causal by position)."""
        return self._slots[:k_len][None, :] <= positions[:, None]

    def reset(self) -> None:
        for t in (*self.k, *self.v):
            t.zero_()


class ConcatKVCache:
    """The teaching reference: append each step's K and V with torch.cat (reallocates every step)."""

    def __init__(self, config: ModelConfig) -> None:
        self.k: list[Tensor | None] = [None] * config.num_hidden_layers
        self.v: list[Tensor | None] = [None] * config.num_hidden_layers

    def __len__(self) -> int:
        return 0 if self.k[0] is None else self.k[0].shape[2]

    @property
    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for t in (*self.k, *self.v) if t is not None)

    def update(
        self, layer_idx: int, positions: Tensor, k: Tensor, v: Tensor, check: bool = True
    ) -> tuple[Tensor, Tensor]:
        """Append k, v [B, H_kv, S, D]; positions must continue where this layer stopped."""
        old_k, old_v = self.k[layer_idx], self.v[layer_idx]
        length = 0 if old_k is None else old_k.shape[2]
        if check and positions.numel() and int(positions[0]) != length:
            raise ValueError(
                f"ConcatKVCache appends only: layer {layer_idx} holds {length} positions, "
                f"got a write at position {int(positions[0])}"
            )
        self.k[layer_idx] = k if old_k is None else torch.cat((old_k, k), dim=2)
        self.v[layer_idx] = v if old_v is None else torch.cat((old_v, v), dim=2)
        return self.k[layer_idx], self.v[layer_idx]

    def mask(self, positions: Tensor, k_len: int) -> Tensor | None:
        """None (attend to everything) for one query, else the bottom-right causal mask."""
        q_len = positions.numel()
        return None if q_len == 1 else causal_mask(q_len, k_len, device=positions.device)

    def reset(self) -> None:
        self.k = [None] * len(self.k)
        self.v = [None] * len(self.v)

"""KV caches (textbook: why decoding caches K and V, and how a static cache is laid out).

Every cache answers what the KVCache protocol asks: `check` (does a chunk at these positions fit,
asked once per forward before any layer writes), `update` (write this chunk's K/V, return the
keys and values to attend to) and `key_slots` (the sequence slot of each returned key, from which
llmkit.attention.build_mask derives causality, padding and the sliding window).
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import torch
from torch import Tensor, nn

from .config import ModelConfig

__all__ = ["KVCache", "CacheStep", "StaticKVCache", "RollingKVCache", "ConcatKVCache"]


class KVCache(Protocol):
    """What attention needs from a cache. kv_len: the chunk ends at position kv_len - 1 and the
    caller knows it on the host (eager decoding): read only what is filled; None: fixed shapes
    (a compiled step), read the whole cache and let the mask hide the rest."""

    def check(self, first: int, last: int) -> None:
        """ValueError unless a chunk at positions first..last can be written."""

    def update(
        self, layer_idx: int, positions: Tensor, k: Tensor, v: Tensor, kv_len: int | None
    ) -> tuple[Tensor, Tensor]:
        """Write k, v [B, H_kv, S, D] at `positions` [S]; return keys, values [B, H_kv, T, D]."""

    def key_slots(self, positions: Tensor, kv_len: int | None) -> Tensor:
        """[T]: the position each key `update` returns holds (-1: empty)."""


class CacheStep(NamedTuple):
    """One forward's use of a cache, decided once by the model and shared by every layer: where
    this chunk's K/V go (`positions` [S]) and how much to read back (`kv_len`). A NamedTuple:
    immutable, and torch.compile traces it without a graph break."""

    cache: KVCache
    positions: Tensor
    kv_len: int | None = None

    def update(self, layer_idx: int, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        return self.cache.update(layer_idx, self.positions, k, v, self.kv_len)

    def key_slots(self) -> Tensor:
        return self.cache.key_slots(self.positions, self.kv_len)


class _BufferCache(nn.Module):
    """K and V per layer as non-persistent buffers [B, H_kv, L, D]: `model.to()` moves them, and a
    compiled step sees them as the module's own state (static addresses, CUDA-graph capturable).

    dtype None: the buffers follow the first K written (the model's dtype and device)."""

    def __init__(self, config: ModelConfig, batch_size: int, length: int, dtype, device) -> None:
        super().__init__()
        if length <= 0 or batch_size <= 0:
            raise ValueError(f"batch_size and max_len must be positive, got {batch_size}, {length}")
        self.layers, self.batch_size = config.num_hidden_layers, batch_size
        self.shape = (batch_size, config.num_key_value_heads, length, config.head_dim)
        self.follow = dtype is None
        self._allocate(dtype or torch.get_default_dtype(), device)

    def _allocate(self, dtype: torch.dtype, device) -> None:
        # slots (each buffer slot's index) live with K/V, so following the model moves them too
        self.register_buffer("slots", torch.arange(self.shape[2], device=device), False)
        for i in range(self.layers):
            self.register_buffer(
                f"k{i}", torch.zeros(self.shape, dtype=dtype, device=device), False
            )
            self.register_buffer(
                f"v{i}", torch.zeros(self.shape, dtype=dtype, device=device), False
            )
        self.written = False

    @property
    def k(self) -> list[Tensor]:
        return [getattr(self, f"k{i}") for i in range(self.layers)]

    @property
    def v(self) -> list[Tensor]:
        return [getattr(self, f"v{i}") for i in range(self.layers)]

    @property
    def dtype(self) -> torch.dtype:
        return self.k0.dtype

    @property
    def nbytes(self) -> int:
        """Bytes really allocated for K and V (all layers)."""
        return sum(t.numel() * t.element_size() for t in (*self.k, *self.v))

    def update(
        self, layer_idx: int, positions: Tensor, k: Tensor, v: Tensor, kv_len: int | None = None
    ) -> tuple[Tensor, Tensor]:
        """Write k, v [B, H_kv, S, D] at sequence slots `positions` [S]; return the keys and
        values [B, H_kv, T, D] attention reads (their slots: key_slots)."""
        return self._write(*self._buffers_for(layer_idx, k), positions, k, v, kv_len)

    def _buffers_for(self, layer_idx: int, k: Tensor) -> tuple[Tensor, Tensor]:
        k_buf = getattr(self, f"k{layer_idx}")
        if k_buf.dtype != k.dtype or k_buf.device != k.device:
            if not self.follow or self.written:
                raise ValueError(
                    f"the KV cache holds {k_buf.dtype} on {k_buf.device} but the model writes "
                    f"{k.dtype} on {k.device}; build the cache with the model's dtype and device "
                    "(or dtype=None to follow the model)"
                )
            self._allocate(k.dtype, k.device)
            k_buf = getattr(self, f"k{layer_idx}")
        self.written = True
        return k_buf, getattr(self, f"v{layer_idx}")


class StaticKVCache(_BufferCache):
    """Preallocated K and V buffers per layer, [B, H_kv, max_len, D], written in place.

    Positions are tensors and writes use index_copy_, so the shapes never change from step to
    step: one compiled decode step (or CUDA graph) serves every position. Attention reads the
    filled slots [0, kv_len) (eager) or the whole buffer with a mask hiding slots beyond each
    query's position (compiled), so starting over is just writing from position 0 again.
    """

    def __init__(
        self,
        config: ModelConfig,
        batch_size: int,
        max_len: int,
        dtype: torch.dtype | None = None,
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__(config, batch_size, max_len, dtype, device)
        self.max_len = max_len

    def check(self, first: int, last: int) -> None:
        """ValueError when a write at positions first..last would fall outside the buffers."""
        hi, lo = last, first
        if hi >= self.max_len or lo < 0:
            raise ValueError(
                f"KV cache overflow: writing position {hi if lo >= 0 else lo} but the static cache "
                f"holds positions 0..{self.max_len - 1} (max_len={self.max_len}); allocate a larger max_len"
            )

    def _write(self, k_buf, v_buf, positions, k, v, kv_len):
        """Write at `positions` [S]; attend to the filled slots [0, kv_len) (eager decoding) or
        the whole buffer, T = max_len (fixed shape, compiled)."""
        k_buf.index_copy_(2, positions, k)
        v_buf.index_copy_(2, positions, v)
        if kv_len is not None:
            return k_buf[:, :, :kv_len], v_buf[:, :, :kv_len]
        return k_buf, v_buf

    def key_slots(self, positions: Tensor, kv_len: int | None = None) -> Tensor:
        """[T]: slot t holds position t."""
        return self.slots[: kv_len or self.max_len]


class RollingKVCache(_BufferCache):
    """A sliding-window cache (Mistral): `window` slots per layer, position p lives in slot
    p % window, so memory stays [B, H_kv, window, D] however long the sequence grows.

    update returns the window as it was before this chunk followed by the chunk's own K/V
    ([B, H_kv, window + S, D]); the mask keeps, for each query, the keys of the last `window`
    positions. Writes must continue where the previous chunk stopped (as decoding does). A chunk
    known to start at 0 (kv_len == S) attends to its own K/V only: the window holds nothing yet.
    """

    def __init__(
        self,
        config: ModelConfig,
        batch_size: int,
        window: int,
        dtype: torch.dtype | None = None,
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__(config, batch_size, window, dtype, device)
        self.window = window

    def check(self, first: int, last: int) -> None:
        if first < 0:
            raise ValueError(f"negative position {first} written to the KV cache")

    def _write(self, k_buf, v_buf, positions, k, v, kv_len):
        fresh = kv_len == k.shape[2]
        k_all = k if fresh else torch.cat((k_buf, k), dim=2)
        v_all = v if fresh else torch.cat((v_buf, v), dim=2)
        keep = min(k.shape[2], self.window)  # only the last `window` positions are ever needed
        slots = positions[-keep:] % self.window
        k_buf.index_copy_(2, slots, k[:, :, -keep:])
        v_buf.index_copy_(2, slots, v[:, :, -keep:])
        return k_all, v_all

    def key_slots(self, positions: Tensor, kv_len: int | None = None) -> Tensor:
        """[window + S]: the position each window slot held before this chunk (-1: empty), then
        the chunk's positions ([S] alone when kv_len == S). Derived from the chunk's first
        position, so no state is kept."""
        if kv_len == positions.shape[0]:
            return positions
        last = positions[:1] - 1  # the last position written before this chunk
        held = last - torch.remainder(last - self.slots, self.window)
        return torch.cat((torch.where(held >= 0, held, -1), positions))


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

    def check(self, first: int, last: int) -> None:
        """ValueError unless the chunk continues where the cache stopped."""
        if first != len(self):
            raise ValueError(
                f"ConcatKVCache appends only: it holds {len(self)} positions, "
                f"got a write at position {first}"
            )

    def update(
        self, layer_idx: int, positions: Tensor, k: Tensor, v: Tensor, kv_len: int | None = None
    ) -> tuple[Tensor, Tensor]:
        """Append k, v [B, H_kv, S, D] (positions continue where the cache stopped: check)."""
        old_k, old_v = self.k[layer_idx], self.v[layer_idx]
        self.k[layer_idx] = k if old_k is None else torch.cat((old_k, k), dim=2)
        self.v[layer_idx] = v if old_v is None else torch.cat((old_v, v), dim=2)
        return self.k[layer_idx], self.v[layer_idx]

    def key_slots(self, positions: Tensor, kv_len: int | None = None) -> Tensor:
        """[T]: what the layers will hold once this chunk is appended (asked before the first
        layer writes)."""
        return torch.arange(len(self) + positions.numel(), device=positions.device)

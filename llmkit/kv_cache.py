"""KV caches (textbook: why decoding caches K and V, and how a static cache is laid out).

Every cache answers two questions for attention: `update` (write this chunk's K/V, return the keys
and values to attend to) and `key_slots` (the sequence slot of each returned key, from which
llmkit.attention.build_mask derives causality, padding and the sliding window).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import build_mask
from .config import ModelConfig

__all__ = ["StaticKVCache", "RollingKVCache", "ConcatKVCache"]


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
        self,
        layer_idx: int,
        positions: Tensor,
        k: Tensor,
        v: Tensor,
        check: bool = True,
        kv_len: int | None = None,
    ) -> tuple[Tensor, Tensor]:
        """Write k, v [B, H_kv, S, D] at sequence slots `positions` [S]; return the keys and
        values [B, H_kv, T, D] attention reads (their slots: key_slots)."""
        if check:
            self.check(positions)
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

    def reset(self) -> None:
        for t in (*self.k, *self.v):
            t.zero_()


class StaticKVCache(_BufferCache):
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
        dtype: torch.dtype | None = None,
        device: torch.device | str | None = None,
    ) -> None:
        super().__init__(config, batch_size, max_len, dtype, device)
        self.max_len = max_len

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

    def mask(self, positions: Tensor, k_len: int) -> Tensor:
        """[S, k_len] bool: query at position p sees slots 0..p (bottom-right causal by position)."""
        return build_mask(positions, self.slots[:k_len])


class RollingKVCache(_BufferCache):
    """A sliding-window cache (Mistral): `window` slots per layer, position p lives in slot
    p % window, so memory stays [B, H_kv, window, D] however long the sequence grows.

    update returns the window as it was before this chunk followed by the chunk's own K/V
    ([B, H_kv, window + S, D]); the mask keeps, for each query, the keys of the last `window`
    positions. Writes must continue where the previous chunk stopped (as decoding does).
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

    def check(self, positions: Tensor) -> None:
        if positions.numel() and not torch.compiler.is_compiling() and int(positions.min()) < 0:
            raise ValueError(f"negative position {int(positions.min())} written to the KV cache")

    def _write(self, k_buf, v_buf, positions, k, v, kv_len):
        k_all, v_all = torch.cat((k_buf, k), dim=2), torch.cat((v_buf, v), dim=2)
        keep = min(k.shape[2], self.window)  # only the last `window` positions are ever needed
        slots = positions[-keep:] % self.window
        k_buf.index_copy_(2, slots, k[:, :, -keep:])
        v_buf.index_copy_(2, slots, v[:, :, -keep:])
        return k_all, v_all

    def key_slots(self, positions: Tensor, kv_len: int | None = None) -> Tensor:
        """[window + S]: the position each window slot held before this chunk (-1: empty), then
        the chunk's positions. Derived from the chunk's first position, so no state is kept."""
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

    def update(
        self,
        layer_idx: int,
        positions: Tensor,
        k: Tensor,
        v: Tensor,
        check: bool = True,
        kv_len: int | None = None,
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

    def key_slots(self, positions: Tensor, kv_len: int | None = None) -> Tensor:
        """[T]: what the layers will hold once this chunk is appended (asked before the first
        layer writes)."""
        return torch.arange(len(self) + positions.numel(), device=positions.device)

    def mask(self, positions: Tensor, k_len: int) -> Tensor | None:
        """None (attend to everything) for one query, else the bottom-right causal mask."""
        if positions.numel() == 1:
            return None
        return build_mask(positions, torch.arange(k_len, device=positions.device))

    def reset(self) -> None:
        self.k = [None] * len(self.k)
        self.v = [None] * len(self.v)

"""Attention with n_heads query heads and n_kv_heads key/value heads (textbook: MHA, GQA, MQA)."""

from __future__ import annotations

import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from .config import ModelConfig
from .kv_cache import CacheStep
from .matvec import Linear, fused_linear
from .norm import RMSNorm
from .rope import apply_rope

__all__ = [
    "Attention",
    "FusedAttention",
    "causal_mask",
    "build_mask",
    "mask_for",
    "attention_weights",
    "sdpa",
]


def causal_mask(q_len: int, k_len: int, device: torch.device | str | None = None) -> Tensor:
    """[q_len, k_len] bool, True = may attend, aligned bottom-right: the last query is the last key.

    A chunk of q_len new tokens after k_len - q_len cached ones: query i sits at position
    k_len - q_len + i and sees keys 0..that position. (is_causal=True aligns top-left instead,
    which is wrong whenever q_len < k_len.)
    """
    q_pos = torch.arange(q_len, device=device) + (k_len - q_len)
    return torch.arange(k_len, device=device)[None, :] <= q_pos[:, None]


def build_mask(
    q_slots: Tensor,
    key_slots: Tensor,
    padding: Tensor | None = None,
    window: int | None = None,
) -> Tensor:
    """Which keys each query may attend to, by sequence slot: key slot k for query slot q when
    0 <= k <= q (causal; -1 marks an empty cache slot), k > q - window (sliding window), and the
    key is a real token (padding [B, N] over slots, 1 = token, 0 = padding).

    Returns [S, T] bool, or [B, 1, S, T] with padding. A padding query still sees itself, so its
    row never becomes all -inf (NaN in softmax) and nothing NaN reaches later layers.
    """
    q, k = q_slots[:, None], key_slots[None, :]  # [S, 1], [1, T]
    mask = (k <= q) & (k >= 0)
    if window is not None:
        mask = mask & (k > q - window)
    if padding is None:
        return mask
    n = padding.shape[1]
    index = key_slots.clamp(0, n - 1)
    real = torch.where(key_slots < n, padding[:, index].bool(), True)  # [B, T]; past N: generated
    mask = (mask[None] & real[:, None, :]) | (k == q)[None]  # [B, S, T]
    return mask[:, None]


def mask_for(
    positions: Tensor,
    key_slots: Tensor,
    *,
    end: int | None = None,
    padding: Tensor | None = None,
    window: int | None = None,
) -> Tensor | None:
    """The mask for queries at `positions` [S] over keys at `key_slots` [T], or None where SDPA
    needs none. None needs the chunk's end known on the host (`end`: its last position + 1) and
    no padding or window cut: then T == S keys are the chunk's own (is_causal), and one query
    over T == end keys sees them all."""
    S, T = positions.shape[0], key_slots.shape[0]
    plain = end is not None and padding is None and (window is None or window >= T)
    if plain and (T == S or (S == 1 and T == end)):
        return None
    return build_mask(positions, key_slots, padding, window)


def attention_weights(
    q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None
) -> tuple[Tensor, Tensor]:
    """The explicit path: softmax(q k^T / sqrt(d) + mask) v, returning the weights too.

    q [B, H, S, D]; k, v [B, H_kv, T, D]; mask [S, T] or [B, 1, S, T] bool, or None.
    Returns out [B, H, S, D] and weights [B, H, S, T]. Query heads are viewed as [H_kv, G] groups
    and broadcast against their shared K/V head, so K and V are never copied.
    """
    B, H, S, D = q.shape
    H_kv, T = k.shape[1], k.shape[2]
    q = q.view(B, H_kv, H // H_kv, S, D)  # [B, H_kv, G, S, D]
    scores = q @ k.unsqueeze(2).transpose(-1, -2) / math.sqrt(D)  # [B, H_kv, G, S, T]
    if mask is not None:
        if mask.dim() == 4:  # [B, 1, S, T] -> [B, 1, 1, S, T] against the [H_kv, G] head split
            mask = mask.unsqueeze(2)
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = torch.softmax(scores.float(), dim=-1).to(q.dtype)
    out = weights @ v.unsqueeze(2)  # [B, H_kv, G, S, D]
    return out.reshape(B, H, S, D), weights.reshape(B, H, S, T)


def sdpa(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> Tensor:
    """The fast path: PyTorch's fused attention; enable_gqa lets H_kv < H without repeating K/V.

    mask None means plain causal when S == T (a prefill: is_causal, FlashAttention-eligible) and
    no mask otherwise (one new token).
    """
    S, T = q.shape[2], k.shape[2]
    gqa = q.shape[1] != k.shape[1]
    if mask is None:
        return F.scaled_dot_product_attention(q, k, v, is_causal=S == T and S > 1, enable_gqa=gqa)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask, enable_gqa=gqa)


class Attention(nn.Module):
    """Multi-head attention with grouped K/V heads: MHA (H_kv = H), GQA, MQA (H_kv = 1).

    Parameter names follow Hugging Face Llama (q_proj, k_proj, v_proj, o_proj; q/k/v biases only
    with `qkv_bias`, as Qwen2). RoPE angles and the mask come from the caller (the model computes
    them once per forward), as in gpt-fast: attention has no second way to make them.
    llmkit.fuse_projections turns it into a FusedAttention (one qkv_proj), the same function.
    """

    def __init__(self, config: ModelConfig, layer_idx: int = 0) -> None:
        super().__init__()
        self.layer_idx = layer_idx
        self.num_heads, self.num_kv_heads = config.num_attention_heads, config.num_key_value_heads
        self.head_dim = config.head_dim
        h, d = config.hidden_size, config.head_dim
        bias = config.qkv_bias  # Qwen2: q/k/v carry biases, o_proj does not
        self.q_proj = Linear(h, self.num_heads * d, bias=bias)
        self.k_proj = Linear(h, self.num_kv_heads * d, bias=bias)
        self.v_proj = Linear(h, self.num_kv_heads * d, bias=bias)
        self.o_proj = Linear(self.num_heads * d, h, bias=False)
        if config.qk_norm:  # Qwen3: one RMSNorm gain per head dimension, shared by all heads
            self.q_norm = RMSNorm(d, config.rms_norm_eps)
            self.k_norm = RMSNorm(d, config.rms_norm_eps)
        else:
            self.q_norm = self.k_norm = None
        self.interleaved = config.rope_interleaved  # RoPE pairing: adjacent (Meta) or half-split

    def rotated_qkv(self, x: Tensor, cos: Tensor, sin: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        """q [B, H, S, D] and k [B, H_kv, S, D] with RoPE applied, v [B, H_kv, S, D]."""
        B, S, _ = x.shape
        H, H_kv, D = self.num_heads, self.num_kv_heads, self.head_dim
        q = self.q_proj(x).view(B, S, H, D).transpose(1, 2)  # [B, H, S, D]
        k = self.k_proj(x).view(B, S, H_kv, D).transpose(1, 2)  # [B, H_kv, S, D]
        v = self.v_proj(x).view(B, S, H_kv, D).transpose(1, 2)  # [B, H_kv, S, D]
        return self._rotate(q, k, cos, sin) + (v,)

    def _rotate(self, q: Tensor, k: Tensor, cos: Tensor, sin: Tensor) -> tuple[Tensor, Tensor]:
        """Normalise each head's q and k (Qwen3), then rotate them; RoPE never touches V."""
        if self.q_norm is not None:
            q, k = self.q_norm(q), self.k_norm(k)
        return apply_rope(q, cos, sin, self.interleaved), apply_rope(k, cos, sin, self.interleaved)

    def _keys_values(self, x: Tensor, cos_sin, cache: CacheStep | None) -> tuple[Tensor, ...]:
        """q [B, H, S, D] and the keys, values [B, H_kv, T, D] it attends to."""
        if isinstance(cos_sin, Tensor):
            raise TypeError("cos_sin is RoPE's (cos, sin) pair, e.g. model.rope(positions)")
        q, k, v = self.rotated_qkv(x, *cos_sin)
        if cache is not None:
            k, v = cache.update(self.layer_idx, k, v)  # [B, H_kv, T, D]
        return q, k, v

    def _merge_heads(self, out: Tensor) -> Tensor:
        """[B, H, S, D] -> o_proj over the concatenated heads, [B, S, hidden]."""
        B, _, S, _ = out.shape
        return self.o_proj(out.transpose(1, 2).reshape(B, S, self.num_heads * self.head_dim))

    def forward(
        self,
        x: Tensor,
        cos_sin: tuple[Tensor, Tensor],
        mask: Tensor | None = None,
        cache: CacheStep | None = None,
    ) -> Tensor:
        """x [B, S, hidden] -> [B, S, hidden], through PyTorch's fused attention (sdpa).

        cos_sin: RoPE cos, sin of these tokens, [S, D] or [B, 1, S, D] (RotaryEmbedding's
        output). mask [S, T] or [B, 1, S, T] bool (True = may attend); None = causal over the
        chunk's own keys, or every key for one query. cache: this forward's CacheStep (where K/V
        are written, what is read back), None to attend to the chunk alone.
        """
        q, k, v = self._keys_values(x, cos_sin, cache)
        return self._merge_heads(sdpa(q, k, v, mask))

    def forward_with_weights(
        self,
        x: Tensor,
        cos_sin: tuple[Tensor, Tensor],
        mask: Tensor | None = None,
        cache: CacheStep | None = None,
    ) -> tuple[Tensor, Tensor]:
        """The explicit path, for looking at the pattern: (out [B, S, hidden], weights
        [B, H, S, T]); arguments as in forward."""
        q, k, v = self._keys_values(x, cos_sin, cache)
        S = x.shape[1]
        if mask is None and S > 1:
            mask = causal_mask(S, k.shape[2], device=x.device)
        out, weights = attention_weights(q, k, v, mask)
        return self._merge_heads(out), weights


class FusedAttention(Attention):
    """Attention whose q/k/v projections are one Linear, `qkv_proj` [(H + 2 H_kv) D, hidden]: one
    matmul reads the input once (llmkit.fusion). Made from an Attention, whose separate weights
    it takes over; the same function."""

    def __init__(self, separate: Attention) -> None:
        nn.Module.__init__(self)  # not Attention.__init__: the separate weights are not rebuilt
        self.layer_idx, self.interleaved = separate.layer_idx, separate.interleaved
        self.num_heads, self.num_kv_heads = separate.num_heads, separate.num_kv_heads
        self.head_dim = separate.head_dim
        self.qkv_proj = fused_linear([separate.q_proj, separate.k_proj, separate.v_proj])
        self.o_proj, self.q_norm, self.k_norm = separate.o_proj, separate.q_norm, separate.k_norm

    def rotated_qkv(self, x: Tensor, cos: Tensor, sin: Tensor) -> tuple[Tensor, Tensor, Tensor]:
        B, S, _ = x.shape
        H, H_kv = self.num_heads, self.num_kv_heads
        heads = self.qkv_proj(x).view(B, S, H + 2 * H_kv, self.head_dim).transpose(1, 2)
        q, k, v = heads.split([H, H_kv, H_kv], dim=1)  # [B, H, S, D], [B, H_kv, S, D] twice
        if self.q_norm is not None:  # each head normalised before its rotation
            return self._rotate(q, k, cos, sin) + (v,)
        # one rotation for the Q and K heads together
        q, k = apply_rope(heads[:, : H + H_kv], cos, sin, self.interleaved).split([H, H_kv], 1)
        return q, k, v

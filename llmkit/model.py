"""The decoder-only model (textbook: embedding -> N blocks -> final norm -> LM head)."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import mask_for
from .block import TransformerBlock
from .config import ModelConfig
from .kv_cache import CacheStep, KVCache, RollingKVCache, StaticKVCache
from .matvec import Linear
from .norm import make_norm
from .rope import RotaryEmbedding

__all__ = ["Transformer", "row_positions"]


class Transformer(nn.Module):
    """A LLaMA-style decoder; with norm_position="post" and ffn_type="relu" it is the 2017 decoder.

    The model owns the one RotaryEmbedding; each forward looks up the angles and decides the mask
    once and hands both to every layer. `forward` is the eager path (an int start position);
    `forward_fixed` the fixed-shape one (tensor positions) that a compiled decode step runs. Weights start as N(0, 0.02) (GPT/LLaMA init).
    """

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.rope = RotaryEmbedding.from_config(config)
        self.layers = nn.ModuleList(
            TransformerBlock(config, i) for i in range(config.num_hidden_layers)
        )
        # Post-norm blocks already end in a norm; only the pre-norm stack needs a final one.
        if config.norm_position == "pre":
            self.norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        else:
            self.norm = nn.Identity()
        self.lm_head = Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.embed.weight
        self.apply(_init_weights)

    def forward(
        self,
        input_ids: Tensor,
        start: int = 0,
        cache: KVCache | None = None,
        *,
        attention_mask: Tensor | None = None,
        last_only: bool = False,
    ) -> Tensor:
        """input_ids [B, S] at positions start..start+S-1 -> logits [B, S, vocab] ([B, 1, vocab]
        with last_only). The eager path: the range is known on the host, checked before any layer
        writes, and attention reads only the cache slots filled so far.

        cache: a KVCache the chunk's K/V are written to (StaticKVCache, RollingKVCache,
        ConcatKVCache). attention_mask [B, N] over positions 0..N-1 (1 = token, 0 = padding;
        positions past N count as tokens), as in Hugging Face: each row's RoPE positions count
        its own tokens.
        """
        if isinstance(start, Tensor):  # the one-mode-per-method contract, said at the call
            raise TypeError(
                "Transformer.forward takes the chunk's first position as an int; for tensor "
                "positions (fixed shapes, compiled) call model.forward_fixed(ids, positions, cache)"
            )
        end = start + input_ids.shape[1]
        self._check(start, end - 1, cache)
        positions = torch.arange(start, end, device=input_ids.device)
        step = None if cache is None else CacheStep(cache, positions, end)
        x = self._layers(input_ids, positions, step, end, attention_mask)
        return self._logits(x[:, -1:] if last_only else x)

    def forward_fixed(
        self,
        input_ids: Tensor,
        positions: Tensor,
        cache: KVCache,
        *,
        attention_mask: Tensor | None = None,
    ) -> Tensor:
        """The fixed-shape step, what torch.compile / CUDA graphs capture once: input_ids [B, S] at
        `positions` [S] (int64, on the device) -> logits [B, S, vocab]. Every shape is the same
        at every position: the whole cache is read and the mask hides what is not filled. The
        range is read back and checked unless compiling."""
        if positions.numel() and not torch.compiler.is_compiling():
            self._check(int(positions.min()), int(positions.max()), cache)
        step = CacheStep(cache, positions, None)
        return self._logits(self._layers(input_ids, positions, step, None, attention_mask))

    def _layers(
        self,
        input_ids: Tensor,
        positions: Tensor,
        step: CacheStep | None,
        end: int | None,
        attention_mask: Tensor | None,
    ) -> Tensor:
        """The hidden states [B, S, hidden] after every block. The mask and the RoPE angles are
        decided once here and shared by every layer; `end` (the chunk's last position + 1, when
        known on the host) lets plain causal attention go without a mask."""
        keys = positions if step is None else step.key_slots()
        window = self.config.sliding_window
        mask = mask_for(positions, keys, end=end, padding=attention_mask, window=window)
        rows = positions if attention_mask is None else row_positions(attention_mask, positions)
        cos_sin = self.rope(rows, check=False)
        x = self.embed(input_ids)  # [B, S, hidden]
        for layer in self.layers:
            x = layer(x, cos_sin, mask, step)
        return x

    def _logits(self, x: Tensor) -> Tensor:
        """[B, S, hidden] -> [B, S, vocab]."""
        return self.lm_head(self.norm(x))

    def _check(self, first: int, last: int, cache: KVCache | None) -> None:
        """Before any layer writes: the positions have RoPE angles and fit the cache."""
        self.rope.check(first, last)
        if cache is not None:
            cache.check(first, last)

    def setup_cache(self, batch_size: int, max_len: int):
        """The model's own decode cache, `self.kv_cache`, in the model's dtype and device:
        reused while it is large enough (so a compiled step keeps its buffers), else replaced.
        A sliding-window model shorter than its sequence gets a RollingKVCache of the window."""
        weight = self.lm_head.weight
        window = self.config.sliding_window
        current = getattr(self, "kv_cache", None)
        rolling = window is not None and window < max_len
        kind, length = (RollingKVCache, window) if rolling else (StaticKVCache, max_len)
        fits = (
            type(current) is kind
            and current.shape[2] >= length
            and (not rolling or current.window == window)
            and current.batch_size == batch_size
            and current.dtype == weight.dtype
            and current.k0.device == weight.device
        )
        if not fits:
            self.kv_cache = None  # free the old buffers before allocating
            self.kv_cache = kind(self.config, batch_size, length, weight.dtype, weight.device)
        return self.kv_cache

    def decode_step(self, tokens: Tensor, positions: Tensor, attention_mask: Tensor) -> Tensor:
        """One token per row against `self.kv_cache` with fixed shapes (the whole cache, the mask
        from positions): what torch.compile / CUDA graphs capture once. tokens [B, 1], positions
        [1], attention_mask [B, N] -> logits [B, vocab]."""
        logits = self.forward_fixed(tokens, positions, self.kv_cache, attention_mask=attention_mask)
        return logits[:, -1]

    def generate(self, input_ids: Tensor, max_new_tokens: int, **kwargs) -> Tensor:
        """Prompt + max_new_tokens tokens, [B, P + N]; see llmkit.generate.generate."""
        from .generate import generate

        return generate(self, input_ids, max_new_tokens, **kwargs)


def row_positions(attention_mask: Tensor, positions: Tensor) -> Tensor:
    """[B, S]: each row's RoPE position at `positions` [S], counting the row's own tokens (Hugging
    Face: cumsum - 1, 0 on padding). attention_mask [B, N]; positions past N count as tokens."""
    real = attention_mask.bool()
    n = real.shape[1]
    counted = (real.long().cumsum(-1) - 1).masked_fill(~real, 0)  # [B, N]
    inside = counted[:, positions.clamp(max=n - 1)]  # [B, S]
    return torch.where(positions < n, inside, counted[:, -1:] + positions - (n - 1))


def _init_weights(module: nn.Module) -> None:
    if isinstance(module, (nn.Linear, nn.Embedding)):
        nn.init.normal_(module.weight, mean=0.0, std=0.02)

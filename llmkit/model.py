"""The decoder-only model (textbook: embedding -> N blocks -> final norm -> LM head)."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .attention import mask_for
from .block import TransformerBlock
from .config import ModelConfig
from .kv_cache import RollingKVCache, StaticKVCache
from .norm import make_norm
from .rope import RotaryEmbedding

__all__ = ["Transformer"]


class Transformer(nn.Module):
    """A LLaMA-style decoder; with norm_position="post" and ffn_type="relu" it is the 2017 decoder.

    One RotaryEmbedding is shared by every layer. Weights start as N(0, 0.02) (GPT/LLaMA init).
    """

    def __init__(self, config: ModelConfig) -> None:
        super().__init__()
        self.config = config
        self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.rope = RotaryEmbedding(
            config.head_dim,
            config.max_position_embeddings,
            config.rope_theta,
            config.rope_scaling,
            config.rope_interleaved,
        )
        self.layers = nn.ModuleList(
            TransformerBlock(config, i, rope=self.rope) for i in range(config.num_hidden_layers)
        )
        # Post-norm blocks already end in a norm; only the pre-norm stack needs a final one.
        if config.norm_position == "pre":
            self.norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        else:
            self.norm = nn.Identity()
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        if config.tie_word_embeddings:
            self.lm_head.weight = self.embed.weight
        self.apply(_init_weights)

    def forward(
        self,
        input_ids: Tensor,
        positions: Tensor | int | None = None,
        cache=None,
        *,
        check: bool = True,
        last_only: bool = False,
        kv_len: int | None = None,
        position_ids: Tensor | None = None,
        attention_mask: Tensor | None = None,
    ) -> Tensor:
        """input_ids [B, S] -> logits [B, S, vocab] ([B, 1, vocab] with last_only).

        positions: [S] int64 tensor of sequence slots, or an int start offset, or None (= 0); with
        a cache they say where this chunk's K/V are written. position_ids [B, S]: each row's RoPE
        positions when rows are padded (default: the slots). attention_mask [B, N] over the slots
        (1 = token, 0 = padding; slots past N count as tokens), as in Hugging Face.
        check=False skips the range checks (generate() checks once up front, and they would
        break a compiled step). kv_len: with a static cache in eager mode, attend to the filled
        slots [0, kv_len) instead of the whole buffer (kv_len = last position + 1); kv_len == S
        means nothing is cached before this chunk (a prefill: is_causal, no mask).
        """
        S = input_ids.shape[1]
        if positions is None or isinstance(positions, int):
            start = positions or 0
            positions = torch.arange(start, start + S, device=input_ids.device)
        # looked up once, shared by every layer
        cos_sin = self.rope(positions if position_ids is None else position_ids, check=check)
        layer_check = check
        if check and cache is not None and hasattr(cache, "check"):
            cache.check(positions)  # before any layer writes
            layer_check = False
        fresh = kv_len is not None and kv_len == S
        mask = mask_for(
            positions,
            cache,
            kv_len=kv_len,
            padding=attention_mask,
            window=self.config.sliding_window,
            fresh=fresh,
        )
        x = self.embed(input_ids)  # [B, S, hidden]
        for layer in self.layers:
            x = layer(
                x,
                positions,
                cache,
                cos_sin=cos_sin,
                mask=mask,
                kv_len=kv_len,
                check=layer_check,
                fresh=fresh,
            )
        if last_only:
            x = x[:, -1:]
        return self.lm_head(self.norm(x))

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

    def decode_step(
        self, tokens: Tensor, positions: Tensor, position_ids: Tensor, attention_mask: Tensor
    ) -> Tensor:
        """One token per row against `self.kv_cache` with fixed shapes (the whole cache, the mask
        from positions): what torch.compile / CUDA graphs capture once. tokens, position_ids
        [B, 1], positions [1], attention_mask [B, N] -> logits [B, vocab]."""
        return self(
            tokens,
            positions,
            self.kv_cache,
            check=False,
            position_ids=position_ids,
            attention_mask=attention_mask,
        )[:, -1]

    def generate(
        self,
        input_ids: Tensor,
        max_new_tokens: int,
        use_cache: bool = True,
        cache: str = "static",
        temperature: float = 0.0,
        top_k: int | None = None,
        generator: torch.Generator | None = None,
        **kwargs,
    ):
        """Prompt + max_new_tokens tokens, [B, P + N]; see llmkit.generate.generate."""
        from .generate import generate

        return generate(
            self,
            input_ids,
            max_new_tokens,
            use_cache=use_cache,
            cache=cache,
            temperature=temperature,
            top_k=top_k,
            generator=generator,
            **kwargs,
        )


def _init_weights(module: nn.Module) -> None:
    if isinstance(module, (nn.Linear, nn.Embedding)):
        nn.init.normal_(module.weight, mean=0.0, std=0.02)

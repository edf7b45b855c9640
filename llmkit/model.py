"""The decoder-only model (textbook: embedding -> N blocks -> final norm -> LM head)."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from .block import TransformerBlock
from .config import ModelConfig
from .kv_cache import StaticKVCache
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
    ) -> Tensor:
        """input_ids [B, S] -> logits [B, S, vocab] ([B, 1, vocab] with last_only).

        positions: [S] int64 tensor, or an int start offset, or None (= 0). With a cache, the
        positions say where this chunk's K/V are written; check=False skips the range checks
        (generate() checks once up front, and they would break a compiled step). kv_len: with a
        static cache in eager mode, attend to the filled slots [0, kv_len) instead of the whole
        buffer (kv_len = last position + 1).
        """
        S = input_ids.shape[1]
        if positions is None or isinstance(positions, int):
            start = positions or 0
            positions = torch.arange(start, start + S, device=input_ids.device)
        cos_sin = self.rope(positions, check=check)  # looked up once, shared by every layer
        layer_check, mask = check, None
        if isinstance(cache, StaticKVCache):
            if check:
                cache.check(positions)
                layer_check = False
            if kv_len is None or S > 1:  # [S, T], the same for every layer
                mask = cache.mask(positions, kv_len or cache.max_len)
        x = self.embed(input_ids)  # [B, S, hidden]
        for layer in self.layers:
            x = layer(
                x, positions, cache, cos_sin=cos_sin, mask=mask, kv_len=kv_len, check=layer_check
            )
        if last_only:
            x = x[:, -1:]
        return self.lm_head(self.norm(x))

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

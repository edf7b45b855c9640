"""The transformer block (textbook: pre-norm vs post-norm; the 2017 block and the LLaMA block)."""

from __future__ import annotations

from torch import Tensor, nn

from .attention import Attention
from .config import ModelConfig
from .ffn import make_ffn
from .norm import make_norm
from .rope import RotaryEmbedding

__all__ = ["TransformerBlock"]


class TransformerBlock(nn.Module):
    """Attention and FFN sublayers, each with a residual connection and a norm.

    pre  (GPT-2, LLaMA): h = x + attn(norm(x));  out = h + ffn(norm(h))   -- clean residual path
    post (2017):         h = norm(x + attn(x));  out = norm(h + ffn(h))   -- norm on the path
    """

    def __init__(
        self, config: ModelConfig, layer_idx: int = 0, *, rope: RotaryEmbedding | None = None
    ) -> None:
        super().__init__()
        self.pre_norm = config.norm_position == "pre"
        self.attn_norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        self.attn = Attention(config, layer_idx, rope=rope)
        self.ffn_norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        self.ffn = make_ffn(config.ffn_type, config.hidden_size, config.intermediate_size)

    def forward(
        self,
        x: Tensor,
        positions: Tensor,
        cache=None,
        *,
        cos_sin: tuple[Tensor, Tensor] | None = None,
        mask: Tensor | None = None,
        kv_len: int | None = None,
        check: bool = True,
        fresh: bool | None = None,
    ) -> Tensor:
        """x [B, S, hidden] -> [B, S, hidden]."""
        attend = dict(cos_sin=cos_sin, mask=mask, kv_len=kv_len, check=check, fresh=fresh)
        if self.pre_norm:
            h = x + self.attn(self.attn_norm(x), positions, cache, **attend)
            return h + self.ffn(self.ffn_norm(h))
        h = self.attn_norm(x + self.attn(x, positions, cache, **attend))
        return self.ffn_norm(h + self.ffn(h))

"""The transformer block (textbook: pre-norm vs post-norm; the 2017 block and the LLaMA block)."""

from __future__ import annotations

from torch import Tensor, nn

from .attention import Attention
from .config import ModelConfig
from .ffn import make_ffn
from .kv_cache import CacheStep
from .norm import make_norm

__all__ = ["TransformerBlock"]


class TransformerBlock(nn.Module):
    """Attention and FFN sublayers, each with a residual connection and a norm.

    pre  (GPT-2, LLaMA): h = x + attn(norm(x));  out = h + ffn(norm(h))   -- clean residual path
    post (2017):         h = norm(x + attn(x));  out = norm(h + ffn(h))   -- norm on the path
    """

    def __init__(self, config: ModelConfig, layer_idx: int = 0) -> None:
        super().__init__()
        self.pre_norm = config.norm_position == "pre"
        self.attn_norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        self.attn = Attention(config, layer_idx)
        self.ffn_norm = make_norm(config.norm_type, config.hidden_size, config.rms_norm_eps)
        self.ffn = make_ffn(config.ffn_type, config.hidden_size, config.intermediate_size)

    def forward(
        self,
        x: Tensor,
        cos_sin: tuple[Tensor, Tensor],
        mask: Tensor | None = None,
        cache: CacheStep | None = None,
    ) -> Tensor:
        """x [B, S, hidden] -> [B, S, hidden]; cos_sin, mask, cache as in Attention.forward."""
        if self.pre_norm:
            h = x + self.attn(self.attn_norm(x), cos_sin, mask, cache)
            return h + self.ffn(self.ffn_norm(h))
        h = self.attn_norm(x + self.attn(x, cos_sin, mask, cache))
        return self.ffn_norm(h + self.ffn(h))

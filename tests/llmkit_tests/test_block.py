import pytest
import torch

from llmkit import GELUFFN, LayerNorm, ReLUFFN, RMSNorm, RotaryEmbedding, SwiGLU, TransformerBlock


class TestTransformerBlock:
    def test_pre_norm_composition(self, tiny_config, device):
        block = TransformerBlock(tiny_config).to(device)
        x = torch.randn(2, 5, 64, device=device)
        pos = RotaryEmbedding.from_config(tiny_config).to(device)(torch.arange(5, device=device))
        h = x + block.attn(block.attn_norm(x), pos)
        torch.testing.assert_close(block(x, pos), h + block.ffn(block.ffn_norm(h)))

    def test_post_norm_composition(self, tiny_config, device):
        block = TransformerBlock(tiny_config.replace(norm_position="post")).to(device)
        x = torch.randn(2, 5, 64, device=device)
        pos = RotaryEmbedding.from_config(tiny_config).to(device)(torch.arange(5, device=device))
        h = block.attn_norm(x + block.attn(x, pos))
        out = block(x, pos)
        torch.testing.assert_close(out, block.ffn_norm(h + block.ffn(h)))
        # a post-norm block ends normalized: unit RMS per token (norm weights are ones at init)
        torch.testing.assert_close(
            out.pow(2).mean(-1), torch.ones(2, 5, device=device), atol=1e-4, rtol=0
        )

    @pytest.mark.parametrize("norm_type,norm_cls", [("rms", RMSNorm), ("layer", LayerNorm)])
    @pytest.mark.parametrize(
        "ffn_type,ffn_cls", [("swiglu", SwiGLU), ("relu", ReLUFFN), ("gelu", GELUFFN)]
    )
    def test_choices(self, tiny_config, norm_type, norm_cls, ffn_type, ffn_cls):
        block = TransformerBlock(tiny_config.replace(norm_type=norm_type, ffn_type=ffn_type))
        assert isinstance(block.attn_norm, norm_cls) and isinstance(block.ffn, ffn_cls)
        cos_sin = RotaryEmbedding.from_config(tiny_config)(torch.arange(3))
        assert block(torch.randn(1, 3, 64), cos_sin).shape == (1, 3, 64)

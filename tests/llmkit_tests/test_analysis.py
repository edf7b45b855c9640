import pytest
import torch

from llmkit import ModelConfig, TransformerBlock, grad_norm_by_depth


@pytest.mark.parametrize("norm_position", ["pre", "post"])
def test_depth_one_matches_direct_gradient(norm_position):
    # Rebuild the depth-1 measurement by hand: same seeds, same input, same loss direction.
    config = ModelConfig(
        vocab_size=1,
        hidden_size=32,
        intermediate_size=128,
        num_hidden_layers=3,
        num_attention_heads=4,
        num_key_value_heads=4,
        norm_position=norm_position,
        max_position_embeddings=16,
    )
    gen = torch.Generator().manual_seed(5)
    x = torch.randn(1, 16, 32, generator=gen).requires_grad_(True)
    g = torch.randn(1, 16, 32, generator=gen)
    torch.manual_seed(5)
    block = TransformerBlock(config, 0)
    (block(x, torch.arange(16)) * g).sum().backward()
    result = grad_norm_by_depth(norm_position, [1, 3], hidden_size=32, seed=5)
    assert len(result) == 2
    assert result[0] == pytest.approx(float(x.grad.norm()), rel=1e-6)


def test_pre_and_post_differ():
    pre, post = grad_norm_by_depth("pre", [4]), grad_norm_by_depth("post", [4])
    assert pre != pytest.approx(post, rel=1e-3)

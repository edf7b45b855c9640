import pytest
import torch

from llmkit import ModelConfig, RotaryEmbedding, TransformerBlock, grad_norm_by_depth


def _direct(norm_position: str, depth: int) -> float:
    """One stack of `depth` fresh blocks, one backward pass: the measurement done by hand."""
    config = ModelConfig(
        vocab_size=1,
        hidden_size=32,
        intermediate_size=128,
        num_hidden_layers=depth,
        num_attention_heads=4,
        num_key_value_heads=4,
        norm_position=norm_position,
        max_position_embeddings=16,
    )
    gen = torch.Generator().manual_seed(5)
    x = torch.randn(1, 16, 32, generator=gen).requires_grad_(True)
    g = torch.randn(1, 16, 32, generator=gen)
    torch.manual_seed(5)
    h = x
    cos_sin = RotaryEmbedding.from_config(config)(torch.arange(16))
    for i in range(depth):
        h = TransformerBlock(config, i)(h, cos_sin)
    (h * g).sum().backward()
    return float(x.grad.norm())


@pytest.mark.parametrize("norm_position", ["pre", "post"])
def test_every_depth_matches_a_stack_built_for_it_alone(norm_position):
    # grad_norm_by_depth shares one forward pass between depths; each value must still be the
    # gradient of a stack of exactly that depth, same seeds, same input, same loss direction.
    depths = [3, 1, 6]
    result = grad_norm_by_depth(norm_position, depths, hidden_size=32, seed=5)
    assert result == pytest.approx([_direct(norm_position, d) for d in depths], rel=1e-6)


def test_pre_and_post_differ():
    pre, post = grad_norm_by_depth("pre", [4]), grad_norm_by_depth("post", [4])
    assert pre != pytest.approx(post, rel=1e-3)

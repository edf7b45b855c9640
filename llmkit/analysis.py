"""Measurements for the pre-norm vs post-norm discussion."""

from __future__ import annotations

import torch

from .block import TransformerBlock
from .config import ModelConfig
from .rope import RotaryEmbedding

__all__ = ["grad_norm_by_depth"]


def grad_norm_by_depth(
    norm_position: str, depths: list[int], hidden_size: int = 64, seed: int = 0
) -> list[float]:
    """||dL/dx|| at the input of a stack of `depth` freshly initialised blocks, for each depth.

    L = <stack(x), g> with a fixed random x [1, 16, hidden] and direction g, so every depth sees
    the same input and loss; blocks use PyTorch's default init (no scaled-down residual init).
    Pre-norm keeps an identity path from loss to input; post-norm sends the gradient through a
    norm in every block.
    """
    config = ModelConfig(
        vocab_size=1,
        hidden_size=hidden_size,
        intermediate_size=4 * hidden_size,
        num_hidden_layers=max(depths),
        num_attention_heads=4,
        num_key_value_heads=4,
        norm_position=norm_position,
        max_position_embeddings=16,
    )
    gen = torch.Generator().manual_seed(seed)
    x0 = torch.randn(1, 16, hidden_size, generator=gen)
    g = torch.randn(1, 16, hidden_size, generator=gen)
    cos_sin = RotaryEmbedding.from_config(config)(torch.arange(16))
    # Seeding once and building the deepest stack gives every shallower stack as its prefix (the
    # first `depth` blocks drawn from the same seed), so one forward pass serves every depth.
    torch.manual_seed(seed)
    blocks = [TransformerBlock(config, i) for i in range(max(depths))]
    x = x0.clone().requires_grad_(True)
    outputs = {}
    h = x
    for depth, block in enumerate(blocks, start=1):
        h = block(h, cos_sin)
        outputs[depth] = h
    norms = []
    for depth in depths:
        (grad,) = torch.autograd.grad((outputs[depth] * g).sum(), x, retain_graph=True)
        norms.append(float(grad.norm()))
    return norms

"""Counting what a KV cache saves, measured on the real model with forward hooks."""

from __future__ import annotations

import torch
from torch import nn

__all__ = ["count_kv_projections"]


def count_kv_projections(
    model: nn.Module, prompt_len: int, max_new_tokens: int, use_cache: bool
) -> int:
    """Token positions that layer 0's k_proj projects while generating (batch 1, greedy).

    Without a cache every step re-projects the whole prefix (1 + 2 + ... ); with one, each token
    is projected once. prompt_len=1, max_new_tokens=4: 10 without, 4 with (the last new token is
    never fed back). V is projected exactly as often as K.
    """
    seen = 0

    def hook(module: nn.Module, args: tuple, output: torch.Tensor) -> None:
        nonlocal seen
        seen += output.shape[-2]  # output [B, S, H_kv * D]: S token positions this call

    weight = model.lm_head.weight
    prompt = torch.arange(prompt_len, device=weight.device)[None] % model.config.vocab_size
    handle = model.layers[0].attn.k_proj.register_forward_hook(hook)
    try:
        model.generate(prompt, max_new_tokens, cache="static" if use_cache else None)
    finally:
        handle.remove()
    return seen

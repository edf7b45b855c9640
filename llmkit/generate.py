"""Autoregressive decoding (textbook: greedy and sampled generation, with and without a KV cache)."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor, nn

from .kv_cache import ConcatKVCache, StaticKVCache

__all__ = ["generate", "sample_next", "make_cache"]


def sample_next(
    logits: Tensor,
    temperature: float = 0.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
) -> Tensor:
    """Next token ids [B] from logits [B, V]: argmax when temperature == 0, else a sample from
    softmax(logits / temperature) restricted to the top_k largest logits."""
    if temperature <= 0.0:
        return logits.argmax(dim=-1)
    logits = logits.float() / temperature
    if top_k is not None and top_k < logits.shape[-1]:
        kth = torch.topk(logits, top_k, dim=-1).values[:, -1:]  # [B, 1], the k-th largest
        logits = logits.masked_fill(logits < kth, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    return torch.multinomial(probs, 1, generator=generator).squeeze(-1)


def make_cache(model: nn.Module, kind: str, batch_size: int, max_len: int):
    """A StaticKVCache (model's dtype/device) or a ConcatKVCache."""
    if kind == "static":
        weight = model.lm_head.weight
        return StaticKVCache(
            model.config, batch_size, max_len, dtype=weight.dtype, device=weight.device
        )
    if kind == "concat":
        return ConcatKVCache(model.config)
    raise ValueError(f"cache must be 'static' or 'concat', got {kind!r}")


@torch.inference_mode()
def generate(
    model: nn.Module,
    input_ids: Tensor,
    max_new_tokens: int,
    use_cache: bool = True,
    cache: str = "static",
    temperature: float = 0.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
    return_logits: bool = False,
    step_fn: Callable[[Tensor, Tensor, object], Tensor] | None = None,
):
    """Decode max_new_tokens tokens after input_ids [B, P]; returns ids [B, P + N]
    (and logits [B, N, V] of every step when return_logits).

    With a cache: one prefill over the prompt, then one token per step. Without: every step
    recomputes the whole sequence (the cost the cache removes). step_fn(tokens [B, 1],
    positions [1], cache) -> logits [B, V] replaces the decode step (e.g. a torch.compile'd one).
    """
    B, P = input_ids.shape
    total = P + max_new_tokens
    limit = model.config.max_position_embeddings
    if total > limit:
        raise ValueError(
            f"prompt ({P}) + max_new_tokens ({max_new_tokens}) = {total} positions exceed the RoPE "
            f"table (max_position_embeddings={limit})"
        )
    device = input_ids.device
    out = torch.empty(B, total, dtype=torch.long, device=device)  # filled in place, no cat per step
    out[:, :P] = input_ids
    if max_new_tokens <= 0:
        return (out, None) if return_logits else out
    positions = torch.arange(total, device=device)
    step_logits = []

    if not use_cache:
        for t in range(max_new_tokens):
            logits = model(out[:, : P + t], positions[: P + t], check=False, last_only=True)[:, -1]
            out[:, P + t] = sample_next(logits, temperature, top_k, generator)
            if return_logits:
                step_logits.append(logits)
    else:
        kv = make_cache(model, cache, B, total)
        if step_fn is None:

            def step_fn(tokens: Tensor, pos: Tensor, kv_cache) -> Tensor:
                return model(tokens, pos, kv_cache, check=False)[:, -1]

        logits = model(input_ids, positions[:P], kv, check=False, last_only=True)[:, -1]
        for t in range(max_new_tokens):
            out[:, P + t] = sample_next(logits, temperature, top_k, generator)
            if return_logits:
                step_logits.append(logits.clone())  # a compiled step may reuse its output buffer
            if t + 1 < max_new_tokens:
                logits = step_fn(out[:, P + t : P + t + 1], positions[P + t : P + t + 1], kv)
    if return_logits:
        return out, torch.stack(step_logits, dim=1)
    return out

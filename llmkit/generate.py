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
    result = _generate(
        model,
        input_ids,
        max_new_tokens,
        use_cache,
        cache,
        temperature,
        top_k,
        generator,
        return_logits,
        step_fn,
    )
    # Decoding runs under inference_mode; hand back ordinary tensors that callers may edit.
    if return_logits:
        tokens, logits = result
        return tokens.clone(), None if logits is None else logits.clone()
    return result.clone()


@torch.inference_mode()
def _generate(
    model,
    input_ids,
    max_new_tokens,
    use_cache,
    cache,
    temperature,
    top_k,
    generator,
    return_logits,
    step_fn,
):
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
        # Eager steps attend to the filled slots only (kv_len); a custom (compiled) step keeps
        # fixed shapes and lets the cache's mask hide the empty slots.
        logits = model(input_ids, positions[:P], kv, check=False, last_only=True, kv_len=P)[:, -1]
        for t in range(max_new_tokens):
            out[:, P + t] = sample_next(logits, temperature, top_k, generator)
            if return_logits:
                step_logits.append(logits.clone())  # a compiled step may reuse its output buffer
            if t + 1 < max_new_tokens:
                tokens, pos = out[:, P + t : P + t + 1], positions[P + t : P + t + 1]  # [B, 1], [1]
                if step_fn is None:
                    logits = model(tokens, pos, kv, check=False, kv_len=P + t + 1)[:, -1]
                else:
                    logits = step_fn(tokens, pos, kv)
    if return_logits:
        return out, torch.stack(step_logits, dim=1)
    return out

"""Autoregressive decoding (textbook: greedy and sampled generation, with and without a KV cache)."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor, nn

from .kv_cache import ConcatKVCache

__all__ = [
    "generate",
    "prefill",
    "decode_one_token",
    "decode_n_tokens",
    "sample_next",
    "make_cache",
    "compiled_step",
]


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


def make_cache(model: nn.Module, kind: str | None, batch_size: int, max_len: int):
    """The model's own static (or, for a sliding window, rolling) cache, reused across calls, a
    fresh ConcatKVCache, or None (no cache)."""
    if kind == "static":
        return model.setup_cache(batch_size, max_len)
    if kind == "concat":
        return ConcatKVCache(model.config)
    if kind is None:
        return None
    raise ValueError(f"cache must be 'static', 'concat' or None, got {kind!r}")


def compiled_step(model: nn.Module, mode: bool | str = True) -> Callable:
    """model.decode_step compiled once per model and mode (True: default, or "reduce-overhead":
    CUDA graphs), kept on the model so later generate calls reuse the compiled graph."""
    steps = model.__dict__.setdefault("_compiled_steps", {})
    if mode not in steps:
        options = {} if mode is True else {"mode": mode}
        steps[mode] = torch.compile(model.decode_step, fullgraph=True, dynamic=False, **options)
    return steps[mode]


def generate(
    model: nn.Module,
    input_ids: Tensor,
    max_new_tokens: int,
    *,
    cache: str | None = "static",
    temperature: float = 0.0,
    top_k: int | None = None,
    generator: torch.Generator | None = None,
    attention_mask: Tensor | None = None,
    eos_token_id: int | list[int] | None = None,
    on_token: Callable[[Tensor], None] | None = None,
    return_logits: bool = False,
    compile: bool | str = False,
):
    """Decode up to max_new_tokens tokens after input_ids [B, P]; returns ids [B, P + n] (and
    logits [B, n, V] of every step when return_logits).

    cache: "static" (the model's own preallocated buffers), "concat" (torch.cat per step) or
    None: no cache, every step recomputes the whole sequence (the cost a cache removes). With a
    cache: one prefill over the prompt, then one token per step. attention_mask [B, P] (1 =
    token, 0 = padding) lets rows of different lengths share a batch (left padding, as in Hugging
    Face: each row's positions count its own tokens). eos_token_id: rows that produced it are
    finished (later tokens repeat it) and decoding stops once all are. on_token(ids [B]) sees
    each new token as it is chosen (streaming). compile: the static-cache decode step
    torch.compile'd once per model (True) or captured as a CUDA graph ("reduce-overhead").
    """
    sample = _Sampler(temperature, top_k, generator, eos_token_id, on_token)
    if compile and cache != "static":
        raise ValueError(f"compile needs cache='static' (fixed shapes), got cache={cache!r}")
    step = compiled_step(model, compile) if compile else None
    _check_length(model.config, input_ids.shape[1], max_new_tokens)
    with torch.inference_mode():
        tokens, logits = _decode(
            model,
            input_ids,
            max_new_tokens,
            sample,
            cache=cache,
            padding=_padding(attention_mask, input_ids.shape[1] + max_new_tokens, input_ids.device),
            step=step,
            keep_logits=return_logits,
        )
    # Decoding runs under inference_mode; hand back ordinary tensors that callers may edit.
    if return_logits:
        return tokens.clone(), None if logits is None else logits.clone()
    return tokens.clone()


class _Sampler:
    """Picks each step's tokens, tracks finished rows, reports tokens to the caller."""

    def __init__(self, temperature, top_k, generator, eos_token_id, on_token) -> None:
        self.temperature, self.top_k, self.generator = temperature, top_k, generator
        eos = [eos_token_id] if isinstance(eos_token_id, int) else list(eos_token_id or [])
        self.eos, self.on_token, self.finished = eos, on_token, None

    def __call__(self, logits: Tensor) -> Tensor:
        """Next ids [B]; afterwards self.done says whether every row has finished."""
        ids = sample_next(logits, self.temperature, self.top_k, self.generator)
        if self.eos:
            eos = torch.tensor(self.eos, device=ids.device)
            if self.finished is None:
                self.finished = torch.zeros_like(ids, dtype=torch.bool)
            ids = torch.where(self.finished, eos[0], ids)
            self.finished = self.finished | torch.isin(ids, eos)
        if self.on_token is not None:
            self.on_token(ids)
        return ids

    @property
    def done(self) -> bool:
        return self.finished is not None and bool(self.finished.all())


def _padding(attention_mask: Tensor | None, total: int, device) -> Tensor | None:
    """[B, total] bool on `device` over every position of the run (the generated ones are
    tokens), or None when no prompt token is padding. attention_mask [B, P], 1 = token."""
    if attention_mask is None or bool(attention_mask.bool().all()):
        return None
    B, P = attention_mask.shape
    padding = torch.ones(B, total, dtype=torch.bool, device=device)
    padding[:, :P] = attention_mask.to(device).bool()
    return padding


def _check_length(config, prompt_len: int, max_new_tokens: int) -> None:
    """ValueError when the prompt and the new tokens need more positions than the model has."""
    total, limit = prompt_len + max_new_tokens, config.context_length
    if total <= limit:
        return
    where = (
        f"the RoPE table (max_position_embeddings={limit})"
        if limit == config.max_position_embeddings
        else f"the model's context ({limit} positions)"
    )
    raise ValueError(
        f"prompt ({prompt_len}) + max_new_tokens ({max_new_tokens}) = {total} positions exceed "
        f"{where}"
    )


def prefill(model: nn.Module, tokens: Tensor, cache, padding: Tensor | None) -> Tensor:
    """Logits [B, V] after tokens [B, P] at positions 0..P-1, in one forward that writes their
    K/V to `cache` (None: no cache). padding [B, >= P] bool (True = token), or None."""
    mask = None if padding is None else padding[:, : tokens.shape[1]]
    return model(tokens, 0, cache, attention_mask=mask, last_only=True)[:, -1]


def decode_one_token(
    model: nn.Module, token: Tensor, position: int, cache, padding: Tensor | None
) -> Tensor:
    """Logits [B, V] after one more token [B, 1] at `position`, a host int: eager, attention
    reads only the cache slots filled so far."""
    mask = None if padding is None else padding[:, : position + 1]
    return model(token, position, cache, attention_mask=mask, last_only=True)[:, -1]


def decode_n_tokens(
    next_logits: Callable[[int], Tensor],
    out: Tensor,
    prompt_len: int,
    logits: Tensor,
    sample: Callable[[Tensor], Tensor],
    keep_logits: bool,
) -> tuple[int, list[Tensor]]:
    """Fill out[:, prompt_len:] one token at a time, starting from the prefill's logits [B, V];
    next_logits(position) gives the logits after the token written at `position`. Returns how
    many tokens were written (fewer once `sample.done`) and each step's logits if kept."""
    P, N = prompt_len, out.shape[1] - prompt_len
    kept = []
    for t in range(N):
        out[:, P + t] = sample(logits)
        if keep_logits:
            kept.append(logits.clone())  # a compiled step may reuse its output buffer
        if sample.done:
            return t + 1, kept
        if t + 1 < N:
            logits = next_logits(P + t)
    return N, kept


def _next_logits(model, out: Tensor, cache, padding, step) -> Callable[[int], Tensor]:
    """How each new token is decoded, chosen once: without a cache the whole sequence again
    (the cost a cache removes); with one, one eager token (decode_one_token), or the compiled
    fixed-shape model.decode_step over the whole cache with the mask over every position."""
    if cache is None:
        return lambda pos: prefill(model, out[:, : pos + 1], None, padding)
    if step is None:
        return lambda pos: decode_one_token(model, out[:, pos : pos + 1], pos, cache, padding)
    positions = torch.arange(out.shape[1], device=out.device)
    step_padding = padding if padding is not None else torch.ones_like(out, dtype=torch.bool)
    return lambda pos: step(out[:, pos : pos + 1], positions[pos : pos + 1], step_padding)


def _decode(
    model, input_ids, max_new_tokens, sample, *, cache, padding, step, keep_logits
) -> tuple[Tensor, Tensor | None]:
    """generate's work under inference_mode: ids [B, P + n] and the kept logits [B, n, V]."""
    B, P = input_ids.shape
    total = P + max_new_tokens
    out = torch.empty(B, total, dtype=torch.long, device=input_ids.device)  # filled in place
    out[:, :P] = input_ids
    if max_new_tokens <= 0:
        return out, None
    kv = make_cache(model, cache, B, total)
    logits = prefill(model, out[:, :P], kv, padding)
    next_logits = _next_logits(model, out, kv, padding, step)
    n, kept = decode_n_tokens(next_logits, out, P, logits, sample, keep_logits)
    return out[:, : P + n], torch.stack(kept, dim=1) if keep_logits else None

"""Autoregressive decoding (textbook: greedy and sampled generation, with and without a KV cache)."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import Tensor, nn

from .kv_cache import ConcatKVCache

__all__ = ["generate", "sample_next", "make_cache", "compiled_step"]


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
    with torch.inference_mode():
        tokens, logits = _generate(
            model, input_ids, max_new_tokens, cache, sample, return_logits, step, attention_mask
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


def _padding(attention_mask: Tensor | None, B: int, P: int, total: int, device) -> Tensor | None:
    """[B, total] bool over every position of the run (the generated ones are tokens), or None
    when no prompt token is padding."""
    if attention_mask is None or bool(attention_mask.bool().all()):
        return None
    padding = torch.ones(B, total, dtype=torch.bool, device=device)
    padding[:, :P] = attention_mask.to(device).bool()
    return padding


def _generate(model, input_ids, max_new_tokens, cache, sample, return_logits, step, attention_mask):
    B, P = input_ids.shape
    total = P + max_new_tokens
    config = model.config
    limit = config.context_length
    if total > limit:
        where = (
            f"the RoPE table (max_position_embeddings={limit})"
            if limit == config.max_position_embeddings
            else f"the model's context ({limit} positions)"
        )
        raise ValueError(
            f"prompt ({P}) + max_new_tokens ({max_new_tokens}) = {total} positions exceed {where}"
        )
    device = input_ids.device
    out = torch.empty(B, total, dtype=torch.long, device=device)  # filled in place, no cat per step
    out[:, :P] = input_ids
    if max_new_tokens <= 0:
        return out, None
    padding = _padding(attention_mask, B, P, total, device)
    kv = make_cache(model, cache, B, total)

    def forward(a: int, b: int) -> Tensor:
        """Logits [B, V] after tokens a..b-1; int positions: eager, only filled slots are read."""
        mask = None if padding is None else padding[:, :b]
        return model(out[:, a:b], a, kv, attention_mask=mask, last_only=True)[:, -1]

    if step is not None:  # the compiled model.decode_step: fixed shapes, the mask over them all
        positions = torch.arange(total, device=device)
        step_padding = padding if padding is not None else torch.ones_like(out, dtype=torch.bool)
    step_logits = []
    n = max_new_tokens
    logits = forward(0, P)  # the prefill, or the first step without a cache
    for t in range(max_new_tokens):
        out[:, P + t] = sample(logits)
        if return_logits:
            step_logits.append(logits.clone())  # a compiled step may reuse its output buffer
        if sample.done:
            n = t + 1
            break
        if t + 1 < max_new_tokens:
            a, b = P + t, P + t + 1
            if kv is None:  # no cache: the whole sequence again
                logits = forward(0, b)
            elif step is None:
                logits = forward(a, b)
            else:
                logits = step(out[:, a:b], positions[a:b], step_padding)
    out = out[:, : P + n]
    return out, torch.stack(step_logits, dim=1) if return_logits else None

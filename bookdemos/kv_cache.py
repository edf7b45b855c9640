"""KV cache: a stepper of recomputed K/V projections with and without the cache, and a memory estimator."""

from __future__ import annotations

import functools
import html

import torch
from llmbook.demos.controls import (
    button,
    grid_script,
    number,
    output,
    select,
    slider,
    texts,
    widget,
)
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["KVCacheDemo", "MODEL_PRESETS", "projection_counts"]

MODEL_PRESETS = ("llama2-7b", "llama2-70b", "llama3-8b")
DTYPES = ("2", "4", "1")  # bytes per value; each named by the word dtype_<bytes>
FIGURE_STEPS = 8


@functools.lru_cache(maxsize=1)
def _tiny_model() -> llmkit.Transformer:
    with torch.random.fork_rng():  # the weights do not matter for counting; keep the caller's RNG
        torch.manual_seed(0)
        return llmkit.Transformer(llmkit.ModelConfig.tiny()).eval()


@functools.lru_cache(maxsize=16)
def _call_sizes(prompt_len: int, use_cache: bool, steps: int) -> tuple[int, ...]:
    """Token positions layer 0's k_proj projects in each forward of one `steps`-token generation.

    Recorded by a hook beside llmkit's own count (which they must add up to). Greedy decoding makes
    the first n forwards of a longer run those of an n-token run, so one run serves every step.
    """
    model = _tiny_model()
    sizes: list[int] = []
    k_proj = model.layers[0].attn.k_proj
    handle = k_proj.register_forward_hook(lambda module, args, out: sizes.append(out.shape[-2]))
    try:
        with torch.no_grad():
            total = llmkit.count_kv_projections(model, prompt_len, steps, use_cache=use_cache)
    finally:
        handle.remove()
    if sum(sizes) != total or len(sizes) != steps:
        raise RuntimeError(f"k_proj calls {sizes} do not add up to llmkit's count {total}")
    return tuple(sizes)


@functools.lru_cache(maxsize=64)
def projection_counts(prompt_len: int, steps: int) -> dict[str, int]:
    """K/V projections measured by llmkit on the tiny model: at step `steps` and in total so far."""
    if steps < 1:
        raise ValueError(f"steps counts generated tokens from 1, got {steps}")
    run = max(steps, FIGURE_STEPS)  # one run per prompt length covers the figure and the stepper
    nc = _call_sizes(prompt_len, False, run)[:steps]
    c = _call_sizes(prompt_len, True, run)[:steps]
    return {"nc_step": nc[-1], "c_step": c[-1], "nc_total": sum(nc), "c_total": sum(c)}


def _preset_dims(name: str) -> dict[str, int]:
    cfg = llmkit.PRESETS[name]
    return {
        "L": cfg.num_hidden_layers,
        "kvh": cfg.num_key_value_heads,
        "hd": cfg.head_dim,
        "hq": cfg.num_attention_heads,
    }


def _memory_out(L: int, kvh: int, hd: int, S: int, B: int, dtype: int) -> dict[str, float]:
    n = llmkit.kv_cache_bytes(L, kvh, hd, S, bytes_per_elem=dtype, batch_size=B)
    return {"bytes": n, "gb": n / 1e9, "gib": n / 2**30}


class KVCacheDemo(BookDemo):
    ID = "kv-cache"

    def figure_svg(self) -> str:
        return two_layouts(
            (780, 310),
            self.t("figure"),
            [
                Panel(self.t("panel_steps"), (0, 0, 400, 310)),
                Panel(self.t("panel_memory"), (400, 0, 380, 310)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        steps = list(range(1, FIGURE_STEPS + 1))
        counts = [projection_counts(1, n) for n in steps]
        p = Plot(c, (50, 55, 300, 190), (0.5, FIGURE_STEPS + 0.5), (0, FIGURE_STEPS))
        p.axes(
            steps,
            [0, 2, 4, 6, 8],
            xlabel=self.t("steps_x"),
            ylabel=self.t("steps_y"),
            title=self.t("steps_title"),
        )
        for n, cnt in zip(steps, counts, strict=True):
            for j, (key, color) in enumerate(
                (("nc_step", COLORS["red"]), ("c_step", COLORS["green"]))
            ):
                x = p.px(n) - 13 + j * 13
                c.rect(x, p.py(cnt[key]), 12, p.py(0) - p.py(cnt[key]), fill=color, stroke=None)
        last = counts[-1]
        p.legend(
            70,
            72,
            [
                (self.t("legend_nocache", total=last["nc_total"]), COLORS["red"]),
                (self.t("legend_cache", total=last["c_total"]), COLORS["green"]),
            ],
        )

        lengths = [0, 2048, 4096, 6144, 8192]
        largest = max(
            llmkit.kv_cache_bytes_for(llmkit.PRESETS[n], lengths[-1]) for n in MODEL_PRESETS
        )
        top = int(largest / 1e9) + 1
        q = Plot(c, (470, 55, 280, 190), (0, 8192), (0, top))
        q.axes(
            lengths,
            list(range(top + 1)),
            xlabel=self.t("memory_x"),
            ylabel=self.t("memory_y"),
            title=self.t("memory_title"),
            fmt_x=lambda v: f"{int(v) // 1024}K" if v else "0",
        )
        colors = (COLORS["blue"], COLORS["orange"], COLORS["purple"])
        for name, color in zip(MODEL_PRESETS, colors, strict=True):
            gb = [llmkit.kv_cache_bytes_for(llmkit.PRESETS[name], s) / 1e9 for s in lengths]
            q.series(lengths, gb, color, dots=True)
        entries = []
        for name, color in zip(MODEL_PRESETS, colors, strict=True):
            d = _preset_dims(name)
            gb = llmkit.kv_cache_bytes_for(llmkit.PRESETS[name], 4096) / 1e9
            entries.append((self.t("legend_model", name=name, kvh=d["kvh"], gb=num(gb, 2)), color))
        q.legend(485, 72, entries)

    def widget_html(self) -> str:
        tol = {"nc_step": 0, "c_step": 0, "nc_total": 0, "c_total": 0, "bytes": 0}
        tol |= {"gb": 6e-3, "gib": 6e-3}
        body = (
            self._stepper_html()
            + self._memory_html()
            + grid_script(tol, _stepper_cases() + _memory_cases())
        )
        config = {"presets": {name: _preset_dims(name) for name in MODEL_PRESETS}}
        return widget(self.ID, self.locale, body, config=config)

    def _stepper_html(self) -> str:
        t = self.t
        new = t("token_new")
        return (
            f"<h4>{t('stepper')}</h4>"
            '<div class="llmbook-widget__controls">'
            + slider("p", t("prompt"), 1, 4, 1, 1)
            + slider("step", t("step"), 1, 8, 1, 1)
            + '<div class="llmbook-widget__buttons">'
            + button("prev", t("prev"))
            + button("next", t("next"))
            + "</div></div>"
            '<div class="llmbook-widget__cols">'
            f'<div><h4>{t("nocache")}</h4><div data-role="tokens-nocache"'
            f"{texts(new=new, old=t('token_recomputed'))}></div>"
            + output("nc_step", t("step_count"))
            + output("nc_total", t("total_count"))
            + "</div>"
            f'<div><h4>{t("cache")}</h4><div data-role="tokens-cache"'
            f"{texts(new=new, old=t('token_cached'))}></div>"
            + output("c_step", t("step_count"))
            + output("c_total", t("total_count"))
            + "</div></div>"
            f'<p class="llmbook-widget__note">{t("stepper_note")}</p>'
        )

    def _memory_html(self) -> str:
        t = self.t
        d7 = _preset_dims("llama2-7b")
        presets = [("custom", t("custom"))] + [(n, n) for n in MODEL_PRESETS]
        dtypes = [(size, t(f"dtype_{size}")) for size in DTYPES]
        return (
            f"<h4>{t('estimator')}</h4>"
            '<div class="llmbook-widget__controls">'
            + select("preset", t("preset"), presets, "llama2-7b")
            + number("L", t("layers"), d7["L"], 1, 1)
            + number("kvh", t("kv_heads"), d7["kvh"], 1, 1)
            + number("hd", t("head_dim"), d7["hd"], 1, 1)
            + number("S", t("seq"), 4096, 1, 1)
            + number("B", t("batch"), 1, 1, 1)
            + select("dtype", t("dtype"), dtypes, "2")
            + "</div>"
            '<div class="llmbook-widget__results">'
            + output("bytes", "KV Cache", t("bytes"))
            + output("gb", "≈", "GB")
            + output("gib", "=", "GiB")
            + "</div>"
            '<svg class="llmbook-widget__stage llmbook-widget__stage--wide" data-role="stage" '
            f'viewBox="0 0 600 70" role="img" aria-label="{html.escape(t("bar"))}"'
            f"{texts(gpu=t('bar_gpu'), share=t('bar_share'))}></svg>"
        )


def _stepper_cases() -> list[dict]:
    """llmkit's counts for prompts of 1–3 tokens, steps 1–6."""
    return [
        {"in": {"p": p, "step": n}, "out": projection_counts(p, n)}
        for p in (1, 2, 3)
        for n in range(1, 7)
    ]


def _memory_cases() -> list[dict]:
    """The cache size for each preset at four (S, batch, bytes) settings, and three custom models."""
    cases = []
    for name in MODEL_PRESETS:
        d = _preset_dims(name)
        for S, B, dt in ((4096, 1, 2), (32768, 8, 2), (2048, 4, 1), (8192, 2, 4)):
            cases.append(
                {
                    "in": {"preset": name, "S": S, "B": B, "dtype": dt},
                    "out": _memory_out(d["L"], d["kvh"], d["hd"], S, B, dt),
                }
            )
    for L, kvh, hd, S, B, dt in (
        (12, 12, 64, 1024, 1, 4),
        (4, 2, 32, 512, 3, 2),
        (126, 8, 128, 131072, 16, 1),
    ):
        cases.append(
            {
                "in": {"L": L, "kvh": kvh, "hd": hd, "S": S, "B": B, "dtype": dt},
                "out": _memory_out(L, kvh, hd, S, B, dt),
            }
        )
    return cases

"""MHA / GQA / MQA: which K/V head each query head reads, and what that does to the cache size."""

from __future__ import annotations

import html
from collections.abc import Callable

import torch
from llmbook.demos.controls import button, grid_script, number, output, select, texts, widget
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["MHAGQADemo", "kv_head_of_query", "divisors"]

MODELS = ("llama2-7b", "llama2-70b", "llama3-8b")
FIGURE_SEQ = 4096


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def kv_head_of_query(num_heads: int, num_kv_heads: int) -> list[int]:
    """Measured on llmkit's attention: V of K/V head j is the constant j, so each query head's output
    (a convex mix of its V rows) equals the index of the K/V head it reads."""
    gen = torch.Generator().manual_seed(0)
    q = torch.randn(1, num_heads, 1, 8, generator=gen, dtype=torch.float64)
    k = torch.randn(1, num_kv_heads, 3, 8, generator=gen, dtype=torch.float64)
    v = (
        torch.arange(num_kv_heads, dtype=torch.float64)
        .view(1, num_kv_heads, 1, 1)
        .expand(1, -1, 3, 8)
    )
    out, _ = llmkit.attention_weights(q, k, v.contiguous())
    return [round(float(out[0, h, 0, 0])) for h in range(num_heads)]


def _cache(name: str, kvh: int, seq: int) -> int:
    return llmkit.kv_cache_bytes_for(llmkit.PRESETS[name].replace(num_key_value_heads=kvh), seq)


def _wiring(
    c: Canvas, t: Callable[..., str], x0: float, width: float, heads: int, kv_heads: int, title: str
) -> None:
    mapping = kv_head_of_query(heads, kv_heads)
    q_x = [x0 + (i + 0.5) * width / heads for i in range(heads)]
    kv_x = [x0 + (j + 0.5) * width / kv_heads for j in range(kv_heads)]
    palette = (COLORS["blue"], COLORS["orange"], COLORS["green"], COLORS["purple"])
    c.text(x0 + width / 2, 30, title, size=13, weight="bold")
    for i, j in enumerate(mapping):
        color = palette[j % len(palette)]
        c.line(q_x[i], 66, kv_x[j], 124, color=color, width=1.4)
        c.circle(q_x[i], 60, 7, fill=color, stroke=None)
    for j, x in enumerate(kv_x):
        c.rect(x - 10, 124, 20, 16, fill=palette[j % len(palette)], stroke=None, rx=3)
    c.text(x0 - 6, 64, "Q", size=11, anchor="end")
    c.text(x0 - 6, 136, "KV", size=11, anchor="end")
    c.text(x0 + width / 2, 160, t("wiring", heads=heads, kv_heads=kv_heads), size=11)


def _cache_sizes(t: Callable[..., str]) -> tuple[tuple[str, str], list[tuple[str, int]], int]:
    """The caption (model, run), each bar's label and H_kv, and the cache size of MHA."""
    cfg = llmkit.PRESETS["llama2-7b"]
    heads = cfg.num_attention_heads
    caption = (
        t("caption_model", layers=cfg.num_hidden_layers, heads=heads, head_dim=cfg.head_dim),
        t("caption_run", seq=FIGURE_SEQ),
    )
    sizes = [
        (t("variant", name=name, kv_heads=kv_heads), kv_heads)
        for name, kv_heads in (("MHA", heads), ("GQA", 8), ("MQA", 1))
    ]
    return caption, sizes, _cache("llama2-7b", heads, FIGURE_SEQ)


def _cache_bars(c: Canvas, t: Callable[..., str]) -> None:
    """The wide figure's bars: labels left of them, one row each."""
    (model, run), sizes, full = _cache_sizes(t)
    c.text(390, 192, t("caption", model=model, run=run), size=12)
    for r, (label, kvh) in enumerate(sizes):
        n = _cache("llama2-7b", kvh, FIGURE_SEQ)
        y = 210 + r * 36
        c.text(200, y + 17, label, size=11.5, anchor="end")
        c.rect(210, y, max(1.0, 440 * n / full), 24, fill=COLORS["blue"], stroke=None, opacity=0.8)
        c.text(
            218 + 440 * n / full,
            y + 17,
            t("bar", gb=num(n / 1e9, 2), ratio=full // n),
            size=11.5,
            anchor="start",
        )


def _cache_bars_narrow(c: Canvas, t: Callable[..., str], x0: float, y0: float) -> None:
    """The phone panel's bars: the caption on two lines, each label above its bar."""
    (model, run), sizes, full = _cache_sizes(t)
    c.text(x0 + 6, y0 + 18, model, size=12, anchor="start")
    c.text(x0 + 6, y0 + 36, run, size=12, anchor="start")
    for r, (label, kvh) in enumerate(sizes):
        n = _cache("llama2-7b", kvh, FIGURE_SEQ)
        y = y0 + 56 + r * 46
        c.text(
            x0 + 6,
            y + 12,
            t("bar_narrow", label=label, gb=num(n / 1e9, 2), ratio=full // n),
            size=12,
            anchor="start",
        )
        c.rect(
            x0 + 6,
            y + 18,
            max(1.0, 310 * n / full),
            18,
            fill=COLORS["blue"],
            stroke=None,
            opacity=0.8,
        )


def _model_config(name: str) -> dict[str, object]:
    """What the widget's script draws a model from: its sizes and, for each H_kv it offers, the K/V
    head each query head reads, as measured on llmkit's attention (the script does not restate it)."""
    p = llmkit.PRESETS[name]
    heads = p.num_attention_heads
    return {
        "L": p.num_hidden_layers,
        "hq": heads,
        "hd": p.head_dim,
        "kvh": p.num_key_value_heads,
        "divisors": divisors(heads),
        "wiring": {str(kvh): kv_head_of_query(heads, kvh) for kvh in divisors(heads)},
    }


class MHAGQADemo(BookDemo):
    ID = "mha-gqa"

    def figure_svg(self) -> str:
        return two_layouts(
            (780, 330),
            self.t("figure"),
            [
                Panel(self.t("panel_mha"), (10, 0, 250, 172)),
                Panel(self.t("panel_gqa"), (260, 0, 250, 172)),
                Panel(self.t("panel_mqa"), (510, 0, 250, 172)),
                Panel(self.t("panel_cache"), (0, 340, 330, 200)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        for k, (kvh, name) in enumerate(((8, "MHA"), (2, self.t("gqa_g")), (1, "MQA"))):
            _wiring(c, self.t, 40 + k * 250, 200, 8, kvh, name)
        if c.narrow:
            _cache_bars_narrow(c, self.t, 0, 340)
        else:
            _cache_bars(c, self.t)

    def widget_html(self) -> str:
        cases = []
        for name in MODELS:
            heads = llmkit.PRESETS[name].num_attention_heads
            for kvh in divisors(heads):
                for seq in (4096, 32768):
                    n = _cache(name, kvh, seq)
                    case = {
                        "in": {"model": name, "kvh": kvh, "S": seq},
                        "out": {
                            "group": heads // kvh,
                            "bytes": n,
                            "gb": n / 1e9,
                            "mha_gb": _cache(name, heads, seq) / 1e9,
                            "mqa_gb": _cache(name, 1, seq) / 1e9,
                        },
                    }
                    if seq == 4096:
                        case["wiring"] = kv_head_of_query(heads, kvh)
                    cases.append(case)
        tol = {"group": 0, "bytes": 0, "gb": 6e-3, "mha_gb": 6e-3, "mqa_gb": 6e-3}
        config = {"models": {name: _model_config(name) for name in MODELS}}
        first = llmkit.PRESETS[MODELS[0]]
        kv_options = [(str(d), str(d)) for d in divisors(first.num_attention_heads)]
        t = self.t
        # The script relabels the H_kv options and draws the stage's rows with these words.
        kv_select = select(
            "kvh",
            t("kv_heads"),
            kv_options,
            str(first.num_key_value_heads),
            words={"option": t("option")},
        )
        body = (
            '<div class="llmbook-widget__controls">'
            + select("model", t("model"), [(n, n) for n in MODELS], MODELS[0])
            + kv_select
            + number("S", t("seq"), 4096, 1, 1)
            + '<div class="llmbook-widget__buttons">'
            + button("mha", "MHA")
            + button("gqa", t("variant", name="GQA", kv_heads=8))
            + button("mqa", "MQA")
            + "</div></div>"
            '<svg class="llmbook-widget__stage llmbook-widget__stage--wide" data-role="stage" '
            f'viewBox="0 0 640 250" role="img" aria-label="{html.escape(t("stage"))}"'
            f"{texts(current=t('stage_current'), row=t('stage_row'))}></svg>"
            '<div class="llmbook-widget__results">'
            + output("group", t("group"))
            + output("bytes", "KV Cache", t("bytes"))
            + output("gb", "≈", "GB")
            + output("mha_gb", "MHA", "GB")
            + output("mqa_gb", "MQA", "GB")
            + "</div>"
            f'<p class="llmbook-widget__note">{t("note")}</p>' + grid_script(tol, cases)
        )
        return widget(self.ID, self.locale, body, config=config)

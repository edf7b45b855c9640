"""SwiGLU on a scalar: gate = SiLU(x·W1), value = x·W3, hidden = gate·value, output = hidden·W2."""

from __future__ import annotations

import torch
from llmbook.demos.controls import grid_script, number, output, slider, stage, widget
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["SwiGLUDemo", "scalar_steps"]

SEED_WEIGHTS = (1.5, 0.8, 1.2)  # the seed's worked example: W1, W3, W2 with x = 1.0


def scalar_steps(x: float, w1: float, w3: float, w2: float) -> dict[str, float]:
    """Every intermediate of a 1-dim llmkit SwiGLU (float64), and its forward output."""
    ffn = llmkit.SwiGLU(1, 1).double()
    with torch.no_grad():
        ffn.w1.weight.fill_(w1)
        ffn.w3.weight.fill_(w3)
        ffn.w2.weight.fill_(w2)
        xt = torch.tensor([x], dtype=torch.float64)
        pre = ffn.w1(xt)
        gate = llmkit.silu(pre)
        value = ffn.w3(xt)
        out = ffn(xt)
    return {
        "pre": float(pre),
        "sigma": float(torch.sigmoid(pre)),
        "gate": float(gate),
        "value": float(value),
        "hidden": float(gate * value),
        "output": float(out),
        "relu": float(torch.relu(pre)),
    }


def _curves() -> tuple[list[float], list[float], list[float]]:
    xs = [i / 10 for i in range(-50, 51)]
    t = torch.tensor(xs, dtype=torch.float64)
    return xs, llmkit.silu(t).tolist(), torch.relu(t).tolist()


def _draw_stage(c: Canvas) -> None:
    """The widget's curves, drawn once; its script moves the marks to the current z = x·W₁."""
    xs, silu, relu = _curves()
    p = Plot(c, (40, 15, 245, 190), (-5, 5), (-1, 5))
    p.axes([-4, -2, 0, 2, 4], [-1, 0, 1, 2, 3, 4, 5])
    p.series(xs, relu, COLORS["gray"], width=1.6, dash="5 3")
    p.series(xs, silu, COLORS["blue"], width=2.4)
    p.legend(50, 30, [("SiLU", COLORS["blue"]), ("ReLU", COLORS["gray"])])
    w1, w3, w2 = SEED_WEIGHTS
    s = scalar_steps(1.0, w1, w3, w2)
    z, bottom = s["pre"], p.y0 + p.h
    with c.group(data_plot=p.mapping()):
        with c.group(data_mark="z-line"):
            c.line(p.px(z), p.y0, p.px(z), bottom, dash="3 3", opacity=0.35)
        with c.group(data_mark="silu-dot"):
            c.circle(p.px(z), p.py(s["gate"]), 5, fill=COLORS["blue"], stroke=None)
        with c.group(data_mark="relu-dot"):
            c.circle(p.px(z), p.py(s["relu"]), 4, stroke=COLORS["gray"], width=2)
        with c.group(data_mark="z-label"):
            c.text(p.px(z), bottom + 30, f"z = x·W₁ = {num(z, 3)}", size=10.5)


class SwiGLUDemo(BookDemo):
    ID = "swiglu"

    def figure_svg(self) -> str:
        return two_layouts(
            (800, 300),
            self.t("figure"),
            [
                Panel(self.t("panel_curves"), (0, 0, 385, 300)),
                Panel(self.t("panel_steps"), (380, 0, 420, 300)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        xs, silu, relu = _curves()
        p = Plot(c, (50, 50, 300, 200), (-5, 5), (-1, 5))
        p.axes(
            [-4, -2, 0, 2, 4],
            [-1, 0, 1, 2, 3, 4, 5],
            xlabel="z",
            ylabel="f(z)",
            title=self.t("curves_title"),
        )
        p.series(xs, relu, COLORS["gray"], width=1.6, dash="5 3")
        p.series(xs, silu, COLORS["blue"], width=2.4)
        lowest = min(range(len(xs)), key=lambda i: silu[i])
        c.circle(p.px(xs[lowest]), p.py(silu[lowest]), 3.5, fill=COLORS["red"], stroke=None)
        c.text(
            p.px(xs[lowest]) - 4,
            p.py(silu[lowest]) + 22,
            self.t("minimum", value=num(silu[lowest], 3), z=num(xs[lowest], 1)),
            size=10,
            anchor="start",
            color=COLORS["red"],
        )
        p.legend(70, 70, [(self.t("silu_legend"), COLORS["blue"]), ("ReLU", COLORS["gray"])])

        w1, w3, w2 = SEED_WEIGHTS
        s = scalar_steps(1.0, w1, w3, w2)
        c.text(
            590,
            28,
            self.t("weights", w1=num(w1), w3=num(w3), w2=num(w2)),
            size=12,
            weight="bold",
        )
        boxes = [
            (480, 70, f"gate = SiLU(x·W₁) = {num(s['gate'], 3)}", COLORS["blue"]),
            (700, 70, f"value = x·W₃ = {num(s['value'], 3)}", COLORS["orange"]),
            (590, 160, f"hidden = gate ⊙ value = {num(s['hidden'], 3)}", COLORS["purple"]),
            (590, 240, f"output = hidden·W₂ = {num(s['output'], 3)}", COLORS["green"]),
        ]
        for x, y, label, color in boxes:
            c.rect(x - 95, y - 18, 190, 32, fill=color, stroke=color, rx=5, opacity=0.12)
            c.text(x, y + 3, label, size=11.5)
        c.arrow(490, 88, 575, 140, COLORS["blue"])
        c.arrow(690, 88, 605, 140, COLORS["orange"])
        c.arrow(590, 174, 590, 220, COLORS["purple"])
        c.text(
            590,
            290,
            self.t("gate_share", sigma=num(s["sigma"], 3), percent=num(s["sigma"] * 100, 0)),
            size=10.5,
            color=COLORS["gray"],
        )

    def widget_html(self) -> str:
        cases = []
        for x in (-3.0, -2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0):
            cases.append(
                {
                    "in": {"x": x, "w1": 1.5, "w3": 0.8, "w2": 1.2},
                    "out": scalar_steps(x, *SEED_WEIGHTS),
                }
            )
        for x in (-1.0, 1.0, 2.5):
            cases.append(
                {
                    "in": {"x": x, "w1": 0.7, "w3": -1.2, "w2": 2.0},
                    "out": scalar_steps(x, 0.7, -1.2, 2.0),
                }
            )
        tol = {k: 6e-4 for k in ("pre", "sigma", "gate", "value", "hidden", "output", "relu")}
        t = self.t
        body = (
            '<div class="llmbook-widget__row"><div class="llmbook-widget__controls">'
            + slider("x", t("x"), -4, 4, 0.1, 1.0)
            + number("w1", t("w1"), 1.5)
            + number("w3", t("w3"), 0.8)
            + number("w2", t("w2"), 1.2)
            + '<table class="llmbook-widget__table">'
            f"<tr><th>{t('step')}</th><th>{t('computation')}</th><th>{t('result')}</th></tr>"
            f'<tr><td>z = x·W₁</td><td>{t("gate_input")}</td><td><output data-out="pre">…</output></td></tr>'
            f'<tr><td>σ(z)</td><td>{t("gate_open")}</td><td><output data-out="sigma">…</output></td></tr>'
            '<tr><td>gate</td><td>SiLU(z) = z·σ(z)</td><td><output data-out="gate">…</output></td></tr>'
            '<tr><td>value</td><td>x·W₃</td><td><output data-out="value">…</output></td></tr>'
            '<tr><td>hidden</td><td>gate ⊙ value</td><td><output data-out="hidden">…</output></td></tr>'
            '<tr><td>output</td><td>hidden·W₂</td><td><output data-out="output">…</output></td></tr>'
            "</table></div>" + stage((300, 250), t("stage"), _draw_stage) + "</div>"
            '<div class="llmbook-widget__results">'
            + output("relu", t("relu"))
            + "</div>"
            + grid_script(tol, cases)
        )
        return widget(self.ID, self.locale, body)

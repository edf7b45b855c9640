"""LayerNorm vs RMSNorm, step by step, on an editable 4-vector x."""

from __future__ import annotations

import torch
from llmbook.demos.controls import grid_script, slider, stage, widget
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["NormCompareDemo", "norm_steps"]

LN_EPS = 1e-5  # llmkit.layer_norm's default (torch.nn.LayerNorm's)
RMS_EPS = 1e-6  # llmkit.rms_norm's default (LLaMA's)
SEED_X = (1.0, 2.0, 3.0, 4.0)


def norm_steps(x: list[float]) -> dict[str, object]:
    """The intermediates (float64 torch) and both outputs (llmkit) for one vector x."""
    t = torch.tensor(x, dtype=torch.float64)
    mean = t.mean()
    var = (t - mean).pow(2).mean()  # biased, as LayerNorm uses
    mean_sq = t.pow(2).mean()
    return {
        "ln_mean": float(mean),
        "ln_centered": (t - mean).tolist(),
        "ln_var": float(var),
        "ln_std": float(torch.sqrt(var + LN_EPS)),
        "ln_y": llmkit.layer_norm(t.float(), eps=LN_EPS).double().tolist(),
        "rms_ms": float(mean_sq),
        "rms_rms": float(torch.sqrt(mean_sq + RMS_EPS)),
        "rms_y": llmkit.rms_norm(t.float(), eps=RMS_EPS).double().tolist(),
    }


STAGE_SERIES = (("x", "x", "gray"), ("ln", "LayerNorm", "orange"), ("rms", "RMSNorm", "blue"))


def _draw_stage(c: Canvas) -> None:
    """The widget's bars for the seed x, drawn once; its script resizes them (`data-series`) to the
    current values on a y range of ±max(1, |largest value|)."""
    s = norm_steps(list(SEED_X))
    values = {"x": list(SEED_X), "ln": s["ln_y"], "rms": s["rms_y"]}
    lim = max(1.0, *(abs(v) for row in values.values() for v in row))
    p = Plot(c, (10, 15, 280, 150), (0, 4), (-lim, lim))
    zero = p.py(0)
    c.line(10, zero, 290, zero, opacity=0.5)
    with c.group(data_plot=p.mapping()):
        for j, (key, _, color) in enumerate(STAGE_SERIES):
            with c.group(data_series=key):
                for i, v in enumerate(values[key]):
                    top = p.py(max(v, 0.0))
                    height = max(0.5, abs(p.py(v) - zero))
                    c.rect(p.px(i) + 4 + j * 20, top, 17, height, fill=COLORS[color], stroke=None)
    for i in range(4):
        c.text(p.px(i) + 34, p.y0 + p.h + 18, f"x[{i}]", size=10)
    for j, (_, name, color) in enumerate(STAGE_SERIES):
        c.rect(14 + j * 95, 0, 9, 9, fill=COLORS[color], stroke=None)
        c.text(27 + j * 95, 9, name, size=10, anchor="start")


class NormCompareDemo(BookDemo):
    ID = "norm-compare"

    def figure_svg(self) -> str:
        return two_layouts(
            (760, 300),
            self.t("figure"),
            [
                Panel(self.t("panel_values"), (0, 0, 470, 350)),
                Panel(self.t("panel_steps"), (470, 40, 290, 230)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        s = norm_steps(list(SEED_X))
        p = Plot(c, (60, 50, 400, 200), (0, 4), (-2, 4.5))
        p.axes([], [-2, -1, 0, 1, 2, 3, 4], ylabel=self.t("value"), title="x = [1, 2, 3, 4]")
        series = (
            ("x", list(SEED_X), COLORS["gray"]),
            ("LayerNorm(x)", s["ln_y"], COLORS["orange"]),
            ("RMSNorm(x)", s["rms_y"], COLORS["blue"]),
        )
        zero = p.py(0)
        for i in range(4):
            for j, (_, values, color) in enumerate(series):
                x = p.px(i) + 14 + j * 25
                top = p.py(values[i])
                c.rect(
                    x, min(top, zero), 22, abs(zero - top), fill=color, stroke=None, opacity=0.85
                )
                if not c.narrow:
                    below = top + 12 if values[i] < 0 else top - 4
                    c.text(x + 11, below, num(values[i], 3), size=10)
                else:  # no room above the bars on a phone: one row of values per series below
                    c.text(p.px(i) + 50, 292 + j * 18, num(values[i], 3), size=10)
            c.text(p.px(i) + 50, 268, self.t("component", i=i, n=i + 1), size=11)
        if c.narrow:
            short = ("x", "LN", "RMS")
            for j, (name, (_, _, color)) in enumerate(zip(short, series, strict=True)):
                c.rect(2, 282 + j * 18, 10, 10, fill=color, stroke=None)
                c.text(16, 292 + j * 18, name, size=10, anchor="start")
        c.line(p.x0, zero, p.x0 + p.w, zero, width=1)
        p.legend(80, 70, [(name, color) for name, _, color in series])

        lines = [
            (
                "LayerNorm",
                COLORS["orange"],
                [
                    f"μ = {num(s['ln_mean'], 3)}",
                    self.t("ln_var", var=num(s["ln_var"], 3), std=num(s["ln_std"], 3)),
                    self.t("ln_y"),
                ],
            ),
            (
                "RMSNorm",
                COLORS["blue"],
                [
                    f"mean(x²) = {num(s['rms_ms'], 3)}",
                    f"RMS = √(mean(x²)+ε) = {num(s['rms_rms'], 3)}",
                    self.t("rms_y"),
                ],
            ),
        ]
        y = 70
        for title, color, rows in lines:
            c.text(490, y, title, size=13, anchor="start", color=color, weight="bold")
            for row in rows:
                y += 20
                c.text(500, y, row, size=11.5, anchor="start")
            y += 40

    def widget_html(self) -> str:
        vectors = (
            [1.0, 2.0, 3.0, 4.0],
            [-2.0, 0.5, 1.0, 3.0],
            [5.0, -5.0, 0.0, 2.5],
            [0.1, 0.1, 0.1, 0.1],
            [0.0, 0.0, 0.0, 0.0],
            [0.01, 0.02, -0.01, 0.03],
            [-1.5, -2.5, -0.5, -3.0],
        )
        cases = [
            {"in": {f"x{i}": v for i, v in enumerate(x)}, "out": norm_steps(x)} for x in vectors
        ]
        tol = {k: 6e-4 for k in cases[0]["out"]}
        sliders = "".join(slider(f"x{i}", f"x[{i}]", -5, 5, 0.01, v) for i, v in enumerate(SEED_X))

        def row(label: str, name: str) -> str:
            return f'<tr><td>{label}</td><td><output data-out="{name}">…</output></td></tr>'

        t = self.t
        body = (
            '<div class="llmbook-widget__row"><div class="llmbook-widget__controls">'
            + sliders
            + "</div>"
            + stage((300, 190), t("stage"), _draw_stage)
            + "</div>"
            f'<div class="llmbook-widget__cols"><div><h4>{t("eps", name="LayerNorm", eps="1e-5")}'
            '</h4><table class="llmbook-widget__table">'
            + row(t("ln_mean"), "ln_mean")
            + row(t("ln_centered"), "ln_centered")
            + row(t("ln_var_row"), "ln_var")
            + row("④ √(σ² + ε)", "ln_std")
            + row("⑤ y = (x − μ) / √(σ² + ε)", "ln_y")
            + f"</table></div><div><h4>{t('eps', name='RMSNorm', eps='1e-6')}</h4>"
            '<table class="llmbook-widget__table">'
            + row(t("rms_ms"), "rms_ms")
            + row("② RMS = √(mean(x²) + ε)", "rms_rms")
            + row("③ y = x / RMS", "rms_y")
            + "</table></div></div>"
            + f'<p class="llmbook-widget__note">{t("note")}</p>'
            + grid_script(tol, cases)
        )
        return widget(self.ID, self.locale, body)

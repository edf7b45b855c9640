"""Pre-Norm vs Post-Norm: the two blocks with the residual path in green, and the measured gradient."""

from __future__ import annotations

import functools
from collections.abc import Callable

from llmbook.demos.controls import button, grid_script, output, select, stage, widget
from llmbook.demos.layout import MIN_LABEL_PX, PHONE_FIGURE_PX, Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["DEPTHS", "PrePostNormDemo", "measured_grad_norms"]

DEPTHS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32)
GREEN = COLORS["green"]
INITIAL_DEPTH = 12


@functools.lru_cache(maxsize=1)
def measured_grad_norms() -> dict[str, list[float]]:
    """‖∂L/∂x‖ at the input of pre- and post-norm stacks of llmkit blocks at init, per depth."""
    return {pos: llmkit.grad_norm_by_depth(pos, list(DEPTHS)) for pos in ("pre", "post")}


def _box(c: Canvas, x: float, y: float, label: str, color: str, part: str) -> None:
    c.add(f'<g data-part="{part}">')
    c.rect(x - 42, y - 13, 84, 26, fill=color, stroke=color, rx=5, opacity=0.15)
    c.text(x, y + 4, label, size=11.5)
    c.add("</g>")


def draw_blocks(c: Canvas, t: Callable[..., str], x0: float, y0: float) -> None:
    """Post-Norm (left) and Pre-Norm (right), input at the bottom; the residual path in green.

    Groups carry `data-part` so the widget can highlight the gradient path; `data-part="grad"` arrows
    are the backward path (shown by the widget's button, hidden in the static figure by CSS)."""
    for k, kind in enumerate(("post", "pre")):
        cx = x0 + 90 + k * 200  # residual line x
        bx = cx + 60  # branch (sub-layer) x
        c.text(
            cx + 30, y0 + 14, "Post-Norm" if kind == "post" else "Pre-Norm", size=13, weight="bold"
        )
        c.text(cx, y0 + 262, t("input"), size=11)
        c.text(cx, y0 + 36, t("output"), size=11)
        c.add('<g data-part="residual">')
        if kind == "post":
            c.line(cx, y0 + 250, cx, y0 + 122, GREEN, width=3.5)  # x → ⊕ (skip)
            c.line(cx, y0 + 110, cx, y0 + 92, GREEN, width=3.5)  # ⊕ → Norm
            c.arrow(cx, y0 + 68, cx, y0 + 44, GREEN, width=3.5)  # Norm → out
        else:
            c.line(cx, y0 + 250, cx, y0 + 92, GREEN, width=3.5)  # x → ⊕, nothing in between
            c.arrow(cx, y0 + 80, cx, y0 + 44, GREEN, width=3.5)
        c.add("</g>")
        c.add('<g data-part="branch">')
        split, plus = y0 + 228, (y0 + 116 if kind == "post" else y0 + 86)
        c.polyline([(cx, split), (bx, split)], width=1.4)
        if kind == "post":
            c.arrow(bx, split, bx, y0 + 162, width=1.4)  # into F
            c.polyline([(bx, y0 + 136), (bx, plus), (cx + 8, plus)], width=1.4)
        else:
            c.arrow(bx, split, bx, y0 + 212, width=1.4)  # into Norm
            c.arrow(bx, y0 + 186, bx, y0 + 120, width=1.4)  # Norm → F
            c.polyline([(bx, y0 + 94), (bx, plus), (cx + 8, plus)], width=1.4)
        c.add("</g>")
        if kind == "post":
            _box(c, bx, y0 + 149, t("sublayer"), COLORS["blue"], "sublayer")
            _box(c, cx, y0 + 80, "Norm", COLORS["red"], "norm-on-path")
        else:
            _box(c, bx, y0 + 199, "Norm", COLORS["orange"], "norm")
            _box(c, bx, y0 + 107, t("sublayer"), COLORS["blue"], "sublayer")
        c.circle(cx, plus, 8, fill="none", stroke=GREEN, width=2)
        c.text(cx, plus + 4, "+", size=13, color=GREEN, weight="bold")
        c.add('<g data-part="grad">')
        c.arrow(cx - 18, y0 + 48, cx - 18, y0 + 246, COLORS["purple"], width=1.6)
        label = t("grad_post") if kind == "post" else t("grad_pre")
        c.text(cx - 24, y0 + 150, label, size=10, anchor="end", color=COLORS["purple"])
        c.add("</g>")


def _curve(
    c: Canvas, t: Callable[..., str], box: tuple[float, float, float, float], *, titled: bool = True
) -> Plot:
    """The measured gradient norm by depth; untitled, it is the widget's smaller stage."""
    g = measured_grad_norms()
    top = 10 * (int(max(g["pre"] + g["post"]) / 10) + 1)
    p = Plot(c, box, (0, DEPTHS[-1]), (0, top))
    p.axes(
        [0, 8, 16, 24, 32],
        list(range(0, top + 1, 10)),
        xlabel=t("depth_axis") if titled else t("depth_short"),
        ylabel=t("grad_axis") if titled else "",
        title=t("curve_title") if titled else "",
    )
    p.series(DEPTHS, g["pre"], GREEN, dots=titled)
    p.series(DEPTHS, g["post"], COLORS["red"], dots=titled, dash="5 3")
    return p


def _draw_stage(c: Canvas, t: Callable[..., str]) -> None:
    """The widget's curve, drawn once; its script moves the marks to the chosen depth."""
    p = _curve(c, t, (45, 15, 240, 150), titled=False)
    g, i = measured_grad_norms(), DEPTHS.index(INITIAL_DEPTH)
    x = p.px(INITIAL_DEPTH)
    with c.group(data_plot=p.mapping()):
        with c.group(data_mark="depth-line"):
            c.line(x, p.y0, x, p.y0 + p.h, dash="3 3", opacity=0.4)
        with c.group(data_mark="pre-dot"):
            c.circle(x, p.py(g["pre"][i]), 5, fill=GREEN, stroke=None)
        with c.group(data_mark="post-dot"):
            c.circle(x, p.py(g["post"][i]), 5, fill=COLORS["red"], stroke=None)


class PrePostNormDemo(BookDemo):
    ID = "pre-post-norm"

    def figure_svg(self) -> str:
        svg = two_layouts(
            (780, 300),
            self.t("figure"),
            [
                Panel(self.t("panel_blocks"), (20, 0, 400, 300)),
                Panel(self.t("panel_curve"), (430, 0, 350, 300)),
            ],
            self._draw_figure,
        )
        return svg.replace('data-part="grad"', 'data-part="grad" display="none"')

    def _draw_figure(self, c: Canvas) -> None:
        draw_blocks(c, self.t, 0, 10)
        p = _curve(c, self.t, (500, 60, 250, 180))
        g = measured_grad_norms()
        p.legend(
            515,
            80,
            [
                (
                    self.t("legend", name="Pre-Norm", depth=DEPTHS[-1], grad=num(g["pre"][-1], 1)),
                    GREEN,
                ),
                (
                    self.t(
                        "legend", name="Post-Norm", depth=DEPTHS[-1], grad=num(g["post"][-1], 1)
                    ),
                    COLORS["red"],
                ),
            ],
        )

    def widget_html(self) -> str:
        g = measured_grad_norms()
        cases = [
            {
                "in": {"depth": d},
                "out": {
                    "pre": g["pre"][i],
                    "post": g["post"][i],
                    "ratio": g["pre"][i] / g["post"][i],
                },
            }
            for i, d in enumerate(DEPTHS)
        ]
        tol = {"pre": 6e-3, "post": 6e-3, "ratio": 6e-3}
        t = self.t
        blocks = Canvas(460, 290, t("blocks"), min_text=MIN_LABEL_PX * 460 / PHONE_FIGURE_PX)
        draw_blocks(blocks, t, 0, 5)
        diagram = str(blocks).replace(
            'class="llmbook-demo__svg"', 'class="llmbook-widget__stage" data-role="blocks"'
        )
        body = (
            '<div class="llmbook-widget__row">'
            + diagram
            + '<div class="llmbook-widget__controls">'
            + '<div class="llmbook-widget__buttons">'
            + button("forward", t("forward"))
            + button("backward", t("backward"))
            + "</div>"
            + select("depth", t("depth"), [(str(d), str(d)) for d in DEPTHS], str(INITIAL_DEPTH))
            + stage((300, 200), t("stage"), lambda c: _draw_stage(c, t))
            + "</div></div>"
            '<div class="llmbook-widget__results">'
            + output("pre", t("grad_norm", name="Pre-Norm"))
            + output("post", t("grad_norm", name="Post-Norm"))
            + output("ratio", "Pre / Post")
            + "</div>"
            f'<p class="llmbook-widget__note">{t("note")}</p>' + grid_script(tol, cases)
        )
        config = {"depths": list(DEPTHS), "pre": g["pre"], "post": g["post"]}
        return widget(self.ID, self.locale, body, config=config)

"""RoPE: rotate q by m·θ and k by n·θ; their dot product depends only on m − n."""

from __future__ import annotations

import math

import torch
from llmbook.demos.controls import button, grid_script, number, output, slider, stage, widget
from llmbook.demos.layout import Panel, two_layouts
from llmbook.demos.svg import COLORS, Canvas, Plot, num

import llmkit
from bookdemos.base import BookDemo

__all__ = ["RopeDemo", "relative_scores", "rotated_dot"]

# The seed's worked example: θ = 45°, q = k = [1, 0], positions (m, n).
EXAMPLE_ROWS = ((1, 0), (2, 1), (2, 0))
HEAD_DIM = 128
MAX_DISTANCE = 200
SINGLE_PAIR = 8  # a mid frequency: θ_8 = 10000^(-16/128) ≈ 0.316 rad, period ≈ 20 positions


def rotated_dot(q: list[float], k: list[float], m: int, n: int, theta_deg: float):
    """llmkit's rotations of q (position m) and k (position n) and their dot product."""
    theta = math.radians(theta_deg)
    q_rot = llmkit.rotate_2d(torch.tensor(q, dtype=torch.float64), m * theta)
    k_rot = llmkit.rotate_2d(torch.tensor(k, dtype=torch.float64), n * theta)
    return q_rot.tolist(), k_rot.tolist(), float(q_rot @ k_rot)


def relative_scores(distances: list[int]) -> tuple[list[float], list[float]]:
    """Score of q = k = 1 at distance Δ, averaged over all RoPE pairs and for one pair alone.

    Each pair i contributes q_i·R(Δθ_i)k_i = 2cos(Δθ_i); the mean over pairs decays with distance while
    a single pair only oscillates (it is periodic, not decaying).
    """
    freqs = llmkit.rope_frequencies(HEAD_DIM).double()  # [d/2]
    angles = torch.tensor(distances, dtype=torch.float64)[:, None] * freqs  # [N, d/2]
    # rotate_2d works elementwise on the pair's two components: rotate every (Δ, i) at once.
    rotated = llmkit.rotate_2d(torch.ones(2, *angles.shape, dtype=torch.float64), angles)
    scores = ((rotated[0] + rotated[1]) / 2).tolist()  # q·R k with q = k = [1, 1], halved
    mean = [sum(per_pair) / len(per_pair) for per_pair in scores]
    single = [per_pair[SINGLE_PAIR] for per_pair in scores]
    return mean, single


STAGE_RADIUS = 100
# The stage's arrows: (mark, colour, the input vector before rotation?, label); the script turns each.
STAGE_ARROWS = (
    ("q", "blue", True, ""),
    ("k", "red", True, ""),
    ("qrot", "blue", False, "q′"),
    ("krot", "red", False, "k′"),
)


def _stage_arrow(c: Canvas, color: str, before: bool) -> None:
    """An arrow from the centre along +x, one radius long (its group's rotation turns it)."""
    r, head = STAGE_RADIUS, 9
    c.line(0, 0, r, 0, color, width=1.5 if before else 3, dash="4 3" if before else None)
    c.polygon(
        [
            (r, 0),
            (r - head * math.cos(0.4), -head * math.sin(0.4)),
            (r - head * math.cos(0.4), head * math.sin(0.4)),
        ],
        fill=color,
    )


def _draw_stage(c: Canvas) -> None:
    """The widget's circle and arrows at m = 1, n = 0, θ = 45°, q = k = [1, 0], drawn once; its
    script rotates each arrow's group (`data-mark`) and moves the labels."""
    r = STAGE_RADIUS
    with c.group(opacity="0.3"):
        c.circle(0, 0, r)
    c.line(-120, 0, 120, 0, opacity=0.2)
    c.line(0, -120, 0, 120, opacity=0.2)
    q_rot, k_rot, _ = rotated_dot([1.0, 0.0], [1.0, 0.0], 1, 0, 45.0)
    start = {"q": (1.0, 0.0), "k": (1.0, 0.0), "qrot": tuple(q_rot), "krot": tuple(k_rot)}
    for name, color, before, label in STAGE_ARROWS:
        x, y = start[name]
        turn = f"rotate({num(-math.degrees(math.atan2(y, x)), 3)})"
        with c.group(data_mark=name, transform=turn, opacity="0.55" if before else "1"):
            _stage_arrow(c, COLORS[color], before)
        if label:
            with c.group(data_mark=f"{name}-label"):
                c.text(1.15 * r * x, -1.15 * r * y + 4, label, size=12, color=COLORS[color])


class RopeDemo(BookDemo):
    ID = "rope"

    def figure_svg(self) -> str:
        return two_layouts(
            (760, 320),
            self.t("figure"),
            [
                Panel(self.t("panel_rotation"), (0, 0, 390, 320)),
                Panel(self.t("panel_decay"), (390, 0, 370, 320)),
            ],
            self._draw_figure,
        )

    def _draw_figure(self, c: Canvas) -> None:
        c.text(190, 22, self.t("example"), size=13, weight="bold")
        for i, (m, n) in enumerate(EXAMPLE_ROWS):
            cx, cy, r = 65 + i * 125, 135, 50
            q_rot, k_rot, dot = rotated_dot([1.0, 0.0], [1.0, 0.0], m, n, 45.0)
            c.circle(cx, cy, r, stroke=COLORS["gray"], width=0.8)
            c.line(cx - r - 6, cy, cx + r + 6, cy, width=0.4, opacity=0.4)
            c.line(cx, cy - r - 6, cx, cy + r + 6, width=0.4, opacity=0.4)
            c.arrow(cx, cy, cx + r * q_rot[0], cy - r * q_rot[1], COLORS["blue"], width=2.2)
            c.arrow(cx, cy, cx + r * k_rot[0], cy - r * k_rot[1], COLORS["red"], width=2.2)
            c.text(cx, cy + r + 24, f"m={m}, n={n}", size=12)
            c.text(cx, cy + r + 42, f"q′·k′ = {num(dot, 3)}", size=12, weight="bold")
            c.text(cx, cy + r + 58, f"m−n = {m - n}", size=11, color=COLORS["gray"])
        c.text(70, 285, "■ q′ = R(mθ)q", size=11, color=COLORS["blue"])
        c.text(200, 285, "■ k′ = R(nθ)k", size=11, color=COLORS["red"])

        distances = list(range(0, MAX_DISTANCE + 1, 2))
        mean, single = relative_scores(distances)
        p = Plot(c, (440, 60, 300, 170), (0, MAX_DISTANCE), (-1.0, 1.0))
        p.axes(
            [0, 50, 100, 150, 200],
            [-1, -0.5, 0, 0.5, 1],
            xlabel=self.t("distance"),
            ylabel=self.t("score"),
            title=self.t("ones", d=HEAD_DIM),
        )
        p.series(distances, single, COLORS["orange"], width=1.2)
        p.series(distances, mean, COLORS["blue"], width=2.2)
        p.legend(
            470,
            282,
            [
                (self.t("mean"), COLORS["blue"]),
                (self.t("single", i=SINGLE_PAIR), COLORS["orange"]),
            ],
        )

    def widget_html(self) -> str:
        cases = []
        vectors = (([1.0, 0.0], [1.0, 0.0]), ([0.6, 0.8], [1.0, -0.5]))
        for theta in (45.0, 30.0):
            for m, n in ((1, 0), (2, 1), (2, 0), (5, 3), (7, 12)):
                for q, k in vectors:
                    q_rot, k_rot, dot = rotated_dot(q, k, m, n, theta)
                    cases.append(
                        {
                            "in": {
                                "m": m,
                                "n": n,
                                "theta": theta,
                                "qx": q[0],
                                "qy": q[1],
                                "kx": k[0],
                                "ky": k[1],
                            },
                            "out": {"qrot": q_rot, "krot": k_rot, "dot": dot, "rel": m - n},
                        }
                    )
        tol = {"qrot": 6e-4, "krot": 6e-4, "dot": 6e-4, "rel": 0}
        t = self.t
        body = (
            '<div class="llmbook-widget__row">'
            '<div class="llmbook-widget__controls">'
            + slider("m", t("m"), 0, 24, 1, 1)
            + slider("n", t("n"), 0, 24, 1, 0)
            + slider("theta", t("theta"), 5, 90, 5, 45)
            + number("qx", "q₁", 1.0)
            + number("qy", "q₂", 0.0)
            + number("kx", "k₁", 1.0)
            + number("ky", "k₂", 0.0)
            + '<div class="llmbook-widget__buttons">'
            + button("both-plus", t("both_plus"))
            + button("reset", t("reset"))
            + "</div></div>"
            + stage((260, 260), t("stage"), _draw_stage, origin=(-130, -130))
            + "</div>"
            + '<div class="llmbook-widget__results">'
            + output("qrot", "q′ = R(mθ)·q")
            + output("krot", "k′ = R(nθ)·k")
            + output("dot", "q′ · k′")
            + output("rel", t("relative"))
            + "</div>"
            + f'<p class="llmbook-widget__note" data-out-note="both">{t("note")}</p>'
            + grid_script(tol, cases)
        )
        return widget(self.ID, self.locale, body)

"""A tiny deterministic SVG writer for the demos' static figures.

Hand-written rather than matplotlib: the output is byte-stable without salts or dates, small, its text
stays selectable and follows the page colours (`currentColor`), so one figure reads in light and dark
mode and prints. Numbers are written with fixed precision so a figure changes only if its data does.
"""

from __future__ import annotations

import html
import json
import math
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

__all__ = ["COLORS", "FONT", "Canvas", "Plot", "color_variables", "json_script", "num"]

FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif"
# Mid-saturation colours that read on both Material's white and slate backgrounds.
COLORS = {
    "blue": "#1e88e5",
    "red": "#e53935",
    "green": "#2e9d4f",
    "orange": "#f08c00",
    "purple": "#8e5cd9",
    "gray": "#8a8a8a",
}


def color_variables() -> str:
    """`COLORS` as CSS custom properties (`--llmbook-c-blue: #1e88e5; …`) for an inline style: the
    widget scripts paint with `var(--llmbook-c-NAME)`, so each colour is written here only."""
    return ";".join(f"--llmbook-c-{name}:{value}" for name, value in COLORS.items())


def num(value: float, digits: int = 2) -> str:
    """A coordinate: fixed precision, no trailing zeros, never `-0`."""
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def json_script(data: object, role: str) -> str:
    """Data for the widget (and the browser test) in a JSON script element, safe inside HTML."""
    text = json.dumps(data, ensure_ascii=False, sort_keys=False, separators=(",", ":"))
    # `<`, `>` and `&` escaped so no `</script>` or comment opener can end the element early.
    text = text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
    return f'<script type="application/json" data-role="{html.escape(role)}">{text}</script>'


class Canvas:
    """An SVG document built element by element; `str()` gives the markup."""

    def __init__(
        self,
        width: float,
        height: float,
        label: str,
        *,
        origin: tuple[float, float] = (0.0, 0.0),
        min_text: float = 0.0,
        narrow: bool = False,
        css_class: str = "llmbook-demo__svg",
        role: str | None = None,
    ) -> None:
        """`origin`, `min_text` and `narrow` serve a phone panel (layout.py): a window onto the wide
        drawing whose text is raised to `min_text` units and whose axes label fewer ticks; `role`
        names a widget's stage (`data-role`) for its script."""
        self.width, self.height, self.label = width, height, label
        self.origin, self.min_text, self.narrow, self.css_class = (
            origin,
            min_text,
            narrow,
            css_class,
        )
        self.role = role
        self._parts: list[str] = []

    def _outside(self, x: float, y: float) -> bool:
        ox, oy = self.origin
        return not (ox - 1 <= x <= ox + self.width + 1 and oy - 1 <= y <= oy + self.height + 1)

    def add(self, markup: str) -> None:
        self._parts.append(markup)

    @contextmanager
    def group(self, **attrs: str) -> Iterator[None]:
        """What is drawn inside becomes one `<g>`; `data_mark="dot"` is written `data-mark="dot"`
        (a widget script finds and moves its marks by these names)."""
        written = "".join(
            f' {key.replace("_", "-")}="{html.escape(value)}"' for key, value in attrs.items()
        )
        self.add(f"<g{written}>")
        yield
        self.add("</g>")

    def line(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        color: str = "currentColor",
        width: float = 1.0,
        dash: str | None = None,
        opacity: float = 1.0,
    ) -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        extra += f' stroke-opacity="{num(opacity)}"' if opacity != 1.0 else ""
        self.add(
            f'<line x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}" '
            f'stroke="{color}" stroke-width="{num(width)}"{extra}/>'
        )

    def arrow(
        self,
        x1: float,
        y1: float,
        x2: float,
        y2: float,
        color: str = "currentColor",
        width: float = 1.5,
        head: float = 7.0,
    ) -> None:
        """A line with a filled triangular head at (x2, y2) (no <marker>, so no page-wide ids)."""
        self.line(x1, y1, x2, y2, color, width)
        angle = math.atan2(y2 - y1, x2 - x1)
        points = [(x2, y2)]
        for side in (-1, 1):
            a = angle + math.pi + side * 0.4
            points.append((x2 + head * math.cos(a), y2 + head * math.sin(a)))
        self.polygon(points, fill=color)

    def rect(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        fill: str = "none",
        stroke: str | None = "currentColor",
        rx: float = 0.0,
        width: float = 1.0,
        opacity: float = 1.0,
    ) -> None:
        extra = f' stroke="{stroke}" stroke-width="{num(width)}"' if stroke else ""
        extra += f' rx="{num(rx)}"' if rx else ""
        extra += f' fill-opacity="{num(opacity)}"' if opacity != 1.0 else ""
        self.add(
            f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" '
            f'fill="{fill}"{extra}/>'
        )

    def circle(
        self,
        cx: float,
        cy: float,
        r: float,
        fill: str = "none",
        stroke: str | None = "currentColor",
        width: float = 1.0,
    ) -> None:
        extra = f' stroke="{stroke}" stroke-width="{num(width)}"' if stroke else ""
        self.add(f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{fill}"{extra}/>')

    def polyline(
        self,
        points: Iterable[tuple[float, float]],
        color: str = "currentColor",
        width: float = 1.5,
        dash: str | None = None,
    ) -> None:
        coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(
            f'<polyline points="{coords}" fill="none" stroke="{color}" '
            f'stroke-width="{num(width)}" stroke-linejoin="round"{extra}/>'
        )

    def polygon(self, points: Iterable[tuple[float, float]], fill: str = "currentColor") -> None:
        coords = " ".join(f"{num(x)},{num(y)}" for x, y in points)
        self.add(f'<polygon points="{coords}" fill="{fill}"/>')

    def text(
        self,
        x: float,
        y: float,
        content: str,
        size: float = 12,
        anchor: str = "middle",
        color: str = "currentColor",
        weight: str | None = None,
    ) -> None:
        if self._outside(x, y):
            return  # another panel's text, cut out of this window anyway
        size = max(size, self.min_text)
        extra = f' font-weight="{weight}"' if weight else ""
        self.add(
            f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" '
            f'text-anchor="{anchor}" fill="{color}"{extra}>{html.escape(content)}</text>'
        )

    def __str__(self) -> str:
        label = html.escape(self.label)
        ox, oy = self.origin
        role = f' data-role="{html.escape(self.role)}"' if self.role else ""
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{num(ox)} {num(oy)} '
            f'{num(self.width)} {num(self.height)}" width="100%" role="img" aria-label="{label}" '
            f'font-family="{html.escape(FONT)}" class="{self.css_class}"{role}>'
            f"<title>{label}</title>" + "".join(self._parts) + "</svg>"
        )


class Plot:
    """Axes inside a rectangle of a Canvas: maps data to pixels, draws ticks, grid and series."""

    def __init__(
        self,
        canvas: Canvas,
        box: tuple[float, float, float, float],
        xlim: tuple[float, float],
        ylim: tuple[float, float],
        log_y: bool = False,
    ) -> None:
        self.c = canvas
        self.x0, self.y0, self.w, self.h = box
        self.xlim, self.ylim, self.log_y = xlim, ylim, log_y

    def px(self, x: float) -> float:
        lo, hi = self.xlim
        return self.x0 + (x - lo) / (hi - lo) * self.w

    def py(self, y: float) -> float:
        lo, hi = self.ylim
        if self.log_y:
            y, lo, hi = math.log10(y), math.log10(lo), math.log10(hi)
        return self.y0 + self.h - (y - lo) / (hi - lo) * self.h

    def mapping(self) -> str:
        """The data → drawing map as JSON, for a widget script that places marks on this plot
        (kit.js `plot()` reads it from a `data-plot` attribute)."""
        box = [self.x0, self.y0, self.w, self.h]
        return json.dumps({"box": box, "xlim": list(self.xlim), "ylim": list(self.ylim)})

    def axes(
        self,
        xticks: Sequence[float],
        yticks: Sequence[float],
        xlabel: str = "",
        ylabel: str = "",
        title: str = "",
        fmt_y=None,
        fmt_x=None,
    ) -> None:
        c, bottom = self.c, self.y0 + self.h
        for t in yticks:
            c.line(self.x0, self.py(t), self.x0 + self.w, self.py(t), width=0.5, opacity=0.2)
            label = fmt_y(t) if fmt_y else num(t)
            c.text(self.x0 - 5, self.py(t) + 4, label, size=10, anchor="end")
        for i, t in enumerate(xticks):
            c.line(self.px(t), bottom, self.px(t), bottom + 4)
            # A phone panel's larger text has room for every other tick label only.
            if not c.narrow or len(xticks) <= 3 or i % 2 == 0:
                c.text(self.px(t), bottom + 15, fmt_x(t) if fmt_x else num(t), size=10)
        c.line(self.x0, bottom, self.x0 + self.w, bottom)
        c.line(self.x0, self.y0, self.x0, bottom)
        if xlabel:
            c.text(self.x0 + self.w / 2, bottom + 32, xlabel, size=11)
        if ylabel:
            c.text(self.x0, self.y0 - 8, ylabel, size=11, anchor="start")
        if title:
            c.text(self.x0 + self.w / 2, self.y0 - 22, title, size=13, weight="bold")

    def series(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        color: str,
        width: float = 2.0,
        dots: bool = False,
        dash: str | None = None,
    ) -> None:
        pts = [(self.px(x), self.py(y)) for x, y in zip(xs, ys, strict=True)]
        self.c.polyline(pts, color=color, width=width, dash=dash)
        if dots:
            for x, y in pts:
                self.c.circle(x, y, 2.6, fill=color, stroke=None)

    def legend(self, x: float, y: float, entries: Sequence[tuple[str, str]]) -> None:
        for i, (label, color) in enumerate(entries):
            yy = y + i * 16
            self.c.line(x, yy - 4, x + 18, yy - 4, color=color, width=2.5)
            self.c.text(x + 23, yy, label, size=11, anchor="start")

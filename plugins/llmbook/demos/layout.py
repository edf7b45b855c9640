"""A demo's static figure in two layouts: the wide drawing, and for a narrow screen its panels stacked.

Each phone panel is a window (`viewBox`) onto the same drawing, its own SVG at the full column width,
with every label raised to `min_text` so that it renders at least `MIN_LABEL_PX` tall when the
figure is `PHONE_FIGURE_PX` wide (a 390 px phone, less Material's margins and the demo frame).
demos.css shows one layout or the other by the figure's width (a container query).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from llmbook.demos.svg import Canvas

__all__ = [
    "MIN_LABEL_PX",
    "PHONE_FIGURE_PX",
    "WIDE_MIN_SHOWN_PX",
    "WIDE_MIN_TEXT",
    "Panel",
    "two_layouts",
]

PHONE_FIGURE_PX = 280  # a 390 px phone shows it about 320 px wide; the authoring guide's column 290
MIN_LABEL_PX = 9.5
# The wide drawing's smallest text, in drawing units: at 800 units (the widest figure) shown at
# `WIDE_MIN_SHOWN_PX`, below which demos.css switches to the panels, it is still 9 px tall.
WIDE_MIN_TEXT = 11.5
WIDE_MIN_SHOWN_PX = 640  # Material's content column holds a 654 px figure at 1280 px


@dataclass(frozen=True)
class Panel:
    """One part of the wide drawing that reads on its own: its alt text and its box there."""

    label: str
    box: tuple[float, float, float, float]  # x, y, width, height in the wide drawing's units


def two_layouts(
    size: tuple[float, float], label: str, panels: Sequence[Panel], draw: Callable[[Canvas], None]
) -> str:
    """The wide SVG, then the phone panels in `div.llmbook-demo__narrow`; `draw` paints a Canvas."""
    wide = Canvas(
        *size, label, min_text=WIDE_MIN_TEXT, css_class="llmbook-demo__svg llmbook-demo__svg--wide"
    )
    draw(wide)
    narrow = []
    for panel in panels:
        x, y, w, h = panel.box
        canvas = Canvas(
            w,
            h,
            panel.label,
            origin=(x, y),
            min_text=MIN_LABEL_PX * w / PHONE_FIGURE_PX,
            narrow=True,
            css_class="llmbook-demo__svg llmbook-demo__svg--panel",
        )
        draw(canvas)
        narrow.append(str(canvas))
    return f'{wide}<div class="llmbook-demo__narrow">{"".join(narrow)}</div>'

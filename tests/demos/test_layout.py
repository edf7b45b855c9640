"""The two layouts of a demo figure (demos/layout.py): the wide drawing and the phone panels.

The sizes are the spec the browser test measures: shown at its narrowest (`WIDE_MIN_SHOWN_PX`, where
demos.css switches layouts) the wide drawing's smallest label is 9 px; a phone panel shown `PHONE_FIGURE_PX`
wide renders every label at `MIN_LABEL_PX` or more.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from demo_helpers import IDS, parse_svg
from llmbook.demos.layout import (
    MIN_LABEL_PX,
    PHONE_FIGURE_PX,
    WIDE_MIN_SHOWN_PX,
    WIDE_MIN_TEXT,
    Panel,
    two_layouts,
)
from llmbook.demos.svg import Canvas, Plot

SVG = "{http://www.w3.org/2000/svg}"


def figure_svgs(markup: str) -> list:
    return parse_svg(f"<div>{markup}</div>").findall(f".//{SVG}svg")


def view_box(svg) -> list[float]:
    return [float(v) for v in svg.get("viewBox").split()]


def font_sizes(svg) -> list[float]:
    return [float(t.get("font-size")) for t in svg.iter(f"{SVG}text")]


def _draw(c: Canvas) -> None:
    c.text(50, 50, "left", size=8)
    c.text(650, 50, "right", size=14)
    p = Plot(c, (440, 100, 320, 80), (0, 4), (0, 1))
    p.axes([0, 1, 2, 3, 4], [0, 1])


def test_panels_are_windows_onto_the_drawing_with_raised_text():
    markup = two_layouts(
        (800, 220), "整图", [Panel("左", (0, 0, 400, 220)), Panel("右", (400, 0, 400, 220))], _draw
    )
    wide, left, right = figure_svgs(markup)
    assert wide.get("class") == "llmbook-demo__svg llmbook-demo__svg--wide"
    assert view_box(wide) == [0, 0, 800, 220] and view_box(right) == [400, 0, 400, 220]
    assert left.get("aria-label") == "左" and right.get("aria-label") == "右"
    raised = MIN_LABEL_PX * 400 / PHONE_FIGURE_PX
    assert font_sizes(wide)[:2] == [WIDE_MIN_TEXT, 14]  # 8 raised
    # Each panel keeps only its own text (the rest would be cut off), none under the raised size.
    assert [t.text for t in left.iter(f"{SVG}text")] == ["left"]
    assert font_sizes(left) == [pytest.approx(raised, abs=0.01)]
    assert "right" in [t.text for t in right.iter(f"{SVG}text")]
    assert min(font_sizes(right)) >= raised - 0.01 and 14 in font_sizes(right)
    # A phone panel labels every other x tick: 0, 2, 4 of 0…4.
    ticks = [t.text for t in right.iter(f"{SVG}text") if re.fullmatch(r"\d", t.text or "")]
    wide_ticks = [t.text for t in wide.iter(f"{SVG}text") if re.fullmatch(r"\d", t.text or "")]
    assert ticks == ["0", "1", "0", "2", "4"] and wide_ticks == ["0", "1", "0", "1", "2", "3", "4"]


@pytest.mark.parametrize("demo_id", IDS)
def test_every_label_reads_at_9_px_in_both_layouts(rendered, demo_id):
    wide, *panels = figure_svgs(rendered[demo_id]["figure"])
    assert min(font_sizes(wide)) * WIDE_MIN_SHOWN_PX / view_box(wide)[2] >= 9.0
    assert len(panels) >= 2
    for panel in panels:
        shown = min(font_sizes(panel)) * PHONE_FIGURE_PX / view_box(panel)[2]
        assert shown >= MIN_LABEL_PX - 0.01, (panel.get("aria-label"), shown)


def test_the_pre_post_norm_widget_diagram_reads_on_a_phone(rendered):
    markup = rendered["pre-post-norm"]["widget"]
    diagram = re.search(r'<svg[^>]*data-role="blocks".*?</svg>', markup).group(0)
    svg = parse_svg(diagram)
    assert min(font_sizes(svg)) * PHONE_FIGURE_PX / view_box(svg)[2] >= MIN_LABEL_PX - 0.01


def test_the_stylesheet_switches_layouts_where_the_wide_drawing_stops_reading():
    css = (
        Path(__file__).resolve().parents[2] / "plugins/llmbook/assets/demos/demos.css"
    ).read_text(encoding="utf-8")
    assert f"@container (max-width: {WIDE_MIN_SHOWN_PX - 1}px)" in css

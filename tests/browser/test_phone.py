"""Figures read on a phone: every label of every figure is at least 9 px tall at 390×844.

A label's height is its font size times the scale its SVG is drawn at (`getScreenCTM`), measured on
every visible `<text>` of our inline SVGs (demo figures, widget stages) after the widgets have
drawn. Executed matplotlib figures are images whose glyphs are paths: their smallest font is read
from the SVG file (matplotlib draws a glyph at `scale(pt / 100)`) and scaled by the image's shown
width. The demo figures show their narrow layout (panels stacked) on the phone and the wide one on
a desktop, where every label also stays 9 px tall.

Each page is loaded once for the module (`open_shared_page`): every test sets the viewport it
measures, and the widgets redraw for it as they do when a phone rotates.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sitebuild import site_pages

pytestmark = pytest.mark.slow

MIN_LABEL_PX = 9.0
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WIDGETS = "figure.llmbook-demo .llmbook-widget"

LABEL_SIZES = """() => [...document.querySelectorAll("svg text")]
  .filter(t => t.getClientRects().length && t.textContent.trim())
  .map(t => {
    const m = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    const svg = t.closest("svg");
    return [px, t.textContent.trim(), svg.getAttribute("aria-label") || svg.getAttribute("class")];
  })"""
FIGURE_IMAGES = """() => [...document.querySelectorAll("figure.llmbook-figure > img")]
  .filter(i => i.getClientRects().length)
  .map(i => [i.getAttribute("src"), i.getBoundingClientRect().width])"""
# Figures load lazily, as the reader scrolls to them: scroll to each shown one and wait for it.
LOAD_FIGURES = """async () => {
  for (const img of document.querySelectorAll("figure.llmbook-figure > img")) {
    if (!img.offsetParent) continue;
    img.scrollIntoView();
    while (!(img.complete && img.naturalWidth)) await new Promise(r => setTimeout(r, 20));
  }
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
}"""
GLYPH_SCALE = re.compile(r"scale\(([\d.]+) -[\d.]+\)")
VIEWBOX_WIDTH = re.compile(r'viewBox="[\d.]+ [\d.]+ ([\d.]+) ')


def smallest_font_pt(svg_file: Path) -> tuple[float, float]:
    """(the smallest glyph size in pt, the viewBox width in pt) of a matplotlib SVG."""
    text = svg_file.read_text(encoding="utf-8")
    return min(float(s) * 100 for s in GLYPH_SCALE.findall(text)), float(
        VIEWBOX_WIDTH.search(text).group(1)
    )


def labels_below(open_page, site_dir: Path, viewport: dict) -> tuple[list[str], int, float]:
    small, count, least = [], 0, float("inf")
    for rel in site_pages(site_dir):
        if rel.rpartition("/")[2] == "404.html":
            continue  # no figure; its assets load from a host's root (axe_audit.py)
        page = open_page(rel)  # shared: a test before may have left it at another width
        page.set_viewport_size(viewport)
        total = page.locator(WIDGETS).count()
        page.wait_for_function(
            f"document.querySelectorAll('{WIDGETS}[data-ready]').length === {total}"
        )
        page.wait_for_timeout(100)  # a stage redrawn for the new width draws in the next frame
        sizes = [(px, text, svg) for px, text, svg in page.evaluate(LABEL_SIZES)]
        page.evaluate(LOAD_FIGURES)
        for src, shown in page.evaluate(FIGURE_IMAGES):
            font_pt, width_pt = smallest_font_pt((site_dir / rel).parent / src)
            sizes.append((font_pt * shown / width_pt, "(matplotlib)", src))
        count += len(sizes)
        for px, text, svg in sizes:
            least = min(least, px)
            if px < MIN_LABEL_PX:
                small.append(f"{rel}: {px:.1f} px {text!r} in {svg}")
        assert page.llmbook_errors == []
    return small, count, least


def test_every_figure_label_is_legible_on_a_phone(open_shared_page, site_dir):
    small, count, least = labels_below(open_shared_page, site_dir, PHONE)
    assert count > 200, f"only {count} labels measured"
    assert not small, f"{len(small)} of {count} labels under {MIN_LABEL_PX} px:\n" + "\n".join(
        small[:40]
    )
    assert least >= MIN_LABEL_PX


def test_every_figure_label_is_legible_on_a_desktop(open_shared_page, site_dir):
    small, count, _ = labels_below(open_shared_page, site_dir, DESKTOP)
    assert not small, f"{len(small)} of {count} labels under {MIN_LABEL_PX} px:\n" + "\n".join(
        small[:40]
    )


@pytest.mark.parametrize(
    ("viewport", "wide_shown"), [(PHONE, False), (DESKTOP, True)], ids=["phone", "desktop"]
)
def test_the_viewport_chooses_the_figure_layout(open_shared_page, viewport, wide_shown):
    page = open_shared_page("chapters/ch10-modern-llm.html")
    page.set_viewport_size(viewport)
    wide = page.locator(".llmbook-demo__svg--wide")
    panels = page.locator(".llmbook-demo__narrow .llmbook-demo__svg--panel")
    assert wide.count() == 6 and panels.count() >= 12  # two or more panels per figure
    shown = page.evaluate(
        """() => [".llmbook-demo__svg--wide", ".llmbook-demo__svg--panel"].map(
             s => [...document.querySelectorAll(s)].filter(e => e.getClientRects().length).length)"""
    )
    assert shown == ([6, 0] if wide_shown else [0, panels.count()])
    if not wide_shown:  # stacked: each panel below the previous one, none side by side
        tops = panels.evaluate_all("ps => ps.map(p => p.getBoundingClientRect().top)")
        assert tops == sorted(tops) and len(set(tops)) == len(tops)


def test_executed_figures_scroll_instead_of_shrinking_on_a_phone(open_shared_page):
    page = open_shared_page("chapters/ch10-modern-llm.html")
    page.set_viewport_size(PHONE)
    page.evaluate(LOAD_FIGURES)
    figures = page.locator("figure.llmbook-figure:has(> img)")
    assert figures.count() >= 2
    for figure in figures.all():
        natural, shown = figure.locator("img").evaluate(
            "i => [i.naturalWidth, i.getBoundingClientRect().width]"
        )
        assert shown >= 0.85 * natural - 1, (natural, shown)
        assert figure.evaluate("f => f.scrollWidth > f.clientWidth")  # wider than the column
        assert figure.get_attribute("tabindex") == "0"  # so a keyboard can scroll it
    page.set_viewport_size(DESKTOP)  # a wide column shows it whole again, not scrollable
    page.wait_for_timeout(100)
    first = figures.first
    assert not first.evaluate("f => f.scrollWidth > f.clientWidth")
    assert first.get_attribute("tabindex") is None

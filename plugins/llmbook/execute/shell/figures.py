"""Figures a block leaves open, as deterministic inline SVG with alt text.

Determinism: `svg.hashsalt` is fixed per figure (page, block, index), the SVG carries no date, and
glyphs are drawn as paths so the reader needs no font (Chinese labels use Noto Sans CJK SC, which
the project installs: `fonts.py`; a character no figure font has fails the block).
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from llmbook.execute.shell.fonts import glyphs_checked, register_fonts

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale

__all__ = ["Figure", "described", "figure_context", "is_figure", "show_again", "take_figures"]

RC = {
    "font.family": "sans-serif",
    "font.sans-serif": ["Noto Sans CJK SC", "DejaVu Sans"],
    "axes.unicode_minus": False,  # CJK fonts lack U+2212
    "svg.fonttype": "path",
    "svg.hashsalt": "llmbook",
    "figure.dpi": 100,
    "figure.max_open_warning": 0,
}


@dataclass(frozen=True)
class Figure:
    svg: str
    alt: str  # its own (label or titles); empty for one described by its cell (`described`)
    # a notebook's figure without a title or label: the cell that drew it and its axes' labels,
    # which the page describes it by in its own language when it renders (`described`)
    cell: int | None = None
    axes: tuple[tuple[str, str], ...] = ()


def described(figure: Figure, locale: Locale) -> Figure:
    """The figure with its alt text; one described by its cell gets that description in
    `locale` (`Figure drawn by cell 2; x axis: step`), in its text and its SVG's labels."""
    if figure.cell is None:
        return figure
    labels = [locale.ui("figure_axis", name=name, text=text) for name, text in figure.axes]
    alt = locale.ui("figure_join").join([locale.ui("figure_cell", cell=figure.cell), *labels])
    if alt == figure.alt:
        return figure
    old, new = html.escape(figure.alt, quote=True), html.escape(alt, quote=True)
    svg = figure.svg.replace(f'aria-label="{old}"', f'aria-label="{new}"', 1)
    svg = svg.replace(
        f"<title>{html.escape(figure.alt)}</title>", f"<title>{html.escape(alt)}</title>", 1
    )
    return Figure(svg, alt, figure.cell, figure.axes)


@contextmanager
def figure_context() -> Iterator[None]:
    """Agg backend and the book's rc settings for one page; nothing leaks to the next page."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    cjk = register_fonts()  # "": no CJK font installed, DejaVu Sans alone
    rc = {**RC, "font.sans-serif": RC["font.sans-serif"][0 if cjk else 1 :]}
    plt.close("all")
    # Notebooks end cells with plt.show(): figures are taken after each block, show() adds nothing.
    plt.show = lambda *args, **kwargs: None
    try:
        with matplotlib.rc_context(rc), glyphs_checked():
            yield
    finally:
        plt.close("all")


def is_figure(value: object) -> bool:
    return type(value).__name__ == "Figure" and type(value).__module__.startswith("matplotlib")


def show_again(fig: object) -> bool:
    """A figure that is a block's value or given to `display()`: open in pyplot again (a block
    that drew it closed it), so that the block's figures take it, as Jupyter's inline backend
    shows it again. True: IPython's display machinery has nothing more to show for it."""
    import matplotlib.pyplot as plt

    current = plt.gcf() if plt.get_fignums() else None
    plt.figure(fig)
    if current is not None:
        plt.figure(current)  # the figure `plt.plot` draws on stays the current one
    return True


def _alt(fig: object) -> str:
    label = fig.get_label().strip()
    if label:
        return label
    titles = [ax.get_title().strip() for ax in fig.get_axes()]
    suptitle = fig._suptitle.get_text().strip() if getattr(fig, "_suptitle", None) else ""
    return "; ".join(t for t in [suptitle, *titles] if t)


def take_figures(salt: str, cell: int | None) -> list[Figure] | str:
    """Render and close the open figures; returns an error text if one has no alt text (none of
    its own, and not drawn by a notebook's `cell`), raises `fonts.MissingGlyph` if one draws a
    character no figure font has."""
    if "matplotlib.pyplot" not in __import__("sys").modules:
        return []
    import matplotlib
    import matplotlib.pyplot as plt

    figures = []
    for number in plt.get_fignums():
        fig = plt.figure(number)
        alt = _alt(fig)
        if not alt and cell is None:
            plt.close("all")
            return "a figure has no alt text (no label, no title)"
        buffer = io.StringIO()
        try:
            with matplotlib.rc_context({"svg.hashsalt": f"{salt}:{number}"}), glyphs_checked():
                fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        except Exception:
            plt.close("all")
            raise
        drawn_by = None if alt else cell
        axes = _axes(fig) if drawn_by is not None else ()
        figures.append(Figure(_clean(buffer.getvalue(), alt), alt, drawn_by, axes))
        plt.close(fig)
    return figures


def _axes(fig: object) -> tuple[tuple[str, str], ...]:
    """What a figure's axes are labelled: (`x` or `y`, the label)."""
    return tuple(
        (name, text)
        for ax in fig.get_axes()
        for name, text in (("x", ax.get_xlabel().strip()), ("y", ax.get_ylabel().strip()))
        if text
    )


def _clean(svg: str, alt: str) -> str:
    """Inline-ready SVG: no XML prolog or doctype, scalable, labelled for screen readers."""
    svg = svg[svg.index("<svg") :]
    label = html.escape(alt, quote=True)
    svg = re.sub(
        r"<svg ",
        f'<svg role="img" aria-label="{label}" style="max-width:100%;height:auto" ',
        svg,
        count=1,
    )
    head_end = svg.index(">") + 1
    return svg[:head_end] + f"\n <title>{html.escape(alt)}</title>" + svg[head_end:]

"""Figures a block leaves open, as deterministic inline SVG with alt text.

Determinism: `svg.hashsalt` is fixed per figure (page, block, index), the SVG carries no date, and
glyphs are drawn as paths so the reader needs no font (Chinese labels use Noto Sans CJK SC, which
the project installs: `fonts.py`; a character no figure font has fails the block).
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass

from llmbook.execute.fonts import glyphs_checked, register_fonts
from llmbook.strings import book_language, ui

__all__ = ["Figure", "figure_context", "is_figure", "show_again", "take_figures"]

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
    alt: str
    # a figure described by its cell (no title or label of its own): that description in each
    # language strings.py has, so a translation shows it in its own (`in_language`)
    alts: tuple[tuple[str, str], ...] = ()


def in_language(figure: Figure, language: str) -> Figure:
    """The figure with its description in `language` (as it is when it has its own alt text)."""
    alt = dict(figure.alts).get(book_language(language))
    if alt is None or alt == figure.alt:
        return figure
    old, new = html.escape(figure.alt, quote=True), html.escape(alt, quote=True)
    svg = figure.svg.replace(f'aria-label="{old}"', f'aria-label="{new}"', 1)
    svg = svg.replace(
        f"<title>{html.escape(figure.alt)}</title>", f"<title>{html.escape(alt)}</title>", 1
    )
    return Figure(svg, alt, figure.alts)


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
    return "；".join(t for t in [suptitle, *titles] if t)


def take_figures(
    salt: str,
    fallback_alt: str = "",
    language: str = "zh",
    fallbacks: Mapping[str, str] | None = None,
) -> list[Figure] | str:
    """Render and close the open figures; returns an error text if one has no alt text (none of
    its own and no `fallback_alt`), raises `fonts.MissingGlyph` if one draws a character no figure
    font has."""
    if "matplotlib.pyplot" not in __import__("sys").modules:
        return []
    import matplotlib
    import matplotlib.pyplot as plt

    figures = []
    for number in plt.get_fignums():
        fig = plt.figure(number)
        own = _alt(fig)
        alt = own or _described(fig, fallback_alt, language)
        alts = (
            () if own else tuple((k, _described(fig, v, k)) for k, v in (fallbacks or {}).items())
        )
        if not alt:
            plt.close("all")
            return "a figure has no alt text (no label, no title)"
        buffer = io.StringIO()
        try:
            with matplotlib.rc_context({"svg.hashsalt": f"{salt}:{number}"}), glyphs_checked():
                fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        except Exception:
            plt.close("all")
            raise
        figures.append(Figure(_clean(buffer.getvalue(), alt), alt, alts))
        plt.close(fig)
    return figures


def _described(fig: object, fallback: str, language: str = "zh") -> str:
    """`fallback` (a notebook's figure: which cell drew it) with what the axes are labelled, in
    the site's `language`."""
    if not fallback:
        return ""
    labels = [
        ui(language, "figure_axis", name=name, text=text)
        for ax in fig.get_axes()
        for name, text in (("x", ax.get_xlabel().strip()), ("y", ax.get_ylabel().strip()))
        if text
    ]
    return ui(language, "figure_join").join([fallback, *labels])


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

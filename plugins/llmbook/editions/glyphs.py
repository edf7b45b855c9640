"""Every character of the PDF has a glyph: Typst draws a missing one as an empty box without a
word, so the book checks its text against its fallback fonts, Noto Sans CJK SC and DejaVu Sans
(matplotlib's copy), which the template names after each Latin font: what either has is drawn.
Math has its own font and is left out."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from functools import cache

from bs4 import BeautifulSoup

from llmbook.core.errors import AuthorError

__all__ = ["check_glyphs", "font_folders"]

_FAMILY = "Noto Sans CJK SC"


def font_folders() -> list[str]:
    """The folders of the book's fallback fonts: Noto Sans CJK's and matplotlib's (DejaVu)."""
    import matplotlib
    import noto_cjk_sans_otc

    return [
        os.path.dirname(noto_cjk_sans_otc.FONT_PATH),
        os.path.join(matplotlib.get_data_path(), "fonts", "ttf"),
    ]


@cache
def _covered() -> frozenset[int]:
    import noto_cjk_sans_otc
    from fontTools.ttLib import TTCollection, TTFont

    found: set[int] = set()
    collection = TTCollection(str(noto_cjk_sans_otc.FONT_PATH), lazy=True)
    try:
        for font in collection.fonts:
            if font["name"].getDebugName(1) == _FAMILY:
                found.update(font.getBestCmap())
    finally:
        collection.close()
    with TTFont(os.path.join(font_folders()[1], "DejaVuSans.ttf")) as dejavu:
        found.update(dejavu.getBestCmap())
    return frozenset(found)


def _text(html: str) -> str:
    soup = BeautifulSoup(html, "lxml")
    for math in soup.select("math"):
        math.decompose()
    return soup.get_text()


def _line(src: str, char: str) -> int:
    try:
        with open(src, encoding="utf-8") as handle:
            return next((n for n, line in enumerate(handle, 1) if char in line), 1)
    except OSError:
        return 1


def check_glyphs(pages: Iterable[tuple[str, str]]) -> None:
    """Raise at the first (page source, print HTML) whose text has a character no font draws."""
    covered = _covered()
    for src, html in pages:
        for char in dict.fromkeys(_text(html)):
            if ord(char) in covered or char.isspace() or unicodedata.category(char)[0] == "C":
                continue
            name = unicodedata.name(char, "a character")
            raise AuthorError(
                src,
                _line(src, char),
                f"the PDF edition cannot draw {char} (U+{ord(char):04X} {name}): no font of the "
                f"book has it",
                "write it another way (a word, an image), or keep it out of the book's pages",
            )

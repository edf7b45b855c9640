"""The book's figure fonts come with its install, not with the machine: Noto Sans CJK (the
`noto-cjk-sans-otc` package of the plugin's `cjk` extra, the same collection file Debian's
fonts-noto-cjk ships) is registered with matplotlib by path, and no other file may answer to its
names, so a figure is drawn from the same glyphs everywhere; without the extra (a book in none of
the CJK languages: cjk.py) figures draw with matplotlib's DejaVu Sans. A glyph that none of the
figure fonts has fails the block that drew it.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

__all__ = ["MissingGlyph", "glyphs_checked", "register_fonts"]

# matplotlib's warning (matplotlib/_text_helpers.py): "Glyph 128512 (\N{…}) missing from font(s) …".
_MISSING = r"Glyph \d+ \(.*\) missing from font\(s\)"


class MissingGlyph(Exception):
    """A character that no figure font can draw; the text is matplotlib's, naming it."""

    FIX = (
        "use characters the figure fonts have (Noto Sans CJK SC: Chinese, Latin, Greek, common "
        "symbols; DejaVu Sans), or write the symbol as mathtext, e.g. $\\alpha$"
    )


@lru_cache(maxsize=1)
def register_fonts() -> str:
    """Register the collection with matplotlib (once per process) and drop every other file that
    claims one of its family names (a system's own, perhaps another version); returns its path,
    "" when the `cjk` extra is not installed."""
    try:
        import noto_cjk_sans_otc
    except ImportError:
        return ""
    from matplotlib import font_manager

    path = str(noto_cjk_sans_otc.FONT_PATH)
    manager = font_manager.fontManager
    before = len(manager.ttflist)
    manager.addfont(path)
    ours = {entry.name for entry in manager.ttflist[before:]}
    manager.ttflist = [e for e in manager.ttflist if e.fname == path or e.name not in ours]
    manager._findfont_cached.cache_clear()
    return path


@contextmanager
def glyphs_checked() -> Iterator[None]:
    """Inside, matplotlib's missing-glyph warning is raised as `MissingGlyph` where the text is
    drawn (a block that draws itself, `fig.savefig`, gets it as an exception at its own line)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=_MISSING, category=UserWarning)
        try:
            yield
        except UserWarning as warning:
            if re.match(_MISSING, str(warning)):
                raise MissingGlyph(str(warning).rstrip(".")) from None
            raise

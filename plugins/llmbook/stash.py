"""Placeholders for finished HTML: Markdown never sees (and never mangles) what a stage rendered.

A stage puts HTML in the page's stash and writes the returned token into the Markdown; the token is
plain letters and digits, so no Markdown rule touches it. After conversion, `restore` swaps tokens
back, dropping the `<p>` that Markdown wraps around a token standing alone on its line.
"""

from __future__ import annotations

import re
import zlib

__all__ = ["Stash"]

_TOKEN = "LLMBOOKSTASH{}X{}Z"


class Stash:
    """Per-page store of rendered HTML fragments, keyed by an opaque token."""

    def __init__(self, page_key: str = "") -> None:
        # A per-page salt keeps tokens from one page from matching another's (crc32: the same
        # in every process, unlike hash()).
        self._salt = format(zlib.crc32(page_key.encode()) % 10**8, "d")
        self._items: list[str] = []
        self._pattern = re.compile(
            r"<p>\s*("
            + _TOKEN.format(self._salt, r"(\d+)")
            + r")\s*</p>|"
            + _TOKEN.format(self._salt, r"(\d+)")
        )

    def put(self, html: str) -> str:
        """Store `html` and return the token to write in its place."""
        self._items.append(html)
        return _TOKEN.format(self._salt, len(self._items) - 1)

    def __len__(self) -> int:
        return len(self._items)

    def restore(self, html: str) -> str:
        """Replace every token in `html` by its fragment (recursively: fragments may hold tokens)."""
        for _ in range(8):  # fragments nest a few levels at most
            if not self._items or "LLMBOOKSTASH" not in html:
                break
            html = self._pattern.sub(self._replace, html)
        return html

    def _replace(self, match: re.Match[str]) -> str:
        index = match.group(2) if match.group(2) is not None else match.group(3)
        return self._items[int(index)]

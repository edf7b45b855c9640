"""Which file translates which, and where each language's site lives (mkdocs-static-i18n's
suffix layout): `docs/x.en.md` is the English edition of `docs/x.md`; the book's own language
(the first of the `languages` option) is built at the site's root, each other one under
`<site>/<language>/` with the same paths."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

__all__ = ["Languages"]

_PAGE = re.compile(
    r"^(?P<stem>.+)\.(?P<language>[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?)\.(?P<ext>md|ipynb)$"
)


@dataclass(frozen=True)
class Languages:
    all: tuple[str, ...]  # the `languages` option: the book's own first
    current: str  # this build's (the `language` option)

    @property
    def default(self) -> str:
        return self.all[0]

    @property
    def translating(self) -> bool:
        """Whether this build makes a translated edition (not the book's own language)."""
        return self.current != self.default

    def language_of(self, path: str) -> str | None:
        """The language a file translates into (`x.en.md` → "en"); None for a source."""
        found = _PAGE.match(path)
        if found and found.group("language") in self.all[1:]:
            return found.group("language")
        return None

    def written_in(self, path: str) -> str | None:
        """A page inside a folder named after one of the other languages (`guide/en/x.md`) is
        written in it: not a source to translate (never "missing"), no note in that edition."""
        folders = path.split("/")[:-1]
        return next((f for f in folders if f in self.all[1:]), None)

    def source_of(self, path: str) -> str:
        """`docs/x.en.md` → `docs/x.md` (a source is its own)."""
        found = _PAGE.match(path)
        if not found or found.group("language") not in self.all[1:]:
            return path
        return f"{found.group('stem')}.{found.group('ext')}"

    def translation_of(self, path: str, language: str | None = None) -> str:
        """`docs/x.md` → `docs/x.en.md` (this build's language unless told)."""
        stem, dot, ext = path.rpartition(".")
        return f"{stem}.{language or self.current}.{ext}" if dot else path

    def link(self, url: str, language: str) -> str:
        """The relative link from the page at `url` (relative to this language's site root)
        to the same page in `language`'s site."""
        up = "../" * url.count("/")
        if self.translating:
            up += "../"  # out of <site>/<current>/
        target = url if language == self.default else f"{language}/{url}"
        return posixpath.normpath(up + target) if up else target

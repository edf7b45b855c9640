"""The book's bibliography: a BibTeX file (`docs/references.bib`) read with pybtex, each entry
labelled author–year as the book writes it (`Shazeer, 2020`, `Zhang & Sennrich, 2019`,
`Ainslie et al., 2023`) and listed with its full title, venue, year and DOI / arXiv link.
Nothing is fetched: every field comes from the file.

A file is parsed once per content: its entries are kept in the store's "bibliography" namespace
under a key of the text, so a warm build neither imports pybtex nor parses the file. The pages
that cite or list entries depend on what the entries show, not on the file: a comment or an
entry moved in it renders no page again.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import asdict, dataclass, replace
from html import escape
from pathlib import Path
from typing import Any

from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.store import Store, key, llmbook_hash, version
from llmbook.core.store_namespaces import BIBLIOGRAPHY

__all__ = ["Bibliography", "Entry", "load_bibliography"]

_LISTED_AUTHORS = 6  # the reference list names this many authors, then 等
_ENTRY_START = re.compile(r"^[ \t]*@\s*\w+\s*[{(]\s*(?P<key>[^,\s]+)\s*,", re.MULTILINE)
_LINE = re.compile(r"\bline (?P<line>\d+)")


@dataclass(frozen=True)
class Entry:
    """One work, its fields as plain text (TeX accents and braces resolved)."""

    key: str
    family: tuple[str, ...]  # the authors' family names: `de Jong`, `Ben Allal`
    names: tuple[str, ...]  # as the reference list shows them: `Ainslie, J.`
    others: bool  # the author list ends in `and others`
    title: str
    venue: str  # booktitle, journal or publisher; an arXiv preprint has none
    year: str
    doi: str
    arxiv: str
    line: int  # where the entry starts in the .bib file
    suffix: str = ""  # `a`, `b`: two works of one label (`Touvron et al., 2023a`)

    @property
    def label(self) -> str:
        """Author–year: `Shazeer, 2020`; `Zhang & Sennrich, 2019`; `Ainslie et al., 2023`."""
        if len(self.family) > 2 or self.others:
            authors = f"{self.family[0]} et al."
        else:
            authors = " & ".join(self.family)
        return f"{authors}, {self.year}{self.suffix}"

    @property
    def anchor(self) -> str:
        return f"ref-{self.key}"

    def digest(self) -> str:
        """What a page shows of the entry, as one hash (a render depends on it): not where it
        stands in the file."""
        return key({**asdict(self), "line": None})[:16]

    def html(self, locale: Locale) -> str:
        """The entry as the reference list shows it (inside its `<li>`)."""
        names = list(self.names[:_LISTED_AUTHORS])
        more = self.others or len(self.names) > _LISTED_AUTHORS
        authors = ", ".join(names) + (locale.ui("et_al") if more else "")
        parts = [f"{escape(authors)} ({escape(self.year)}). <cite>{escape(self.title)}</cite>."]
        if self.venue:
            parts.append(f"{escape(self.venue)}.")
        if self.doi:
            url = f"https://doi.org/{self.doi}"
            parts.append(f'<a href="{escape(url)}">doi:{escape(self.doi)}</a>')
        if self.arxiv:
            url = f"https://arxiv.org/abs/{self.arxiv}"
            parts.append(f'<a href="{escape(url)}">arXiv:{escape(self.arxiv)}</a>')
        return " ".join(parts)


@dataclass
class Bibliography:
    src: str  # "docs/references.bib"
    entries: dict[str, Entry]
    digest: str  # of what the entries show (`_entries_digest`): what the list depends on

    def nearest(self, key: str) -> list[str]:
        """Up to three keys spelled most like `key`."""
        return difflib.get_close_matches(key, list(self.entries), n=3, cutoff=0.6)

    def likely(self, text: str) -> list[str]:
        """The keys whose first author and year a free-text source names (`Shazeer 2020`)."""
        found = []
        for entry in self.entries.values():
            if entry.year in text and entry.family and entry.family[0].lower() in text.lower():
                found.append(entry.key)
        return found or self.nearest(text)

    def in_order(self, keys: set[str] | None = None) -> list[Entry]:
        """The entries (all, or those of `keys`) in author–year order."""
        chosen = [e for e in self.entries.values() if keys is None or e.key in keys]
        return sorted(chosen, key=lambda e: ([f.lower() for f in e.family], e.year, e.title))


def load_bibliography(path: Path, src: str, store: Store | None = None) -> Bibliography:
    """Read the .bib file at `path` (`src`: its path for messages), or take its entries from the
    `store` when this text was read before; AuthorError at its line when it is no valid BibTeX."""
    text = path.read_text(encoding="utf-8")
    memo = None
    if store is not None and store.enabled:
        memo = store.memo(BIBLIOGRAPHY, key(text, src, llmbook_hash(), version("pybtex")))
        kept = memo.get()
        if kept is not None:
            entries = {e["key"]: Entry(**{**e, "family": tuple(e["family"]),
                                         "names": tuple(e["names"])}) for e in kept}  # fmt: skip
            return Bibliography(src, entries, _entries_digest(entries))
    entries = _disambiguated(_parsed(text, src))
    if memo is not None:
        memo.put([asdict(entry) for entry in entries.values()])
    return Bibliography(src, entries, _entries_digest(entries))


def _entries_digest(entries: dict[str, Entry]) -> str:
    """What the entries show, as one hash: a comment, blank lines or an entry moved in the file
    change nothing a page shows, so they render no page again."""
    return key(sorted(entry.digest() for entry in entries.values()))[:16]


def _parsed(text: str, src: str) -> dict[str, Entry]:
    from pybtex.database import parse_string
    from pybtex.exceptions import PybtexError

    try:
        data = parse_string(text, "bibtex")
    except PybtexError as error:
        line = _LINE.search(str(error))
        raise AuthorError(
            src,
            int(line.group("line")) if line else 1,
            f"the bibliography is no valid BibTeX: {error}",
            "fix the entry there (an at-sign starts an entry, even in a comment)",
        ) from error
    lines = {
        m.group("key"): text.count("\n", 0, m.start()) + 1 for m in _ENTRY_START.finditer(text)
    }
    return {key: _entry(key, bib, src, lines.get(key, 1)) for key, bib in data.entries.items()}


def _disambiguated(entries: dict[str, Entry]) -> dict[str, Entry]:
    """Works that share a label get `a`, `b`… in title order."""
    by_label: dict[str, list[Entry]] = {}
    for entry in entries.values():
        by_label.setdefault(entry.label, []).append(entry)
    for same in by_label.values():
        if len(same) > 1:
            for n, entry in enumerate(sorted(same, key=lambda e: e.title)):
                entries[entry.key] = replace(entry, suffix="abcdefghijklmnopqrstuvwxyz"[n])
    return entries


def _entry(key: str, bib: Any, src: str, line: int) -> Entry:
    fields = bib.fields
    persons = list(bib.persons.get("author", []))
    others = bool(persons) and str(persons[-1]) == "others"
    persons = persons[:-1] if others else persons
    missing = [name for name in ("title", "year") if name not in fields] + (
        [] if persons else ["author"]
    )
    if missing:
        raise AuthorError(
            src,
            line,
            f"the entry {key} has no {', '.join(missing)}",
            "give every entry its title, author and year (and a DOI or arXiv id)",
        )
    archive = fields.get("archivePrefix", fields.get("eprinttype", "")).lower()
    return Entry(
        key=key,
        family=tuple(_plain(" ".join(p.prelast_names + p.last_names)) for p in persons),
        names=tuple(_name(p) for p in persons),
        others=others,
        title=_plain(fields["title"]),
        venue=_plain(_venue(fields)),
        year=_plain(fields["year"]),
        doi=fields.get("doi", "").strip(),
        arxiv=fields.get("eprint", "").strip() if archive in ("arxiv", "") else "",
        line=line,
    )


def _plain(latex: str) -> str:
    """A field's TeX (`Lebr{\\'o}n`, `{GQA}`) as plain text."""
    from pybtex.richtext import Text

    # render(backend), not render_as("text"): that looks the backend up among every installed
    # package's entry points on each call
    return Text.from_latex(latex).render(_text_backend()).strip()


@functools.cache
def _text_backend() -> Any:
    from pybtex.backends.plaintext import Backend

    return Backend()


def _name(person: Any) -> str:
    """`Ainslie, J.`; `de Jong, M.`; `Lee-Thorp, J.`"""
    family = _plain(" ".join(person.prelast_names + person.last_names))
    initials = " ".join(f"{_plain(n)[:1]}." for n in person.first_names + person.middle_names)
    return f"{family}, {initials}" if initials else family


def _venue(fields: Any) -> str:
    for name in ("booktitle", "journal", "publisher", "howpublished"):
        if name in fields:
            return fields[name]
    return ""

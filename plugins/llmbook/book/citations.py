"""Who cites what: every page's citations read from its model at the build's start, checked
against the bibliography (an unknown key fails at its line with the nearest keys; under a
bibliography a cited number must name an entry by key), and the entries cited nowhere found.

Without a bibliography, a cited number may name its source as free text (`[[2.1 @ Shazeer
2020]]`): a site that keeps no .bib file goes on as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from llmbook.book.bibliography import Bibliography, Entry
from llmbook.core.cite_syntax import Cite, ProseCitation, cited_key, find_citations
from llmbook.core.errors import AuthorError, quoted

__all__ = ["CitationIndex", "PageCitations", "page_citations"]

_LISTING = re.compile(r"^\s*:::\s*bibliography\s*$")


@dataclass(frozen=True)
class CitedNumber:
    line: int
    written: str
    source: str  # as written after the `@`
    cite: Cite | None  # None: free text


@dataclass
class PageCitations:
    src: str
    uri: str
    title: str
    prose: list[ProseCitation] = field(default_factory=list)
    numbers: list[CitedNumber] = field(default_factory=list)
    listing: int = 0  # the line of its `:::bibliography` (0: none)

    def keys(self) -> list[str]:
        """The keys the page cites, in the order it first cites them."""
        cited = [c.key for p in self.prose for c in p.cites]
        cited += [n.cite.key for n in self.numbers if n.cite is not None]
        return list(dict.fromkeys(cited))


def page_citations(plan: Any, uri: str, title: str) -> PageCitations:
    """The citations of one page, from its plan (its model, formulas and bindings)."""
    page = plan.page
    lexed = page.lexed
    found = PageCitations(page.src, uri, title)
    code = {lexed.first + i for i in lexed.code_lines()}
    for number in lexed.numbers:
        if number in code:
            continue
        text = lexed.line(number)
        if _LISTING.match(text) and not found.listing:
            found.listing = number
        found.prose += find_citations(text, number, plan.math.get(number, []))
    for b in page.bindings:
        if b.source is not None:
            found.numbers.append(CitedNumber(b.line, b.written, b.source, cited_key(b.source)))
    return found


@dataclass
class CitationIndex:
    bibliography: Bibliography | None
    pages: dict[str, PageCitations] = field(default_factory=dict)  # by src

    def entry(self, key: str) -> Entry | None:
        return self.bibliography.entries.get(key) if self.bibliography is not None else None

    def cited_by(self, key: str) -> list[PageCitations]:
        return [page for page in self.pages.values() if key in page.keys()]

    def uncited(self) -> list[Entry]:
        if self.bibliography is None:
            return []
        cited = {key for page in self.pages.values() for key in page.keys()}
        return [e for e in self.bibliography.entries.values() if e.key not in cited]

    def summary(self) -> str:
        cites = sum(len(p.keys()) for p in self.pages.values())
        entries = len(self.bibliography.entries) if self.bibliography is not None else 0
        return (
            f"citations: {cites} checked on {sum(bool(p.keys()) for p in self.pages.values())} "
            f"pages, {entries} entries, {len(self.uncited())} cited nowhere"
        )

    def check(self) -> list[AuthorError]:
        """Every key names an entry; under a bibliography, no cited number names free text."""
        errors = []
        for page in self.pages.values():
            for prose in page.prose:
                for cite in prose.cites:
                    problem = self._unknown(cite.key, f"[@{cite.key}]")
                    if problem:
                        errors.append(AuthorError(page.src, prose.line, *problem))
            for number in page.numbers:
                problem = self._number(number)
                if problem:
                    errors.append(AuthorError(page.src, number.line, *problem))
            if page.listing and self.bibliography is None:
                errors.append(AuthorError(page.src, page.listing, *self._no_bibliography()))
        return errors

    def _number(self, number: CitedNumber) -> tuple[str, str] | None:
        if number.cite is not None:
            return self._unknown(number.cite.key, quoted(f"[[{number.written} {number.source}]]"))
        if self.bibliography is None:
            return None
        text, _, locator = number.source.partition(",")
        likely = self.bibliography.likely(text)
        tail = f", {locator.strip()}" if locator.strip() else ""
        fix = " or ".join(f"[[{number.written} @{key}{tail}]]" for key in likely)
        return (
            f"the cited number [[{number.written} @ {number.source}]] names its source as "
            f"text, but the site has a bibliography ({self.bibliography.src})",
            f"cite its entry by key: {fix}"
            if fix
            else f"add its entry to {self.bibliography.src} and cite it: "
            f"[[{number.written} @key{tail}]]",
        )

    def _unknown(self, key: str, written: str) -> tuple[str, str] | None:
        bibliography = self.bibliography
        if bibliography is None:
            return self._no_bibliography(written)
        if key in bibliography.entries:
            return None
        nearest = bibliography.nearest(key)
        fix = f"add the entry {key} to {bibliography.src}"
        if nearest:
            fix = f"cite one of {', '.join('@' + k for k in nearest)}, or {fix}"
        return (f"{written} cites {key}, which is no entry of {bibliography.src}", fix)

    @staticmethod
    def _no_bibliography(written: str = ":::bibliography") -> tuple[str, str]:
        return (
            f"{written} needs a bibliography, but the site has none",
            "add docs/references.bib (BibTeX), or name the file with the llmbook option "
            "`bibliography` (relative to docs_dir)",
        )

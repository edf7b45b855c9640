"""How a page cites the bibliography (`docs/references.bib`), in Pandoc's syntax:

    [@shazeer2020glu]                  a prose citation: shown as (Shazeer, 2020), linked
    [@shazeer2020glu, Table 1]         ... with a locator: (Shazeer, 2020, Table 1)
    [@zhang2019rmsnorm; @ainslie2023gqa]   several at once
    [[524k @shazeer2020glu, Table 1]]  a cited number (`bindings.py`) whose source is a key

Read by the number coverage too: the numbers of a citation (`Table 1`) are not the page's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llmbook.core.lexer import code_spans

__all__ = ["Cite", "ProseCitation", "cited_key", "find_citations"]

KEY = r"[A-Za-z0-9_][\w:.+/-]*(?<![.:/])"
_ONE = rf"@(?P<key>{KEY})\s*(?:,\s*(?P<locator>[^;\]]*?))?\s*"
_CITATION = re.compile(rf"(?<![\[!\\])\[(?P<body>@{KEY}[^\]\[]*)\](?![(\[])")
_PART = re.compile(rf"^\s*{_ONE}$")
_SOURCE = re.compile(rf"^{_ONE}$")


@dataclass(frozen=True)
class Cite:
    """One cited entry: its key, and where in the work (`Table 1`; empty: the whole work)."""

    key: str
    locator: str = ""


@dataclass(frozen=True)
class ProseCitation:
    """`[@a; @b, Table 1]` as written on one line."""

    cites: tuple[Cite, ...]
    line: int
    start: int  # offsets of the whole `[…]` in its line
    end: int


def cited_key(source: str) -> Cite | None:
    """The key a cited number's source names (`@shazeer2020glu, Table 1`); None for free text
    (`Shazeer 2020`)."""
    found = _SOURCE.match(source.strip())
    if found is None:
        return None
    return Cite(found.group("key"), (found.group("locator") or "").strip())


def find_citations(text: str, line: int, hidden: list[tuple[int, int]] = ()) -> list[ProseCitation]:
    """The prose citations of one line; `hidden`: spans that are not prose (formulas). Code
    spans are skipped here; bindings never match (`[[…]]`)."""
    if "[@" not in text:  # every citation starts so: most lines are read no further
        return []
    skip = list(hidden) + code_spans(text)
    found = []
    for match in _CITATION.finditer(text):
        if any(a <= match.start() < b for a, b in skip):
            continue
        parts = [_PART.match(part) for part in match.group("body").split(";")]
        if not all(parts):
            continue  # not a citation (`[@user wrote]`): left as text
        cites = tuple(Cite(p.group("key"), (p.group("locator") or "").strip()) for p in parts)
        found.append(ProseCitation(cites, line, match.start(), match.end()))
    return found

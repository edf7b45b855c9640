"""How the book's references, captions and labelled equations are written.

A reference names a numbered part of the book the way Chinese textbooks do, and is a claim the
build checks when it is written as a link to its target:

    [10.2 节](#gqa)                       a section (its heading: `## 10.2 MHA → MQA → GQA {#gqa}`)
    [第 10 章](../chapters/ch10.md)       a chapter (front matter `chapter: 10`, or `# 第 10 章 …`)
    [第 3 课](../lessons/lesson03.md)     a lesson (`# 第 3 课：…`)
    [图 10-3](#fig-rope)                  a figure with a caption labelled `fig-rope`
    [表 10-2](#tbl-kv)                    a table with a caption
    [式 (10.4)](#eq-kv-bytes)             a display equation labelled `{#eq-kv-bytes}`

An English book writes them `[Section 10.2](#gqa)`, `[Chapter 10](…)`, `[Lesson 3](…)`,
`[Figure 10-3](#fig-rope)`, `[Table 10-2](#tbl-kv)`, `[Equation (10.4)](#eq-kv-bytes)`, a French
one `[Chapitre 10](…)`: each language's forms are its locale's (`references` in
llmbook/locales/<code>.yml), checked the same way, its errors worded in its own forms
(`Reference.language`).

Written without a link (`见 10.2 节`), the same text is an unbound reference: the build names its
likely target. A link's text may hold more than the reference (`[第 3 课：五大改造](…)`).
Captions are pymdownx.blocks.caption's (`/// figure-caption | #fig-rope`); a display formula is
labelled after its closing `$$`: `$$ {#eq-kv-bytes}`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from llmbook.core.bindings import spans as binding_spans
from llmbook.core.cite_syntax import find_citations
from llmbook.core.lexer import code_spans

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale

__all__ = [
    "CAPTION",
    "EQUATION_LABEL",
    "Reference",
    "find_references",
    "names_a_part",
]

_LINK = re.compile(r"(?<!!)\[(?P<text>[^\]\[]*)\]\((?P<href>[^()\s]*)(?P<title>\s+\"[^\"]*\")?\)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")

# `/// figure-caption | #fig-rope` (pymdownx.blocks.caption), its label in the argument or in an
# `attrs: {id: …}` option line.
CAPTION = re.compile(r"^(?P<indent>[ \t]*)///\s*(?P<kind>figure|table)-caption\b(?P<arg>.*)$")
CAPTION_ID = re.compile(r"#(?P<id>[A-Za-z][\w:-]*)|\bid:\s*['\"]?(?P<opt>[A-Za-z][\w:-]*)")
# The closing line of a display formula: `$$ {#eq-kv-bytes}` (its TeX may stand before the `$$`).
EQUATION_LABEL = re.compile(r"^(?P<close>[^$]*\$\$)\s*\{#(?P<id>[A-Za-z][\w:-]*)\}\s*$")


@dataclass(frozen=True)
class Reference:
    """One reference as written: `10.2 节` names the section numbered 10.2."""

    kind: str  # "section", "chapter", "lesson", "figure", "table" or "equation"
    number: str  # as written: "10.2", "10", "10-3", "10.4"
    text: str  # the reference's own text: "10.2 节"
    line: int  # file line
    start: int  # offsets of `text` in the line
    end: int
    href: str | None  # the link's target; None: unbound
    link_end: int  # offset of the link's `)` (where a title goes); -1: unbound
    language: str  # the locale whose form it is written in: "zh" (`10.2 节`), "en" (`Section 10.2`)

    @property
    def bound(self) -> bool:
        return self.href is not None


def names_a_part(text: str, locale: Locale) -> bool:
    """Whether `text` (a link's) is written as a reference to a numbered part (`10.2 节`, `图 10-3`)."""
    return any(pattern.search(text) for _, _, pattern in locale.reference_patterns)


def _matches(text: str, offset: int, locale: Locale) -> list[tuple[str, str, int, int, str]]:
    """(kind, number, start, end, language) of each reference form found, the first form that
    matches at a place winning (the page's own language's first)."""
    found: list[tuple[str, str, int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for kind, language, pattern in locale.reference_patterns:
        for match in pattern.finditer(text):
            start, end = match.span()
            if any(a < end and start < b for a, b in taken):
                continue
            taken.append((start, end))
            found.append((kind, match.group("number"), offset + start, offset + end, language))
    return sorted(found, key=lambda f: f[2])


def find_references(
    text: str, line: int, locale: Locale, hidden: list[tuple[int, int]] = ()
) -> list[Reference]:
    """The references of one line of prose (not a heading: a heading's number is its own), in
    the forms `locale` reads. `hidden`: spans that are not prose (formulas); code spans,
    bindings and citations are skipped here."""
    if _HEADING.match(text) or not any(c.isdigit() for c in text):
        return []
    skip = list(hidden) + code_spans(text) + [(a, b) for a, b, _ in binding_spans(text)]
    # a citation's locator (`[@shazeer2020glu, Table 1]`) names a part of the paper, not the book's
    skip += [(c.start, c.end) for c in find_citations(text, line, hidden)]
    found: list[Reference] = []
    links = [m for m in _LINK.finditer(text) if not _inside(m.start(), skip)]
    for link in links:
        for kind, number, start, end, language in _matches(
            link.group("text"), link.start("text"), locale
        ):
            href, link_end = link.group("href"), link.end() - 1
            found.append(
                Reference(kind, number, text[start:end], line, start, end, href, link_end, language)
            )
    in_links = [(m.start(), m.end()) for m in links]
    for kind, number, start, end, language in _matches(text, 0, locale):
        if not _inside(start, skip) and not _inside(start, in_links):
            found.append(
                Reference(kind, number, text[start:end], line, start, end, None, -1, language)
            )
    return sorted(found, key=lambda r: r.start)


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= offset < b for a, b in spans)

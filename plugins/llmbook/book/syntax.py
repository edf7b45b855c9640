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
`[Figure 10-3](#fig-rope)`, `[Table 10-2](#tbl-kv)`, `[Equation (10.4)](#eq-kv-bytes)`: checked
the same way, its errors worded in its own forms (`Reference.language`).

Written without a link (`见 10.2 节`), the same text is an unbound reference: the build names its
likely target. A link's text may hold more than the reference (`[第 3 课：五大改造](…)`).
Captions are pymdownx.blocks.caption's (`/// figure-caption | #fig-rope`); a display formula is
labelled after its closing `$$`: `$$ {#eq-kv-bytes}`.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from llmbook.bindings import spans as binding_spans
from llmbook.book.cite_syntax import find_citations
from llmbook.lexer import code_spans

__all__ = [
    "CAPTION",
    "EQUATION_LABEL",
    "Reference",
    "find_references",
    "names_a_part",
    "part_text",
]

# The part each reference kind names, and how the book writes its number:
# (group, kind, language, pattern).
# A section's number has a dot (`10.2 节`) or follows 第 (`第 2 节`, on a page without a chapter):
# a bare `3 节` is a count of sections, not a reference.
_FORMS = [
    ("section", "section", "zh", r"(?:第\s*)?(?P<section>\d+(?:\.\d+)+)\s*节"),
    ("ordinal", "section", "zh", r"第\s*(?P<ordinal>\d+)\s*节"),
    ("chapter", "chapter", "zh", r"第\s*(?P<chapter>\d+)\s*章"),
    ("lesson", "lesson", "zh", r"第\s*(?P<lesson>\d+)\s*课"),
    # Not the 图/表 of 意图, 地图, 代表, 列表, 发表…: a figure or table is named after 如/见/由.
    ("figure", "figure", "zh", r"(?<![意地试企构])图\s*(?P<figure>\d+(?:-\d+)?)(?![\d.\-])"),
    ("table", "table", "zh", r"(?<![代列发外仪])表\s*(?P<table>\d+(?:-\d+)?)(?![\d.\-])"),
    ("equation", "equation", "zh", r"式\s*[(（](?P<equation>\d+(?:\.\d+)?)[)）]"),
    # English: a capitalised word and its number (`Section 10.2`, `Figure 10-3`); not a word's
    # tail (`Subsection 2`).
    ("en_section", "section", "en", r"\bSection\s+(?P<en_section>\d+(?:\.\d+)*)(?![\d\-])"),
    ("en_chapter", "chapter", "en", r"\bChapter\s+(?P<en_chapter>\d+)(?![\d.\-])"),
    ("en_lesson", "lesson", "en", r"\bLesson\s+(?P<en_lesson>\d+)(?![\d.\-])"),
    ("en_figure", "figure", "en", r"\bFigure\s+(?P<en_figure>\d+(?:-\d+)?)(?![\d.\-])"),
    ("en_table", "table", "en", r"\bTable\s+(?P<en_table>\d+(?:-\d+)?)(?![\d.\-])"),
    ("en_equation", "equation", "en", r"\bEquation\s+\((?P<en_equation>\d+(?:\.\d+)?)\)"),
]
_REFERENCE = re.compile("|".join(f"(?:{pattern})" for _, _, _, pattern in _FORMS))
# What every form contains: a line without any has no reference (most lines; checked first).
_MARKER = re.compile(r"[节章课图表式]|Section|Chapter|Lesson|Figure|Table|Equation")
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
    link_end: int = -1  # offset of the link's `)` (where a title goes)
    language: str = "zh"  # the form it is written in: "zh" (`10.2 节`) or "en" (`Section 10.2`)

    @property
    def bound(self) -> bool:
        return self.href is not None


def part_text(kind: str, number: str, language: str = "zh") -> str:
    """How the book writes a reference to part `number` of `kind`: `10.2 节`, `图 10-3`; in
    English (`language` "en"), `Section 10.2`, `Figure 10-3`."""
    if language == "en":
        word = {"section": "Section", "chapter": "Chapter", "lesson": "Lesson"}
        word |= {"figure": "Figure", "table": "Table", "equation": "Equation"}
        return f"{word[kind]} ({number})" if kind == "equation" else f"{word[kind]} {number}"
    return {
        "section": f"{number} 节" if "." in number else f"第 {number} 节",
        "chapter": f"第 {number} 章",
        "lesson": f"第 {number} 课",
        "figure": f"图 {number}",
        "table": f"表 {number}",
        "equation": f"式 ({number})",
    }[kind]


def names_a_part(text: str) -> bool:
    """Whether `text` (a link's) is written as a reference to a numbered part (`10.2 节`, `图 10-3`)."""
    return _REFERENCE.search(text) is not None


def _matches(text: str, offset: int) -> list[tuple[str, str, int, int, str]]:
    found = []
    for match in _REFERENCE.finditer(text):
        group, kind, language = next(
            (g, k, lang) for g, k, lang, _ in _FORMS if match.group(g) is not None
        )
        start, end = offset + match.start(), offset + match.end()
        found.append((kind, match.group(group), start, end, language))
    return found


def find_references(text: str, line: int, hidden: list[tuple[int, int]] = ()) -> list[Reference]:
    """The references of one line of prose (not a heading: a heading's number is its own).
    `hidden`: spans that are not prose (formulas); code spans, bindings and citations are skipped
    here."""
    if _HEADING.match(text) or not _MARKER.search(text):
        return []
    skip = list(hidden) + code_spans(text) + [(a, b) for a, b, _ in binding_spans(text)]
    # a citation's locator (`[@shazeer2020glu, Table 1]`) names a part of the paper, not the book's
    skip += [(c.start, c.end) for c in find_citations(text, line, hidden)]
    found: list[Reference] = []
    links = [m for m in _LINK.finditer(text) if not _inside(m.start(), skip)]
    for link in links:
        for kind, number, start, end, language in _matches(link.group("text"), link.start("text")):
            href, link_end = link.group("href"), link.end() - 1
            found.append(
                Reference(kind, number, text[start:end], line, start, end, href, link_end, language)
            )
    in_links = [(m.start(), m.end()) for m in links]
    for kind, number, start, end, language in _matches(text, 0):
        if not _inside(start, skip) and not _inside(start, in_links):
            reference = Reference(kind, number, text[start:end], line, start, end, None)
            found.append(dataclasses.replace(reference, language=language))
    return sorted(found, key=lambda r: r.start)


def _inside(offset: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= offset < b for a, b in spans)

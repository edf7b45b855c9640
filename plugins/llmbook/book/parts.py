"""What one page numbers, read from its model: its chapter, its numbered sections, its labelled
figures, tables and equations, the directives that are numbered parts (`Directive.NUMBERED`:
`:::exercise`), and the references it makes.

The author writes section numbers (`## 10.2 MHA → MQA → GQA`); they are checked to run in sequence
and to match the page's chapter. Figures, tables and equations are numbered by the build, per
chapter, in page order: `图 10-3`, `表 10-2`, `练习 10-1`, `式 (10.4)` (on a page without a chapter:
`图 3`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from llmbook.core.book_syntax import CAPTION, CAPTION_ID, EQUATION_LABEL, Reference, find_references
from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.lexer import Lexed
from llmbook.directives.options import split_options
from llmbook.directives.parser import OPENER
from llmbook.directives.shipped import shipped

__all__ = ["ATTRS", "HEADING", "NUMBERED", "SECTION_NUMBER", "Part", "PageParts", "page_parts"]

# An ATX heading (its closing `#`s, after a space, are not its title), and a title's section number
HEADING = re.compile(r"^ {0,3}(?P<marks>#{1,6})\s+(?P<title>.*?)(?:\s+#+)?\s*$")
SECTION_NUMBER = re.compile(r"^(?P<number>\d+(?:\.\d+)*)\.?(?=\s)")
ATTRS = re.compile(r"\s*\{[^}]*\}\s*$")  # a heading's `{#id .class}` (attr_list)
_CAPTION_END = re.compile(r"^\s*///\s*$")
# The directives that are numbered parts, name → kind (`:::exercise` → "exercise").
NUMBERED = {d.NAME: d.NUMBERED for d in shipped() if d.NUMBERED}


@dataclass(frozen=True)
class Part:
    """A numbered part of a page that a reference can name."""

    kind: str  # "section", "figure", "table" or "equation"
    number: str  # "10.2", "10-3", "10.4"
    id: str  # its anchor on the page
    title: str  # the heading or the caption, as written
    line: int  # where it is declared (a heading, a caption's `///`, an equation's closing `$$`)
    text_line: int = 0  # a caption's first line of text, where its number goes


@dataclass
class PageParts:
    src: str  # "docs/chapters/ch10.md"
    uri: str  # "chapters/ch10.md", relative to the docs folder
    chapter: str | None = None  # "10"
    chapter_kind: str = "chapter"  # or "lesson" (`# 第 3 课`)
    title: str = ""
    parts: dict[str, Part] = field(default_factory=dict)  # by anchor id
    references: list[Reference] = field(default_factory=list)
    errors: list[AuthorError] = field(default_factory=list)  # sections out of sequence

    def numbered(self, kind: str) -> list[Part]:
        return [p for p in self.parts.values() if p.kind == kind]


def page_parts(
    lexed: Lexed,
    *,
    src: str,
    uri: str,
    chapter: str | None,
    math: Mapping[int, list[tuple[int, int]]],
    headings: Callable[[str], list[dict[str, Any]]],
    doc: Any = None,
    locale: Locale,
) -> PageParts:
    """The parts of the page `lexed` (errors name `src`; `uri`: its place in the docs folder;
    `chapter`: its front matter's). `math` gives the formulas' spans per file line,
    `headings(text)` the headings with the ids the page's toc gives them, `doc` the page's
    directive tree (a `:::related` body names topics, not parts: its lines are skipped)."""
    parts = PageParts(src, uri)
    code = {lexed.first + i for i in lexed.code_lines()} | _names_only(doc)
    lines = [(n, lexed.line(n)) for n in lexed.numbers if n not in code]
    _read_chapter(parts, lines, chapter, locale)
    _read_sections(parts, lines, lambda: headings(lexed.text))
    _read_captions(parts, lines)
    _read_numbered_directives(parts, lines)
    _read_equations(parts, lines)
    for number, text in lines:
        parts.references += find_references(text, number, locale, math.get(number, []))
    return parts


def _names_only(doc: Any) -> set[int]:
    if doc is None:
        return set()
    return {
        line
        for block in doc.walk()
        if block.name == "related"
        for line in range(block.line, block.end_line + 1)
    }


def _read_chapter(
    parts: PageParts, lines: list[tuple[int, str]], chapter: str | None, locale: Locale
) -> None:
    """The chapter from the front matter (`chapter: 10`), else from the first heading (its
    title's form in `locale`: `第 10 章`, `Chapter 10`, `Lesson 3`)."""
    for _, text in lines:
        heading = HEADING.match(text)
        if heading and len(heading.group("marks")) == 1:
            parts.title = ATTRS.sub("", heading.group("title"))
            for kind, pattern in locale.title_patterns:
                declared = pattern.match(parts.title)
                if declared:
                    parts.chapter, parts.chapter_kind = declared.group("number"), kind
                    break
            break
    if chapter is not None:
        parts.chapter, parts.chapter_kind = chapter, "chapter"


def _read_sections(
    parts: PageParts,
    lines: list[tuple[int, str]],
    headings: Callable[[], list[dict[str, Any]]],
) -> None:
    """Numbered headings, checked to follow each other and the chapter; each takes the id its
    page's table of contents gives it (asked only of a page with numbered headings)."""
    ids: dict[str, str] | None = None
    previous: list[int] = []
    if parts.chapter is None:
        _infer_chapter(parts, lines)
    for line, text in lines:
        heading = HEADING.match(text)
        number = SECTION_NUMBER.match(heading.group("title")) if heading else None
        if heading is None or number is None or len(heading.group("marks")) < 2:
            continue
        written = number.group("number")
        digits = [int(d) for d in written.split(".")]
        problem = _out_of_sequence(parts, previous, digits, len(heading.group("marks")))
        if problem:
            parts.errors.append(AuthorError(parts.src, line, *problem))
        previous = digits
        if ids is None:
            ids = _section_ids(headings())
        title = ATTRS.sub("", heading.group("title")[number.end() :]).strip()
        part = Part("section", written, ids.get(written, ""), title, line)
        if part.id:
            parts.parts.setdefault(part.id, part)


def _infer_chapter(parts: PageParts, lines: list[tuple[int, str]]) -> None:
    """A page that declares no chapter but numbers its first section `## 10.1` is chapter 10
    (the seed's style); one that numbers it `## 1` has no chapter."""
    for _, text in lines:
        heading = HEADING.match(text)
        number = SECTION_NUMBER.match(heading.group("title")) if heading else None
        if heading and number and len(heading.group("marks")) >= 2:
            digits = number.group("number").split(".")
            if len(digits) == len(heading.group("marks")):
                parts.chapter = digits[0]
            return


def _section_ids(headings: list[dict[str, Any]]) -> dict[str, str]:
    """section number → the id of the heading that starts with it."""
    ids: dict[str, str] = {}
    for heading in headings:
        number = SECTION_NUMBER.match(heading["name"])
        if number:
            ids.setdefault(number.group("number"), heading["id"])
    return ids


def _out_of_sequence(
    parts: PageParts, previous: list[int], digits: list[int], level: int
) -> tuple[str, str] | None:
    written = ".".join(map(str, digits))
    if parts.chapter is not None and str(digits[0]) != parts.chapter:
        expected = [int(parts.chapter), *digits[1:]]
        return (
            f"the section is numbered {written}, but the page is chapter {parts.chapter}",
            f"number it {'.'.join(map(str, expected))}",
        )
    # A chapter's `## 10.2` has two parts; a page without a chapter numbers `## 2` with one.
    depth = level if parts.chapter is not None else level - 1
    if len(digits) != depth:
        example = ".".join(["10"] * (parts.chapter is not None) + ["1"] * (level - 1))
        return (
            f"a level-{level} heading is numbered {written} ({len(digits)} parts)",
            f"give it {depth} parts (`{'#' * level} {example}`), "
            f"or make it a level-{len(digits) + level - depth} heading",
        )
    first = int(parts.chapter) if parts.chapter is not None else 1
    expected = _next_number(previous, len(digits), first, parts.chapter is not None)
    if digits != expected:
        after = f"after {'.'.join(map(str, previous))}" if previous else "as the first section"
        return (
            f"the section is numbered {written}, {after}",
            f"number it {'.'.join(map(str, expected))} and renumber the sections after it "
            "(and the references to them: the build lists each)",
        )
    return None


def _next_number(previous: list[int], depth: int, first: int, chapter: bool) -> list[int]:
    """The number the next section at `depth` parts takes after `previous`."""
    if not previous:
        return [first] + [1] * (depth - 1) if chapter else [1] * depth
    if depth > len(previous):
        return previous + [1] * (depth - len(previous))
    return previous[: depth - 1] + [previous[depth - 1] + 1]


def _prefix(parts: PageParts, kind: str) -> str:
    return (
        f"{parts.chapter}-"
        if (kind in ("figure", "table") or kind in NUMBERED.values()) and parts.chapter
        else (f"{parts.chapter}." if parts.chapter else "")
    )


def _read_captions(parts: PageParts, lines: list[tuple[int, str]]) -> None:
    """`/// figure-caption | #fig-rope` blocks with a label, numbered per kind in page order."""
    counts = {"figure": 0, "table": 0}
    for position, (line, text) in enumerate(lines):
        caption = CAPTION.match(text)
        if caption is None:
            continue
        label, title, text_line = _caption_label(caption.group("arg"), lines[position + 1 :])
        if label is None or not text_line:
            continue
        kind = caption.group("kind")
        counts[kind] += 1
        number = f"{_prefix(parts, kind)}{counts[kind]}"
        parts.parts.setdefault(label, Part(kind, number, label, title, line, text_line))


def _read_numbered_directives(parts: PageParts, lines: list[tuple[int, str]]) -> None:
    """Directives that are numbered parts (`:::exercise TITLE {#ex-kv}`), per kind in page
    order; one with an id is a part a reference can name (its number goes on its opener line)."""
    kinds = NUMBERED
    counts = dict.fromkeys(kinds.values(), 0)
    for line, text in lines:
        opener = OPENER.match(text)
        kind = kinds.get(opener.group("name")) if opener else None
        if opener is None or kind is None:
            continue
        counts[kind] += 1
        title, options = split_options(opener.group("arg") or "")
        label = next((value for name, value in options if name == "id"), "")
        if label:
            number = f"{_prefix(parts, kind)}{counts[kind]}"
            parts.parts.setdefault(label, Part(kind, number, label, title, line, line))


def _caption_label(argument: str, after: list[tuple[int, str]]) -> tuple[str | None, str, int]:
    """The caption's label (in its argument or an `attrs` option), its first line of text and
    that line's number (0: the caption has no text)."""
    found = CAPTION_ID.search(argument)
    label = (found.group("id") or found.group("opt")) if found else None
    for line, text in after:
        if _CAPTION_END.match(text):
            break
        if re.match(r"^\s{4}attrs:", text):
            found = CAPTION_ID.search(text)
            label = label or ((found.group("id") or found.group("opt")) if found else None)
        elif text.strip():
            return label, text.strip(), line
    return label, "", 0


def _read_equations(parts: PageParts, lines: list[tuple[int, str]]) -> None:
    """Display formulas closed by `$$ {#eq-…}`, numbered in page order."""
    count = 0
    for line, text in lines:
        label = EQUATION_LABEL.match(text)
        if label and text.count("$$") == 1:
            count += 1
            number = f"{_prefix(parts, 'equation')}{count}"
            parts.parts.setdefault(
                label.group("id"), Part("equation", number, label.group("id"), "", line)
            )

"""Every number a reader sees is accounted for: checked, cited, illustrative, or structural.

The numbers of a page's prose, tables and directive titles are found here (digits outside code,
formulas, links, HTML tags and bindings) and sorted into:

- checked       `[[expr = 2.1]]`: recomputed by the build;
- cited         `[[2.1 @ source]]`: a measurement from a paper, with its source;
- illustrative  `[[~2.1]]`: a made-up example value, shown with a 示意 label;
- structural    not a claim, by one of the rules below;
- unaccounted   anything else: listed by the coverage report, an error on a `strict` page.

Structural rules (kept small on purpose; each has a test):
1. heading numbers: the section number that starts a heading (`## 10.3 RoPE`);
2. list markers: `1.` / `1)` that start an ordered list item;
3. years: 1900–2099, as a whole number (`2017 年`, `Vaswani 2017`);
4. ordinals: a number after 第, or after Step / Card / Lesson / Chapter / 课 / 章 / 节 / 步
   (references to the book's parts, `10.3 节`, `第 3 课`, `图 10-3`, are not numbers here: the
   book's index checks them, `book/index.py`);
5. names: digits inside a word with letters (`LLaMA-2-7B`, `fp16`, `Qwen2.5`, `H100`, `L2-C2`),
   except a quantity with a magnitude letter standing alone (`524k`, `128K`, `7B`, `4k/8k`);
6. card and step numbers in `:::card N` / `:::step N` headers;
7. shape flows: `:::shapeflow` bodies are checked by their own symbolic checker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llmbook.core.bindings import spans as binding_spans
from llmbook.core.book_syntax import find_references
from llmbook.core.cite_syntax import find_citations
from llmbook.core.i18n import Locale
from llmbook.core.lexer import code_spans
from llmbook.directives.nodes import Block
from llmbook.directives.parser import OPENER
from llmbook.directives.shipped import shipped
from llmbook.directives.tree import parse_structure
from llmbook.execute.stages.collect import PageSource

__all__ = ["Coverage", "Unaccounted", "page_coverage"]

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:[eE][-+]?\d+)?")
_WORD = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-/]*")  # a word that may hold digits (names)
_SKIP = [
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"<[^>]+>"),  # HTML tags and their attributes
    re.compile(r"\[\^[^\]]+\]"),  # footnote markers
    re.compile(r"https?://\S+"),  # bare URLs
    re.compile(r"\{[#.][^}]*\}"),  # attribute lists
]
_HEADING_NUMBER = re.compile(r"^\s*#{1,6}\s+(\d+(?:\.\d+)*\.?)(?=\s)")
_LIST_MARKER = re.compile(r"^\s*(?:>\s*)*\d+[.)](?=\s)")
# A magnitude letter glued to digits (`524k`, `128K`, `7B`): a quantity, not a name.
_MAGNITUDE = re.compile(r"\d+(?:[.,]\d+)*(?P<mag>[kKMBT])")


@dataclass(frozen=True)
class Unaccounted:
    line: int  # line in the file
    text: str  # the number as written


@dataclass
class Coverage:
    checked: int = 0
    cited: int = 0
    illustrative: int = 0
    structural: int = 0
    unaccounted: list[Unaccounted] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.checked} checked, {self.cited} cited, {self.illustrative} illustrative, "
            f"{self.structural} structural, {len(self.unaccounted)} unaccounted"
        )


def page_coverage(
    page: PageSource, math: dict[int, list[tuple[int, int]]], doc: Block | None, locale: Locale
) -> Coverage:
    """Sort the page's numbers; `math` gives the formulas' spans per file line, `doc` the
    page's directive tree (parsed here when not given), `locale` the words that make a number
    an ordinal or a reference (`Step 3`, `Figure 3-1`)."""
    coverage = Coverage()
    for b in page.bindings:
        if b.expr is not None:
            coverage.checked += 1
        elif b.source is not None:
            coverage.cited += 1
        else:
            coverage.illustrative += 1
    code_lines = {n for block in page.blocks for n in range(block.line, block.end_line + 1)}
    shapeflow = _shapeflow_lines(page, doc)
    for line, text in enumerate(page.lines, start=page.first):
        if line in code_lines or line in shapeflow:
            continue
        numbers = list(_NUMBER.finditer(text))
        if not numbers:
            continue
        hidden = _hidden_spans(text, math.get(line, []), locale)
        for number in numbers:
            if any(a <= number.start() < b for a, b in hidden):
                continue
            quantity = _quantity(text, number)
            if quantity is None and _structural(text, number, locale):
                coverage.structural += 1
            else:
                coverage.unaccounted.append(Unaccounted(line, quantity or number.group(0)))
    return coverage


def _hidden_spans(text: str, math: list[tuple[int, int]], locale: Locale) -> list[tuple[int, int]]:
    """What is not prose on the line: code, formulas, bindings, links, tags, names, the
    book's references (`10.2 节`, `图 10-3`: the book's index checks them) and citations."""
    spans = list(math) + code_spans(text)
    spans += [(r.start, r.end) for r in find_references(text, 0, locale, math)]
    spans += [(c.start, c.end) for c in find_citations(text, 0, math)]  # `[@key, Table 1]`
    spans += [(start, end) for start, end, _ in binding_spans(text)]
    for pattern in _SKIP:
        spans += [m.span() for m in pattern.finditer(text)]
    return spans


def _quantity(text: str, number: re.Match[str]) -> str | None:
    """`524k` when the number has a magnitude letter and its word is only such quantities
    (`4k/8k`, `7B-70B`); None otherwise, and inside a name (`Llama-2-7B`, `Qwen2.5-7B`)."""
    glued = _MAGNITUDE.match(text, number.start())
    if glued is None or glued.end() != number.end() + 1:
        return None
    for word in _WORD.finditer(text):
        if word.start() <= number.start() < word.end():
            parts = re.split(r"[-/]", word.group(0).rstrip("."))
            if all(re.fullmatch(r"\d+(?:[.,]\d+)*[kKMBT]?", part) for part in parts):
                return glued.group(0)
            return None
    return None


def _structural(text: str, number: re.Match[str], locale: Locale) -> bool:
    start, end, value = number.start(), number.end(), number.group(0)
    heading = _HEADING_NUMBER.match(text)
    if heading and heading.start(1) <= start < heading.end(1):
        return True
    marker = _LIST_MARKER.match(text)
    if marker and start < marker.end():
        return True
    if re.fullmatch(r"(19|20)\d\d", value):
        return True
    before, after = locale.ordinal_patterns
    if (before and before.search(text[:start])) or (after and after.match(text[end:])):
        return True
    opener = OPENER.match(text)
    if opener and opener.group("name") in ("card", "step") and opener.group("arg"):
        first = _NUMBER.search(text, opener.start("arg"))
        if first is not None and first.start() == start:
            return True
    for word in _WORD.finditer(text):
        if word.start() <= start and end <= word.end() and re.search(r"[A-Za-z_]", word.group(0)):
            if not re.fullmatch(r"\d+(?:\.\d+)?[eE][-+]?\d+", word.group(0)):
                return True
    return False


def _shapeflow_lines(page: PageSource, doc: Block | None) -> set[int]:
    """File lines of `:::shapeflow` blocks: the shape checker owns their numbers."""
    if doc is None:
        doc = parse_structure(page.lexed, src=page.src, directives=shipped())
    return {
        line
        for block in doc.walk()
        if block.name == "shapeflow"
        for line in range(block.line, block.end_line + 1)
    }

"""A page converted in sections: after an edit, Python-Markdown converts only the sections whose
text changed, and the page is put together from the kept ones, byte for byte what one conversion
of the whole page gives (HTML, table of contents, title, anchors, links).

The page pipeline runs once on the whole page (its own render cache keeps that); what it hands
Python-Markdown (Markdown with stash placeholders, the HTML pieces behind them) is cut before each
`#` heading that starts a top-level block: one blank line before it, outside fenced code, raw
HTML blocks, comments and `///` blocks. A section is converted on its own, with its placeholders
numbered from its first piece, and kept under the key of its text and the pieces it shows (which
hold the bound numbers, references, numbering, outputs and words the pipeline put there), the
site's Markdown settings and the page's place. What crosses sections:

- heading ids: the toc makes a heading's id unique among every id of the page (`逐项拆解_1`), so
  a section is converted with the ids the page holds elsewhere (as hidden elements the toc sees,
  removed right after it) and kept with the ones that could change its ids (`seed`): the entry is
  used only while the page holds the same of them;
- the table of contents: each section's entries, nested again over the whole page;
- the title (the first section's) and the anchors and links (every section's);
- what cannot be split (`crossing`): footnotes (numbered over the page, listed at its end),
  abbreviations and reference-style link definitions (they apply to the whole page), `[TOC]`
  markers, tabbed blocks (numbered over the page): a page using one is converted whole, and
  notebook pages (their Jupyter anchors avoid every id of the page).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Iterable
from dataclasses import dataclass, field

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import BLOCK_LEVEL_ELEMENTS

from llmbook.core.stash import Stash

__all__ = [
    "PartRender",
    "SeedIds",
    "TakeIds",
    "crossing",
    "local",
    "relevant",
    "sections",
]

PLACEHOLDER = re.compile("\x02wzxhzdk:(\\d+)\x03")
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})")
_SLASHES = re.compile(r"^[ \t]*(/{3,})[ \t]*(\S?)")
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^>]*?(/?)>")
_IDCOUNT = re.compile(r"^(.*)_([0-9]+)$")  # as the toc's
# What makes a page one section (see the module's docstring), found in the Markdown handed to
# Python-Markdown; found where it is not meant so (in code) only costs the split.
_CROSSING = {
    "footnotes": re.compile(r"\[\^"),
    "abbreviations": re.compile(r"^[ \t>*+\-\d.]*\*\[", re.M),
    "reference-style link definitions": re.compile(r"^[ \t>*+\-\d.]*\[[^\[\]\n]*\]:", re.M),
    "[TOC] markers": re.compile(r"^[ \t]*\[TOC\][ \t]*$", re.M),  # a paragraph of its own
    "tabbed blocks": re.compile(r"^[ \t>]*===", re.M),
}
_BLOCK = frozenset(BLOCK_LEVEL_ELEMENTS) - {"hr"}
LEAST = 24  # lines a section holds before a paragraph may start the next one


def crossing(text: str) -> list[str]:
    """The features of the page that cross sections (none: it may be split)."""
    return [name for name, pattern in _CROSSING.items() if pattern.search(text)]


@dataclass
class _Scan:
    """Where the lines read so far leave the page: inside a fence, HTML, a comment, a block."""

    fence: tuple[str, int] | None = None
    html: int = 0  # open block-level elements of raw HTML
    comment: bool = False
    blocks: list[int] = field(default_factory=list)  # open `///` blocks, by their slashes

    def outside(self) -> bool:
        return self.fence is None and not self.html and not self.comment and not self.blocks

    def read(self, line: str) -> None:
        if self.fence is not None:
            mark = _FENCE.match(line)
            char, length = self.fence
            if mark and mark.group(1)[0] == char and len(mark.group(1)) >= length:
                if not line[mark.end() :].strip():
                    self.fence = None
            return
        if self.comment:
            self.comment = "-->" not in line
            return
        fence = _FENCE.match(line)
        if fence:
            self.fence = (fence.group(1)[0], len(fence.group(1)))
            return
        slashes = _SLASHES.match(line)
        if slashes:
            if slashes.group(2):
                self.blocks.append(len(slashes.group(1)))
            elif self.blocks and self.blocks[-1] == len(slashes.group(1)):
                self.blocks.pop()
            else:
                self.html = 1 << 20  # a closing `///` we cannot place: no split after it
            return
        if self.html or line.lstrip(" ")[:1] == "<" and len(line) - len(line.lstrip(" ")) < 4:
            self._tags(line)

    def _tags(self, line: str) -> None:
        start = line.lstrip()
        if start.startswith("<!--") and "-->" not in start:
            self.comment = True
            return
        for closing, name, empty in _TAG.findall(line):
            if name.lower() not in _BLOCK or empty:
                continue
            self.html += -1 if closing else 1
            if self.html < 0:
                self.html = 1 << 20  # more closed than opened: no split after it


def sections(lines: list[str], least: int = LEAST) -> list[range]:
    """Each section's lines: one starts at a block after empty lines that follow an unindented
    line (the last block before it is no indented code, which would take those empty lines
    in), outside fences, HTML, comments and blocks, and ends before them. A block starts one
    when it is a `#` heading, or, once the section has `least` lines, a paragraph starting
    with a letter or a piece of the pipeline (no list, quote, table, definition or caption,
    which would join the block before)."""
    starts = [0]
    scan = _Scan()
    last = -1  # the last line that is not empty
    for number, line in enumerate(lines):
        opens = line.startswith("#") or (
            number - starts[-1] >= least and (line[:1].isalpha() or line[:1] == "\x02")
        )
        if (
            opens
            and 0 <= last < number - 1
            and lines[last][:1] not in (" ", "\t")
            and scan.outside()
        ):
            starts.append(number)
        scan.read(line)
        if line:
            last = number
    ends = [_before_empty(lines, start, end) for start, end in zip(starts, starts[1:])]
    return [range(s, e) for s, e in zip(starts, [*ends, len(lines)], strict=True)]


def _before_empty(lines: list[str], start: int, end: int) -> int:
    while end > start and not lines[end - 1]:
        end -= 1
    return end


def local(text: str, pieces: list[str]) -> tuple[str, list[str]]:
    """The section's text and the pieces it shows (also through other pieces), its placeholders
    numbered from 0 in the order of the page."""
    wanted: set[int] = set()
    todo = [int(n) for n in PLACEHOLDER.findall(text)]
    while todo:
        number = todo.pop()
        if number in wanted or number >= len(pieces):
            continue
        wanted.add(number)
        todo += [int(n) for n in PLACEHOLDER.findall(pieces[number])]
    order = {number: index for index, number in enumerate(sorted(wanted))}
    moved = _renumber(order)
    return moved(text), [moved(pieces[number]) for number in sorted(wanted)]


def _renumber(order: dict[int, int], base: int = 0):  # noqa: ANN202
    def placeholder(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return f"\x02wzxhzdk:{order.get(number, number - base) + base}\x03"

    return lambda text: PLACEHOLDER.sub(placeholder, text)


@dataclass
class PartRender:
    """One section converted on its own: what the page preprocessor hands Python-Markdown in
    place of the page, the ids the page holds elsewhere, and what the conversion held before and
    after the toc (`pre`, `ids`)."""

    text: str  # with its placeholders numbered from 0 (`local`)
    pieces: list[str]
    seed: frozenset[str] = frozenset()
    pre: set[str] = field(default_factory=set)
    ids: set[str] = field(default_factory=set)
    hidden: list[etree.Element] = field(default_factory=list)

    def lines(self, stash: Stash) -> list[str]:
        """The section's lines, its pieces put into `stash` after what it holds already."""
        base = len(stash)
        moved = _renumber({n: n + base for n in range(len(self.pieces))})
        for piece in self.pieces:
            stash.put(moved(piece))
        return moved(self.text).split("\n")


def _ids(root: etree.Element) -> set[str]:
    return {element.get("id") for element in root.iter() if element.get("id")}


class SeedIds(Treeprocessor):
    """Before the toc: the ids the page holds outside the section being converted, as hidden
    elements the toc counts as taken (nothing when no section is being converted)."""

    def __init__(self, md: Markdown, part: object) -> None:
        super().__init__(md)
        self.part = part  # the extension: its `part`, set while a section converts

    def run(self, root: etree.Element) -> None:
        part: PartRender | None = getattr(self.part, "part", None)
        if part is None:
            return
        part.pre = _ids(root)
        part.hidden = [etree.SubElement(root, "span", {"id": i}) for i in sorted(part.seed)]


class TakeIds(Treeprocessor):
    """Right after the toc: the hidden elements removed, the section's ids noted."""

    def __init__(self, md: Markdown, part: object) -> None:
        super().__init__(md)
        self.part = part

    def run(self, root: etree.Element) -> None:
        part: PartRender | None = getattr(self.part, "part", None)
        if part is None:
            return
        for element in part.hidden:
            root.remove(element)
        part.hidden = []
        part.ids = _ids(root)


def _stem(anchor: str) -> str:
    match = _IDCOUNT.match(anchor)
    return match.group(1) if match else anchor


def relevant(seed: Iterable[str], ids: Iterable[str]) -> list[str]:
    """The ids of `seed` that could change a section's heading ids, which are `ids`: the toc
    tries `x`, `x_1`, `x_2`… for a heading, all of one stem, the last of them among `ids`."""
    stems = {_stem(anchor) for anchor in ids}
    return sorted(anchor for anchor in seed if _stem(anchor) in stems)

"""A page's Markdown as the cells of a Jupyter notebook: prose in a form Jupyter shows, and a
placeholder where each block that ran stands (the notebook's writer fills in its code and outputs).

It walks the page's directive tree as the check stage left it (every directive validated, what it
parsed on its node) and the fences the load stage lexed: a block that ran becomes a `CodeCell`
(also a hidden one, and one inside a directive, which is then cut around it), another fence stays
a fence of the prose, each directive becomes its `notebook_form` (directives/notebook.py), and each
line what `ShownLines` makes of it. Material's admonitions (`!!! note "…"`) become blockquotes and
pymdownx captions italic lines with their numbers. Front matter is no part of the page's model.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from llmbook.book.apparatus import Apparatus
from llmbook.book.parts import PageParts
from llmbook.book.term_render import site_urls
from llmbook.core.book_syntax import CAPTION
from llmbook.core.i18n import Locale
from llmbook.core.lexer import lex
from llmbook.core.site_index import SiteIndex
from llmbook.directives.nodes import Block, Text
from llmbook.directives.notebook import CodeCell, Lines, titled
from llmbook.directives.options import split_options
from llmbook.directives.parser import OPENER
from llmbook.directives.registry import Registry
from llmbook.execute.stages.collect import CodeBlock
from llmbook.execute.stages.plan import Plan
from llmbook.execute.stages.tags import TAGS
from llmbook.site.notebook_lines import Links, ShownLines
from llmbook.site.site import Site

__all__ = ["CodeCell", "ProseCell", "ProseContext", "page_cells", "prose_context"]

_ADMONITION = re.compile(
    r'^(?P<indent> *)(?:!!!|\?\?\?\+?)\s*(?P<kind>[\w-]+)(?:\s+"(?P<title>[^"]*)")?\s*$'
)
_CAPTION_END = re.compile(r"^\s*///\s*$")
_CAPTION_ATTRS = re.compile(r"^\s{4}attrs:")
_TOP_HEADING = re.compile(r"^#{1,2}\s")
_EMPTY = re.compile(r"^[>\s]*$")


@dataclass(frozen=True)
class ProseCell:
    markdown: str  # one Markdown cell, Jupyter-flavoured


class _Cut:
    """Where a new Markdown cell starts (before a section's heading)."""


@dataclass
class ProseContext:
    """What one page's notebook prose is made from: its plan (model, blocks, tree, formulas),
    the book's apparatus, the build's registry and words, and where the notebook lies."""

    src: str
    plan: Plan
    book: Apparatus
    directives: Registry
    locale: Locale
    links: Links
    index: SiteIndex | None = None
    parts: PageParts | None = None
    shown: ShownLines = field(init=False)

    def __post_init__(self) -> None:
        self.shown = ShownLines(self.plan, self.book, self.links, self.locale, self.parts)


def prose_context(site: Site, src: str) -> ProseContext:
    """The page `src` (`docs/chapters/x.md`, a key of the build's plans) of `site`, whose
    notebook lies beside its page (`chapters/x.ipynb`)."""
    plan = site.report.plans[src]
    uri = site.project.uri(src)
    pages = site.index.pages if site.index is not None else []
    url_of = site_urls(pages, site.project.docs_dir)
    notebook = posixpath.splitext(uri)[0] + ".ipynb"
    return ProseContext(
        src,
        plan,
        site.book,
        site.executor.directives,
        site.locale,
        Links(uri, notebook, url_of),
        site.index,
        site.book.parts.page(src),
    )


def page_cells(context: ProseContext) -> list[ProseCell | CodeCell]:
    """The whole page in order: a `CodeCell` for every block that ran, at its place (hidden ones
    and those inside a directive too), `ProseCell`s for everything else."""
    doc = context.plan.doc
    assert doc is not None, f"{context.src}: a page whose tree the check stage read"
    view = _View(context)
    cells: list[ProseCell | CodeCell] = []
    run: list[str] = []
    for item in [*view.children(doc, top=True), _Cut()]:
        if isinstance(item, str):
            run.append(item)
            continue
        markdown = _cell_text(run)
        if markdown:
            cells.append(ProseCell(markdown))
        run = []
        if isinstance(item, CodeCell):
            cells.append(item)
    return cells


def _cell_text(lines: list[str]) -> str:
    """The cell's Markdown: no empty lines (or empty quote lines) at its ends, and outside code
    none that follows another (the forms pad their blocks with them)."""
    while lines and _EMPTY.match(lines[0]):
        lines = lines[1:]
    while lines and _EMPTY.match(lines[-1]):
        lines = lines[:-1]
    code = lex("\n".join(lines)).code_lines(quotes=True)
    kept: list[str] = []
    for i, line in enumerate(lines):
        empty = i not in code and _EMPTY.match(line)
        after = lines[i + 1] if i + 1 < len(lines) else ""
        if empty and ((kept and _EMPTY.match(kept[-1])) or (line.strip() and not after.strip())):
            continue
        kept.append(line)
    return "\n".join(kept)


class _View:
    """The page as its directives' notebook forms see it (`directives.notebook.NotebookPage`)."""

    def __init__(self, context: ProseContext) -> None:
        self.context = context
        self.locale = context.locale
        page = context.plan.page
        first = page.first
        self.fences = {
            first + f.start: first + min(f.end, len(page.lines) - 1) for f in page.lexed.fences
        }
        self.blocks: dict[int, CodeBlock] = {b.line: b for b in page.blocks}

    def ui(self, key: str, **fields: object) -> str:
        return self.locale.ui(key, **fields)

    def line(self, number: int) -> str:
        return self.context.shown.line(number)

    def title(self, node: Block) -> str:
        opener = OPENER.match(self.line(node.line))
        title = (opener.group("arg") or "") if opener is not None else node.arg
        directive = self.context.directives.get(node.name)
        if directive is not None and directive.OPTIONS:
            title = split_options(title)[0]
        parts = self.context.parts
        kind = directive.NUMBERED if directive is not None else ""
        numbered = [p for p in parts.parts.values() if p.line == node.line] if parts else []
        if kind and numbered:
            title = f"{self.locale.part_text(kind, numbered[0].number)} {title}"
        return title

    def page_link(self) -> str:
        return self.context.links.page()

    def topic_link(self, name: str) -> str | None:
        index = self.context.index
        target = index.lookup(name) if index is not None else None
        return self.context.links.to(target.url) if target is not None else None

    def children(self, node: Block, *, top: bool = False) -> Lines:
        out: Lines = []
        for child in node.children:
            if isinstance(child, Text):
                numbers = child.numbers or [child.line + i for i in range(len(child.lines))]
                out += self._text(numbers, top=top)
                continue
            directive = self.context.directives.get(child.name)
            assert directive is not None, f"{child.name}: checked against this registry"
            out += directive.notebook_form(child, self)
        return out

    def _text(self, numbers: list[int], *, top: bool = False, dedent: int = 0) -> Lines:
        """Lines of prose (file lines `numbers`, their first `dedent` columns left out): fences,
        admonitions and captions as the notebook shows them; `top`: a cell starts at each of the
        page's sections."""
        out: Lines = []
        at = 0
        while at < len(numbers):
            number = numbers[at]
            raw = self.context.plan.page.lexed.line(number)
            if number in self.fences:
                end = self.fences[number]
                out += self._fence(number, end, dedent)
                at = numbers.index(end) + 1 if end in numbers else len(numbers)
            elif _ADMONITION.match(raw[dedent:]):
                taken, lines = self._admonition(numbers[at:], dedent)
                out += lines
                at += taken
            elif CAPTION.match(raw[dedent:]):
                taken, lines = self._caption(numbers[at:], dedent)
                out += lines
                at += taken
            else:
                shown = _dedented(self.line(number), dedent)
                if top and _TOP_HEADING.match(shown):
                    out.append(_Cut())  # type: ignore[arg-type]
                out.append(shown)
                at += 1
        return out

    def _fence(self, start: int, end: int, dedent: int) -> Lines:
        """A block that ran: its code cell; an expected output: nothing (the cell before shows
        what it printed); any other fence: itself, its tags left out."""
        block = self.blocks.get(start)
        if block is not None and block.runs:
            return ["", CodeCell(start), ""]
        if block is not None and block.mode == "expected":
            return []
        lexed = self.context.plan.page.lexed
        lines = [_dedented(lexed.line(n), dedent) for n in range(start, end + 1)]
        if block is not None:
            opening = lines[0]
            stripped = opening.lstrip()
            fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
            words = [w for w in block.info.split() if w not in TAGS]
            lines[0] = opening[: len(opening) - len(stripped)] + fence + " ".join(words)
        return lines

    def _admonition(self, numbers: list[int], dedent: int) -> tuple[int, Lines]:
        """Material's `!!! note "Title"` and its indented body: a blockquote under its title."""
        head = _ADMONITION.match(_dedented(self.line(numbers[0]), dedent))
        assert head is not None
        inner = dedent + len(head.group("indent")) + 4
        body = 1
        lexed = self.context.plan.page.lexed
        while body < len(numbers):
            text = lexed.line(numbers[body])
            if text.strip() and len(text) - len(text.lstrip(" ")) < inner:
                break
            body += 1
        while body > 1 and not lexed.line(numbers[body - 1]).strip():
            body -= 1
        title = head.group("title")
        title = title if title is not None else head.group("kind").capitalize()
        return body, titled(title, self._text(numbers[1:body], dedent=inner))

    def _caption(self, numbers: list[int], dedent: int) -> tuple[int, Lines]:
        """A pymdownx caption (`/// table-caption | #id` … `///`): its text in italics, after
        its number where the book numbers it."""
        parts = self.context.parts
        found = [p for p in parts.parts.values() if p.line == numbers[0]] if parts else []
        end = next((i for i, n in enumerate(numbers) if i and _CAPTION_END.match(
            self.context.plan.page.lexed.line(n))), len(numbers) - 1)  # fmt: skip
        lexed = self.context.plan.page.lexed
        text = [
            self.line(n).strip()
            for n in numbers[1:end]
            if lexed.line(n).strip() and not _CAPTION_ATTRS.match(lexed.line(n))
        ]
        if found:
            text.insert(0, self.locale.part_text(found[0].kind, found[0].number))
        return end + 1, ["", f"*{' '.join(text)}*", ""] if text else []


def _dedented(line: str, columns: int) -> str:
    """The line without its first `columns` columns of indentation."""
    return line[min(columns, len(line) - len(line.lstrip(" "))) :]

"""What a translation must carry over from its source, read from a page's collected model: its
sections (heading level, section number, explicit id), and in each section the code that runs,
the bound numbers, the labelled parts, the directives and what each directive says a translation
keeps of it (`Directive.marks`: a quiz's answers, an exercise's label), the citations and the
glossary terms; the prose only as a digest (a translation rewrites it)."""

from __future__ import annotations

import functools
import io
import re
import tokenize
from dataclasses import dataclass, field

from llmbook.book.parts import ATTRS, HEADING, SECTION_NUMBER
from llmbook.core.book_syntax import CAPTION, CAPTION_ID, EQUATION_LABEL
from llmbook.core.cite_syntax import find_citations
from llmbook.core.i18n import Locale
from llmbook.core.lexer import Cells, cell_line
from llmbook.core.store import bytes_digest
from llmbook.core.term_syntax import find_terms
from llmbook.directives.parser import CLOSER, OPENER
from llmbook.directives.registry import Registry
from llmbook.directives.shipped import shipped
from llmbook.execute.stages.collect import CodeBlock, PageSource

__all__ = ["KINDS", "Fingerprint", "Mark", "Section", "code_digest", "fingerprint", "heading_id"]

_HEADING_ID = re.compile(r"\{[^}]*#(?P<id>[A-Za-z][\w:-]*)[^}]*\}\s*$")
_BINDING = re.compile(r"\[\[.*?\]\]")

_OWN = {
    "code": "python block",
    "output": "expected output",
    "number": "bound number",
    "label": "labelled figure, table or equation",
    "directive": "directive",
    "citation": "citation",
    "term": "glossary term",
}
# The directives' own kinds (`Directive.MARKS`: "answer", a quiz answer).
_THEIRS = {kind: name for d in shipped() for kind, name in d.MARKS.items()}
# The kinds of marks, as the messages name them.
KINDS = {**_OWN, **_THEIRS}
# The groups a record keeps a digest of, per section (record.py): what changed, by name.
GROUPS = {
    "code": ("code", "output"),
    "numbers": ("number",),
    "parts": ("label", "directive", *_THEIRS, "citation", "term"),
}


@dataclass(frozen=True)
class Mark:
    """One thing of a section its translation carries over unchanged."""

    kind: str  # a key of KINDS
    value: str  # what must be equal (a code digest, a bound number's expression, a label, a key)
    line: int  # its file line
    shown: str = ""  # how a message shows it (the code's first line, the binding as written)


@dataclass
class Section:
    """A heading and what follows it up to the next heading (the page's start: level 0)."""

    level: int
    number: str  # "10.1", or "" when the heading has none
    id: str  # its explicit `{#id}`, or ""
    heading: str  # the heading line as written, `## 10.1 KV Cache {#kv-cache}`
    line: int
    marks: list[Mark] = field(default_factory=list)
    prose: list[str] = field(default_factory=list)  # its prose lines, bindings blanked

    @property
    def title(self) -> str:
        return self.heading or "(the page's start)"

    @property
    def key(self) -> tuple[int, str, str]:
        """What must match in the translation: level, number, explicit id."""
        return (self.level, self.number, self.id)

    def of(self, *kinds: str) -> list[Mark]:
        return [m for m in self.marks if m.kind in kinds]

    def digest(self, group: str) -> str:
        if group == "prose":
            return _digest("\n".join(self.prose))
        # A bound number by its expression alone: the value it writes is checked against the
        # computed one (a drift is that error, in the source), never against the source's.
        return _digest("\n".join(f"{m.kind} {m.value}" for m in self.of(*GROUPS[group])))


@dataclass
class Fingerprint:
    src: str
    sections: list[Section]
    cells: Cells | None = None  # a notebook's line map (its page model's)

    def location(self, line: int) -> str:
        """`docs/x.md:12`, `docs/x.ipynb:cell 4, line 2`: where the page's file line is."""
        return f"{self.src}:{line if self.cells is None else cell_line(self.cells, line)}"

    @property
    def digest(self) -> str:
        parts = [
            f"{s.heading}|" + "|".join(s.digest(g) for g in (*GROUPS, "prose"))
            for s in self.sections
        ]
        return _digest("\n".join(parts), 12)


def fingerprint(
    page: PageSource, locale: Locale, directives: Registry | None = None
) -> Fingerprint:
    """The page's sections and their marks, from its collected model (nothing re-parsed);
    `locale` reads its directives' lines (a quiz's answer, in any of the book's languages);
    `directives`: the build's (default: llmbook's own), asked what a translation keeps."""
    directives = directives if directives is not None else shipped()
    lexed = page.lexed
    code = {lexed.first + i for i in lexed.code_lines()}
    start = Section(0, "", "", "", lexed.first)
    sections = [start]
    blocks = {b.line: b for b in page.blocks}
    bound = {}
    for b in page.bindings:
        bound.setdefault(b.line, []).append(b)
    stack: list[str] = []  # the open directives' names
    for number in lexed.numbers:
        text = lexed.line(number)
        if number in blocks:
            _block_mark(sections[-1], blocks[number])
        if number in code:
            continue
        heading = HEADING.match(text)
        heading = heading if heading and not stack else None
        if heading:
            sections.append(_section(heading, text, number))
        where = (stack, directives, locale)
        _line_marks(sections[-1], text, number, bound.get(number, []), where, prose=not heading)
    if not start.marks and not any(line.strip() for line in start.prose):
        sections.remove(start)
    return Fingerprint(page.src, sections, lexed.cells)


def _section(heading: re.Match[str], text: str, line: int) -> Section:
    title = heading.group("title")
    bare = ATTRS.sub("", title)
    number = SECTION_NUMBER.match(bare)
    return Section(
        len(heading.group("marks")),
        number.group("number") if number else "",
        heading_id(title),
        text.strip(),
        line,
    )


def _block_mark(section: Section, block: CodeBlock) -> None:
    first = next((line.strip() for line in block.code.splitlines() if line.strip()), "")
    if block.runs:
        value = f"{block.mode} {block.display} {code_digest(block.code)}"
        section.marks.append(Mark("code", value, block.line, first))
    elif block.mode == "expected":
        section.marks.append(Mark("output", _digest(block.code), block.line, first))


def _line_marks(
    section: Section,
    text: str,
    line: int,
    bindings: list,
    where: tuple[list[str], Registry, Locale],
    *,
    prose: bool,
) -> None:
    """The marks of one line (a heading's too), and a prose line into the section's prose;
    `where`: the open directives' names, the build's directives, the page's locale."""
    stack, directives, locale = where
    opening, caption, equation = (
        OPENER.match(text),
        CAPTION.match(text),
        EQUATION_LABEL.match(text),
    )
    if opening:
        stack.append(opening.group("name"))
        section.marks.append(Mark("directive", opening.group("name"), line, text.strip()))
    elif CLOSER.match(text) and stack:
        stack.pop()
    directive = directives.get(stack[-1]) if stack and not CLOSER.match(text) else None
    if directive is not None:
        for kind, value in directive.marks(text, opener=bool(opening), locale=locale):
            section.marks.append(Mark(kind, value, line, text.strip()))
    if caption:
        label = CAPTION_ID.search(caption.group("arg") or "")
        kind = caption.group("kind")
        shown = (
            f"{kind} #{label.group('id') or label.group('opt')}"
            if label
            else f"{kind} (unlabelled)"
        )
        section.marks.append(Mark("label", shown, line, text.strip()))
    if equation:
        section.marks.append(Mark("label", f"equation #{equation.group('id')}", line, text.strip()))
    for b in bindings:
        value = b.expr if b.expr is not None else b.body
        section.marks.append(Mark("number", value.strip(), line, f"[[{b.body}]]"))
    for citation in find_citations(text, line):
        for cite in citation.cites:
            section.marks.append(Mark("citation", cite.key, line, f"[@{cite.key}]"))
    for term in find_terms(text, line):
        section.marks.append(Mark("term", term.name, line, f"{{term}}`{term.name}`"))
    if prose:
        section.prose.append(_BINDING.sub("[[]]", text).strip())


def heading_id(heading: str) -> str:
    """A heading's explicit `{#id}` (empty when it has none)."""
    found = _HEADING_ID.search(heading)
    return found.group("id") if found else ""


@functools.lru_cache(maxsize=4096)  # a pure function of the code: tokenized once per process
def code_digest(code: str) -> str:
    """The code without its comments and trailing spaces: a translation may translate comments."""
    try:
        tokens = [
            (t.type, t.string)
            for t in tokenize.generate_tokens(io.StringIO(code).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL)
        ]
        text = repr(tokens)
    except (tokenize.TokenError, SyntaxError, IndentationError):
        text = "\n".join(line.rstrip() for line in code.splitlines())
    return _digest(text)


def _digest(text: str, size: int = 8) -> str:
    return bytes_digest(text.encode())[:size]

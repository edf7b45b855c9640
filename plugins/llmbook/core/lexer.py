"""The one lexer of a page's Markdown: where fenced code is, and where inline code is on a line.

Every stage asks it (the executor's collect stage, the directive parser, the math stage, the
bindings), so a fence or a code span means the same thing everywhere:

- a fence opens with 3+ backticks or tildes after optional indentation (and, where the stage allows
  it, blockquote markers); a backtick fence's info string has no backtick (CommonMark);
- it closes at the first line of the same character, at least as long, with nothing after it;
  an unclosed fence runs to the end of the page;
- an inline code span is a run of backticks closed by an equally long run.

`lex(text, first)` makes a page's model, `Lexed`, once per build: the load stage lexes the page and
every later stage (collect, coverage, the directive parser, the math stage, the renderer) is handed
that object, never the raw text. `first` is the line of the author's file the text starts on (after
the front matter the engine removed): what a stage hands on is named by file line, and `Lexed` alone
turns a file line into a position in its text, and names it as the author knows it (a notebook's
`cell 4, line 2`: its line map is part of the model).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "TAB_LENGTH",
    "Cells",
    "Fence",
    "Lexed",
    "cell_line",
    "code_spans",
    "engine_text",
    "fences",
    "lex",
    "mask_code",
    "opening",
]

# Python-Markdown's default `tab_length`, which MkDocs and Zensical keep.
TAB_LENGTH = 4
_BLANKED = re.compile(r"(?<=\n) +\n")

_OPEN = re.compile(
    r"^(?P<prefix>[ \t]*(?:>[ \t]?)*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>.*?)[ \t]*$"
)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)")
# A notebook laid out as one page: per line of its Markdown, (cell number, line in the cell; 0 for
# a code cell's fence lines).
Cells = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Fence:
    start: int  # 0-based index of the opening line
    end: int  # index of the closing line; len(lines) when the fence is never closed
    prefix: str  # what stands before the fence: indentation (and `>` markers where allowed)
    fence: str  # "```", "~~~~", …
    info: str  # the info string, stripped

    def contains(self, index: int) -> bool:
        return self.start <= index <= self.end


def opening(line: str, *, quotes: bool = False) -> re.Match[str] | None:
    """The fence this line opens, if any."""
    match = _OPEN.match(line)
    if match is None or (not quotes and ">" in match.group("prefix")):
        return None
    if match.group("fence")[0] == "`" and "`" in match.group("info"):
        return None
    return match


def _closes(line: str, fence: str, quotes: bool) -> bool:
    stripped = line.strip()
    if quotes:
        stripped = stripped.lstrip("> \t")
    return len(stripped) >= len(fence) and stripped == fence[0] * len(stripped)


def fences(lines: list[str], *, quotes: bool = False) -> list[Fence]:
    """Every fenced code block of the page, in order."""
    found: list[Fence] = []
    index = 0
    while index < len(lines):
        match = opening(lines[index], quotes=quotes)
        if match is None:
            index += 1
            continue
        fence = match.group("fence")
        end = index + 1
        while end < len(lines) and not _closes(lines[end], fence, quotes):
            end += 1
        found.append(Fence(index, end, match.group("prefix"), fence, match.group("info")))
        index = end + 1
    return found


def code_spans(line: str) -> list[tuple[int, int]]:
    """(start, end) of every inline code span of a line."""
    return [m.span() for m in _CODE_SPAN.finditer(line)]


def mask_code(line: str) -> str:
    """The line with its inline code blanked out (same length, so offsets still hold)."""
    return _CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)


@dataclass(frozen=True)
class Lexed:
    """A page's text, lexed once. Fences are positions in `lines`; `first` is the file line of
    `lines[0]`; `cells`, a notebook's line map (how its errors name a line)."""

    lines: tuple[str, ...]
    fences: tuple[Fence, ...]  # outside blockquotes: code that runs, opaque to directives
    quoted_fences: tuple[Fence, ...]  # blockquotes too: opaque to the math stage
    first: int = 1
    cells: Cells | None = None  # a notebook's: the cell and its line of each line

    def place(self, line: int) -> str:
        """File line `line` as an error names it after the page's path: `12`, or a notebook's
        `cell 4, line 2`."""
        return str(line) if self.cells is None else cell_line(self.cells, line)

    def describe(self, line: int) -> str:
        """File line `line` named inside a message: `line 12`, or `cell 4, line 2`."""
        return f"line {line}" if self.cells is None else cell_line(self.cells, line)

    @property
    def text(self) -> str:
        """The page's text, as lexed."""
        return "\n".join(self.lines)

    @property
    def numbers(self) -> range:
        """The file lines of the text."""
        return range(self.first, self.first + len(self.lines))

    def line(self, line: int) -> str:
        """The text of file line `line`."""
        return self.lines[line - self.first]

    def code_lines(self, *, quotes: bool = False) -> frozenset[int]:
        """0-based indexes of every line inside (and of) a fence."""
        found = self.quoted_fences if quotes else self.fences
        last = len(self.lines) - 1
        return frozenset(i for f in found for i in range(f.start, min(f.end, last) + 1))

    def fence_end(self, line: int) -> int:
        """The file line that ends the fence holding file line `line` (itself outside fences)."""
        index = line - self.first
        for fence in self.fences:
            if fence.contains(index):
                return self.first + min(fence.end, len(self.lines) - 1)
        return line


def engine_text(text: str) -> str:
    """`text` as Python-Markdown hands it to extensions (its `NormalizeWhitespace`): no STX/ETX,
    `\n` line ends, tabs expanded to TAB_LENGTH columns, and whitespace-only lines emptied (all
    but the first). The load stage applies it once, so the code that runs and the model every
    stage reads are the text the engine renders; the line count is unchanged."""
    text = text.replace("\x02", "").replace("\x03", "")
    text = text.replace("\r\n", "\n").replace("\r", "\n").expandtabs(TAB_LENGTH)
    return _BLANKED.sub("\n", text + "\n\n")[:-2]


def cell_line(cells: Sequence[tuple[int, int]], line: int) -> str:
    """`cell N, line M` (or `cell N` for a fence line) of a notebook's 1-based Markdown line."""
    if not 1 <= line <= len(cells):
        return f"line {line}"
    cell, inner = cells[line - 1]
    return f"cell {cell}" + (f", line {inner}" if inner else "")


def lex(text: str, first: int = 1, cells: Cells | None = None) -> Lexed:
    """The model of `text`, which starts on file line `first`: its lines and fences; `cells`:
    a notebook's line map."""
    lines = text.split("\n")
    quoted = tuple(fences(lines, quotes=True))
    return Lexed(tuple(lines), tuple(fences(lines)), quoted, first, cells)

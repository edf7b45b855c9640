"""The `:::` block parser: source lines in, a tree of plain `Text`/`Block` nodes out.

A line `:::name rest` opens a block, a bare `:::` closes the innermost open one. Fenced code (``` or
~~~, any length) and `$$ … $$` display math (as the math stage reads it) are opaque: nothing inside
them is a directive.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable

from llmbook.core.errors import AuthorError, quoted
from llmbook.core.formulas import display_lines
from llmbook.core.lexer import Fence, Lexed
from llmbook.directives.nodes import Block, Document, Text

__all__ = ["CLOSER", "OPENER", "parse_tree"]

OPENER = re.compile(r"^(?P<indent>\s*):::\s*(?P<name>[A-Za-z][\w-]*)(?:\s+(?P<arg>.*?))?\s*$")
CLOSER = re.compile(r"^\s*:::\s*$")
# mkdocstrings' and mkautodoc's API references, `::: package.module.Name`: a space after `:::`,
# then a (dotted) Python name alone on its line.
_AUTODOC = re.compile(r"^\s*:::[ \t]+(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)[ \t]*$")


def parse_tree(
    lexed: Lexed,
    *,
    src: str,
    known: Callable[[str], bool],
    names: list[str],
    plain: frozenset[int] = frozenset(),
) -> Document:
    """Split the page's model into a tree whose nodes carry their file lines; raise AuthorError
    for broken structure or an unknown name.

    Lines in `plain` (file lines) are text whatever they hold: the live preview shows a line it
    could not parse as it stands, with its error beside it."""
    doc = Document()
    stack: list[Block] = [doc]
    lines, first = lexed.lines, lexed.first
    in_fence: dict[int, Fence] = {}
    for fence in lexed.fences:
        for index in range(fence.start, min(fence.end, len(lines) - 1) + 1):
            in_fence[first + index] = fence
    in_math = display_lines(lexed, plain=plain)  # the math stage's own rule
    shown_open: list[int] = []  # the stack depth under each opener in `plain`
    for number, line in enumerate(lines, start=first):
        if number in in_fence:
            pass  # code is text whatever it holds
        elif number in plain:  # an opener shown as text: its `:::` closer is text too
            if OPENER.match(line):
                shown_open.append(len(stack))
        elif shown_open and shown_open[-1] == len(stack) and CLOSER.match(line):
            shown_open.pop()
        elif (
            number not in in_math
            and line.lstrip().startswith(":::")
            and not _autodoc(line, known, names)
        ):
            _directive_line(line, number, stack, src=src, known=known, names=names)
            continue
        _append_text(stack[-1], line, number)
    _check_closed(stack, [f for f in in_fence.values() if f.end >= len(lines)], src, first)
    return doc


def _check_closed(stack: list[Block], unclosed: list[Fence], src: str, first: int) -> None:
    """Every block the page opened is closed; a fence left open is named first, as its cause."""
    if len(stack) > 1 and unclosed:
        raise AuthorError(
            src,
            first + unclosed[0].start,
            f"code fence {quoted(unclosed[0].fence)} opened here is never closed, so "
            f":::{stack[-1].name} cannot close",
            f"close the code block with a line {quoted(unclosed[0].fence)} before the block's :::",
        )
    if len(stack) > 1:
        block = stack[-1]
        raise AuthorError(
            src,
            block.line,
            f":::{block.name} block opened here is never closed",
            "add a line with a bare ::: where the block ends",
        )


def _directive_line(
    line: str,
    number: int,
    stack: list[Block],
    *,
    src: str,
    known: Callable[[str], bool],
    names: list[str],
) -> None:
    if CLOSER.match(line):
        if len(stack) == 1:
            raise AuthorError(
                src,
                number,
                "stray ::: closes no open block",
                "remove it, or open a block above it with :::name",
            )
        stack.pop().end_line = number
        return
    match = OPENER.match(line)
    if match is None:
        raise AuthorError(
            src,
            number,
            f"malformed directive line {quoted(repr(line.strip()))}",
            "a directive line is :::name followed by its title, or a bare ::: to close a block",
        )
    name = match.group("name")
    if not known(name):
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean :::{close[0]}? Else " if close else ""
        raise AuthorError(
            src,
            number,
            f"unknown directive :::{quoted(name)}",
            f"{hint}use one of: {', '.join(names)}",
        )
    block = Block(name, match.group("arg") or "", number, match.group("indent"), line)
    stack[-1].children.append(block)
    stack.append(block)


def _autodoc(line: str, known: Callable[[str], bool], names: list[str]) -> bool:
    """Whether the line is another tool's `::: python.name` (left as text): a dotted name, or a
    single one that is not ours and not a near miss of ours (a typo stays an error)."""
    match = _AUTODOC.match(line)
    if match is None:
        return False
    name = match.group("name")
    if "." in name:
        return True
    return not known(name) and not difflib.get_close_matches(name, names, n=1)


def _append_text(parent: Block, line: str, number: int) -> None:
    last = parent.children[-1] if parent.children else None
    if isinstance(last, Text):
        last.lines.append(line)
    else:
        parent.children.append(Text([line], number))

"""`$…$` and `$$…$$` → MathML at build time, so a page needs no script and no network for its math.

Runs on the page's Markdown before Python-Markdown sees it: each formula becomes a stash token, the
MathML itself goes into the page's stash. Code (fenced blocks, inline code spans) is left alone. The
line count never changes: a display formula of n lines becomes its token padded with empty lines, so
later stages still report true line numbers.

Inside a formula, a bound number `[[expr = 2.1]]` shows its written value (the executor checks it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llmbook.bindings import BINDING_RE, parse_body
from llmbook.errors import Where
from llmbook.latex import FormulaError, latex_to_mathml
from llmbook.lexer import Lexed, code_spans, lex
from llmbook.stash import Stash

__all__ = ["display_lines", "math_spans", "render_math"]

# A line's container prefix (indentation, blockquote markers) and a display formula after it.
_DISPLAY_OPEN = re.compile(r"^(?P<prefix>[ \t]*(?:>[ \t]?)*)\$\$")
# TeX's own `$…$` rule as Markdown math extensions read it: no space inside the dollars, and a
# closing `$` not followed by a digit, so "costs $5 or $10" stays prose.
_INLINE = re.compile(r"(?<![\\$])\$(?![\s$])(?P<tex>(?:\\.|[^$\\])+?)(?<![\s\\])\$(?!\d)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
_TAG_TEXT = re.compile(r">([^<]+)<")
_INLINE_DISPLAY = re.compile(r"(?<!\\)\$\$(?P<tex>(?:\\.|[^$\\])+?)\$\$")


def render_math(
    markdown: str,
    *,
    src: str,
    stash: Stash,
    line_offset: int = 0,
    plain: frozenset[int] = frozenset(),
    lexed: Lexed | None = None,
) -> str:
    """Replace every formula outside code by a stash token holding its MathML; same line count.

    `line_offset` is added to reported lines (the front matter MkDocs removed above `markdown`);
    lines in `plain` (1-based) hold no math (the live preview shows them as written). `lexed`:
    the page as written, when `markdown` is it with numbers put in (same lines of code).
    """
    code = (lexed or lex(markdown)).code_lines(quotes=True)
    return _render_math(
        markdown, where=Where(src, line_offset), stash=stash, plain=plain, code=code
    )


def display_lines(markdown: str, *, plain: frozenset[int] = frozenset()) -> frozenset[int]:
    """0-based indexes of the lines of display formulas (`$$` on lines of their own)."""
    lexed = lex(markdown)
    blocks, _ = _regions(
        list(lexed.lines), None, plain, lexed.code_lines(quotes=True), inline=False
    )
    return frozenset(i for b in blocks for i in range(b.start, b.end + 1))


@dataclass(frozen=True)
class _Display:
    start: int  # 0-based line of the opening `$$`
    end: int  # line of the closing `$$`
    prefix: str  # container prefix (indentation, blockquote markers)


@dataclass(frozen=True)
class _Span:
    start: int  # offsets in the line
    end: int
    tex: str
    display: bool  # `$$…$$` inside a line
    alone: bool  # the formula is the whole (stripped) text between code spans


def _regions(
    lines: list[str],
    where: Where | None,
    plain: frozenset[int] = frozenset(),
    code: frozenset[int] = frozenset(),
    inline: bool = True,
) -> tuple[list[_Display], dict[int, list[_Span]]]:
    """Where the page's math is: display blocks, and (`inline`) formulas within lines (`code`
    excluded). Without `where`, an unclosed display block is no block (the parser's view)."""
    code = code | {number - 1 for number in plain}
    blocks: list[_Display] = []
    spans: dict[int, list[_Span]] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = _DISPLAY_OPEN.match(line) if index not in code else None
        if opening and line.count("$$") == 1:  # `$$ x $$` on one line is handled inline
            block = _display_end(lines, index, opening.group("prefix"), where)
            if block is None:
                index += 1
                continue
            blocks.append(block)
            index = block.end + 1
            continue
        if inline and index not in code and "$" in line:
            found = _line_spans(line)
            if found:
                spans[index] = found
        index += 1
    return blocks, spans


def _display_end(lines: list[str], start: int, prefix: str, where: Where | None) -> _Display | None:
    """The block opened by the lone `$$` of line `start` ends at the next line ending in `$$`."""
    for end in range(start + 1, len(lines)):
        if _strip_prefix(lines[end], prefix).rstrip().endswith("$$"):
            return _Display(start, end, prefix)
    if where is None:
        return None
    raise where.error(
        start + 1, "display math `$$` is never closed.", "end the formula with a line `$$`"
    )


def _line_spans(line: str) -> list[_Span]:
    spans: list[_Span] = []
    bounds = [0] + [x for span in code_spans(line) for x in span] + [len(line)]
    for a, b in zip(bounds[::2], bounds[1::2], strict=True):
        segment = line[a:b]
        for m in _INLINE_DISPLAY.finditer(segment):
            alone = m.group(0) == segment.strip()
            spans.append(_Span(a + m.start(), a + m.end(), m.group("tex"), True, alone))
        masked = _INLINE_DISPLAY.sub(lambda m: "\0" * len(m.group(0)), segment)
        for m in _INLINE.finditer(masked):
            spans.append(_Span(a + m.start(), a + m.end(), m.group("tex"), False, False))
    return sorted(spans, key=lambda span: span.start)


def math_spans(
    markdown: str, *, src: str = "", line_offset: int = 0, plain: frozenset[int] = frozenset()
) -> dict[int, list[tuple[int, int]]]:
    """Per 0-based line, the (start, end) offsets that are math (a display block's lines whole)."""
    lexed = lex(markdown)
    lines = list(lexed.lines)
    code = lexed.code_lines(quotes=True)
    blocks, inline = _regions(lines, Where(src, line_offset), plain, code)
    found = {i: [(span.start, span.end) for span in spans] for i, spans in inline.items()}
    for block in blocks:
        for i in range(block.start, block.end + 1):
            found[i] = [(0, len(lines[i]))]
    return found


def _render_math(
    markdown: str, *, where: Where, stash: Stash, plain: frozenset[int], code: frozenset[int]
) -> str:
    lines = markdown.split("\n")
    out = list(lines)
    blocks, inline = _regions(lines, where, plain, code)
    for block in blocks:
        out[block.start : block.end + 1] = _display_block(lines, block, where=where, stash=stash)
    for index, spans in inline.items():
        out[index] = _inline(lines[index], spans, line_no=index + 1, where=where, stash=stash)
    assert len(out) == len(lines), "render_math must keep the line count"
    return "\n".join(out)


def _display_block(lines: list[str], block: _Display, *, where: Where, stash: Stash) -> list[str]:
    """The replacement lines of a `$$` block: its token, padded to the block's line count."""
    start, end, prefix = block.start, block.end, block.prefix
    body = [lines[start][len(prefix) :].strip()[2:]]
    body += [_strip_prefix(lines[i], prefix) for i in range(start + 1, end + 1)]
    tex = "\n".join(body).rstrip()[:-2]
    html = _convert(tex, display=True, where=where, line=start + 1)
    blank = prefix.rstrip()
    count = end - start + 1

    # Standing alone (blank lines around) it is a block of its own; in a paragraph, a span.
    def blank_at(index: int) -> bool:
        return not 0 <= index < len(lines) or not _strip_prefix(lines[index], prefix).strip()

    tag = "div" if count >= 3 or (blank_at(start - 1) and blank_at(end + 1)) else "span"
    token = stash.put(f'<{tag} class="llmbook-math llmbook-math--display">{html}</{tag}>')
    if count >= 3:
        return [blank, prefix + token] + [blank] * (count - 2)
    return [prefix + token] + [blank] * (count - 1)


def _strip_prefix(line: str, prefix: str) -> str:
    if line.startswith(prefix):
        return line[len(prefix) :]
    return line.lstrip(" \t>")


def _inline(line: str, spans: list[_Span], *, line_no: int, where: Where, stash: Stash) -> str:
    """The line with each formula as MathML; `\\$` outside math and code writes a dollar."""
    # A heading's text also becomes its table-of-contents label, which never sees the stash:
    # there the MathML goes in as inline HTML, whose tags the label drops ("O(n2)").
    place = _inline_html if _HEADING.match(line) else stash.put
    code = code_spans(line)
    pieces, last = [], 0
    for span in spans:
        pieces.append(_unescape_dollars(line, last, span.start, code))
        html = _convert(span.tex, display=span.display, where=where, line=line_no)
        if span.display:
            tag = "div" if span.alone else "span"
            pieces.append(
                place(f'<{tag} class="llmbook-math llmbook-math--display">{html}</{tag}>')
            )
        else:
            pieces.append(place(f'<span class="llmbook-math">{html}</span>'))
        last = span.end
    pieces.append(_unescape_dollars(line, last, len(line), code))
    return "".join(pieces)


def _unescape_dollars(line: str, start: int, end: int, code: list[tuple[int, int]]) -> str:
    pieces, last = [], start
    for a, b in code:
        if b <= start or a >= end:
            continue
        pieces.append(line[last:a].replace("\\$", "$"))
        pieces.append(line[a:b])
        last = b
    pieces.append(line[last:end].replace("\\$", "$"))
    return "".join(pieces)


def _inline_html(html: str) -> str:
    """`html` as inline HTML Markdown leaves alone: its text's Markdown characters as entities."""
    return _TAG_TEXT.sub(
        lambda m: ">" + "".join(f"&#{ord(c)};" if c in "*_`[]\\~" else c for c in m.group(1)) + "<",
        html,
    )


def _convert(tex: str, *, display: bool, where: Where, line: int) -> str:
    shown = " ".join(tex.split())
    try:
        return latex_to_mathml(_bindings_to_written(tex), display=display)
    except FormulaError as exc:
        raise where.error(
            line,
            f"the formula `{shown}` cannot be rendered: {exc}.",
            "fix the LaTeX (balanced braces, \\left with \\right, commands latex2mathml knows)",
        ) from None


def _bindings_to_written(tex: str) -> str:
    """Each `[[…]]` in a formula becomes its written value, spelled as TeX sets numbers."""

    def written(match: re.Match[str]) -> str:
        try:
            value = parse_body(match.group("body"))[0]
        except ValueError:
            return match.group(0)  # the executor reports a malformed binding with its line
        if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", value):
            return value.replace(",", "{,}")  # thousands: a comma without the space after it
        if value.endswith("%"):
            return value[:-1] + "\\%"
        exponent = re.fullmatch(r"(-?\d+(?:\.\d+)?)[eE]([+-]?\d+)", value)
        if exponent:
            return f"{exponent.group(1)} \\times 10^{{{int(exponent.group(2))}}}"
        return value

    return BINDING_RE.sub(written, tex)

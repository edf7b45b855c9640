"""`$…$` and `$$…$$` → MathML at build time, so a page needs no script and no network for its math.

Runs on the page's Markdown before Python-Markdown sees it: each formula becomes a stash token (an
edit of the page's lines, see `edits.py`), the MathML itself goes into the page's stash. Code
(fenced blocks, inline code spans) is left alone.

Inside a formula, a bound number `[[expr = 2.1]]` shows its written value (the executor checks it).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape

from llmbook.core.bindings import strip_to_written
from llmbook.core.book_syntax import EQUATION_LABEL
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError, quoted
from llmbook.core.latex import FormulaError, kept_mathml
from llmbook.core.lexer import Lexed, code_spans, lex
from llmbook.core.stash import Stash
from llmbook.core.store import Store

__all__ = ["display_lines", "math_spans", "render_math", "render_math_text", "tex_written"]

# A line's container prefix (indentation, blockquote markers) and a display formula after it.
_DISPLAY_OPEN = re.compile(r"^(?P<prefix>[ \t]*(?:>[ \t]?)*)\$\$")
# TeX's own `$…$` rule as Markdown math extensions read it: no space inside the dollars, and a
# closing `$` not followed by a digit, so "costs $5 or $10" stays prose.
_INLINE = re.compile(r"(?<![\\$])\$(?![\s$])(?P<tex>(?:\\.|[^$\\])+?)(?<![\s\\])\$(?!\d)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
_TAG_TEXT = re.compile(r">([^<]+)<")
_INLINE_DISPLAY = re.compile(r"(?<!\\)\$\$(?P<tex>(?:\\.|[^$\\])+?)\$\$")


def render_math(
    edits: LineEdits,
    *,
    src: str,
    stash: Stash,
    plain: frozenset[int] = frozenset(),
    equations: Mapping[str, str] | None = None,
    store: Store | None = None,
) -> None:
    """Every formula outside code of the page `edits` is for becomes a stash token holding its
    MathML (a display block's token on its first line, its other lines blank). Lines in `plain`
    (file lines) hold no math: the live preview shows them as written. A display formula
    labelled `$$ {#eq-x}` gets that id and its number from `equations` (label → "10.4").
    `store`: where conversions are kept, so an edited page converts only its new formulas."""
    lexed = edits.lexed
    lines, first = list(lexed.lines), lexed.first
    blocks, inline = _regions(lines, src, first, plain, lexed.code_lines(quotes=True))
    for block in blocks:
        rows = _display_block(
            lines, block, src=src, first=first, stash=stash, equations=equations or {}, store=store
        )
        for index, row in enumerate(rows, start=block.start):
            edits.replace_line(first + index, row)
    for index, spans in inline.items():
        _inline(edits, first + index, spans, src=src, stash=stash, store=store)


def render_math_text(
    markdown: str,
    *,
    src: str,
    stash: Stash,
    first: int = 1,
    equations: Mapping[str, str] | None = None,
) -> str:
    """`markdown`, a text of its own (a showcase's example, starting on file line `first`), with
    its formulas as stash tokens (labelled equations numbered from `equations`)."""
    edits = LineEdits(lex(markdown, first))
    render_math(edits, src=src, stash=stash, equations=equations)
    return edits.markdown()


def display_lines(lexed: Lexed, *, plain: frozenset[int] = frozenset()) -> frozenset[int]:
    """File lines of display formulas (`$$` on lines of their own)."""
    first = lexed.first
    code = lexed.code_lines(quotes=True)
    blocks, _ = _regions(list(lexed.lines), None, first, plain, code, inline=False)
    return frozenset(first + i for b in blocks for i in range(b.start, b.end + 1))


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
    src: str | None,
    first: int,
    plain: frozenset[int] = frozenset(),
    code: frozenset[int] = frozenset(),
    inline: bool = True,
) -> tuple[list[_Display], dict[int, list[_Span]]]:
    """Where the page's math is, as positions in `lines`: display blocks, and (`inline`) formulas
    within lines (`code` positions and `plain` file lines excluded). Without `src`, an unclosed
    display block is no block (the parser's view)."""
    code = code | {line - first for line in plain}
    blocks: list[_Display] = []
    spans: dict[int, list[_Span]] = {}
    index = 0
    while index < len(lines):
        line = lines[index]
        opening = _DISPLAY_OPEN.match(line) if index not in code else None
        if opening and line.count("$$") == 1:  # `$$ x $$` on one line is handled inline
            block = _display_end(lines, index, opening.group("prefix"), src, first)
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


def _display_end(
    lines: list[str], start: int, prefix: str, src: str | None, first: int
) -> _Display | None:
    """The block opened by the lone `$$` of line `start` ends at the next line ending in `$$`."""
    for end in range(start + 1, len(lines)):
        if _unlabelled(_strip_prefix(lines[end], prefix)).rstrip().endswith("$$"):
            return _Display(start, end, prefix)
    if src is None:
        return None
    raise AuthorError(
        src, first + start, "display math `$$` is never closed.", "end the formula with a line `$$`"
    )


def _unlabelled(line: str) -> str:
    """A closing line without its equation label: `$$ {#eq-x}` → `$$`."""
    label = EQUATION_LABEL.match(line)
    return label.group("close") if label else line


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
    lexed: Lexed, *, src: str = "", plain: frozenset[int] = frozenset()
) -> dict[int, list[tuple[int, int]]]:
    """Per file line, the (start, end) offsets that are math (a display block's lines whole)."""
    first = lexed.first
    lines = list(lexed.lines)
    code = lexed.code_lines(quotes=True)
    blocks, inline = _regions(lines, src, first, plain, code)
    found = {first + i: [(span.start, span.end) for span in spans] for i, spans in inline.items()}
    for block in blocks:
        for i in range(block.start, block.end + 1):
            found[first + i] = [(0, len(lines[i]))]
    return found


def _display_block(
    lines: list[str],
    block: _Display,
    *,
    src: str,
    first: int,
    stash: Stash,
    equations: Mapping[str, str],
    store: Store | None = None,
) -> list[str]:
    """The replacement lines of a `$$` block: its token, padded to the block's line count."""
    start, end, prefix = block.start, block.end, block.prefix
    body = [lines[start][len(prefix) :].strip()[2:]]
    body += [_strip_prefix(lines[i], prefix) for i in range(start + 1, end)]
    closing = _strip_prefix(lines[end], prefix)
    body.append(_unlabelled(closing))
    tex = "\n".join(body).rstrip()[:-2]
    html = _convert(tex, display=True, src=src, line=first + start, store=store)
    label = EQUATION_LABEL.match(closing)
    if label:
        html = _numbered(html, equations.get(label.group("id")))
    blank = prefix.rstrip()
    count = end - start + 1

    # Standing alone (blank lines around) it is a block of its own; in a paragraph, a span.
    def blank_at(index: int) -> bool:
        return not 0 <= index < len(lines) or not _strip_prefix(lines[index], prefix).strip()

    tag = "div" if label or count >= 3 or (blank_at(start - 1) and blank_at(end + 1)) else "span"
    # A labelled equation's anchor stands in the page's own HTML where it can (a block after a
    # blank line), so the engine's anchor check (MkDocs' validation) sees it.
    anchor = (
        f'<div class="llmbook-equation-anchor" id="{escape(label.group("id"))}"></div>'
        if label is not None
        else ""
    )
    own_line = label is not None and count >= 3 and blank_at(start - 1)
    inner = anchor + html if label is not None and not own_line else html
    token = stash.put(f'<{tag} class="llmbook-math llmbook-math--display">{inner}</{tag}>')
    if count >= 3:
        return [prefix + anchor if own_line else blank, prefix + token] + [blank] * (count - 2)
    return [prefix + token] + [blank] * (count - 1)


def _numbered(html: str, number: str | None) -> str:
    """A labelled equation: its number at the right (`(10.4)`)."""
    shown = f'<span class="llmbook-equation__number">({number})</span>' if number else ""
    return f'<span class="llmbook-equation">{html}{shown}</span>'


def _strip_prefix(line: str, prefix: str) -> str:
    if line.startswith(prefix):
        return line[len(prefix) :]
    return line.lstrip(" \t>")


def _inline(
    edits: LineEdits,
    line: int,
    spans: list[_Span],
    *,
    src: str,
    stash: Stash,
    store: Store | None = None,
) -> None:
    """Each formula of the line as MathML; `\\$` outside math and code writes a dollar."""
    text = edits.text(line)
    # A heading's text also becomes its table-of-contents label, which never sees the stash:
    # there the MathML goes in as inline HTML, whose tags the label drops ("O(n2)").
    place = _inline_html if _HEADING.match(text) else stash.put
    for span in spans:
        html = _convert(span.tex, display=span.display, src=src, line=line, store=store)
        if span.display:
            tag = "div" if span.alone else "span"
            html = f'<{tag} class="llmbook-math llmbook-math--display">{html}</{tag}>'
        else:
            html = f'<span class="llmbook-math">{html}</span>'
        # A block's token must end its line: trailing spaces would make it a paragraph's text.
        end = (
            len(text) if span.display and span.alone and not text[span.end :].strip() else span.end
        )
        edits.replace(line, span.start, end, place(html))
    kept = code_spans(text) + [(span.start, span.end) for span in spans]
    for dollar in re.finditer(r"\\\$", text):
        a, b = dollar.span()
        if not any(x <= a < y for x, y in kept) and not edits.taken(line, a, b):
            edits.replace(line, a, b, "$")


def _inline_html(html: str) -> str:
    """`html` as inline HTML Markdown leaves alone: its text's Markdown characters as entities."""
    return _TAG_TEXT.sub(
        lambda m: ">" + "".join(f"&#{ord(c)};" if c in "*_`[]\\~" else c for c in m.group(1)) + "<",
        html,
    )


def _convert(tex: str, *, display: bool, src: str, line: int, store: Store | None = None) -> str:
    shown = quoted(" ".join(tex.split()))
    try:
        return kept_mathml(tex_written(tex), display=display, store=store)
    except FormulaError as exc:
        raise AuthorError(
            src,
            line,
            f"the formula `{shown}` cannot be rendered: {exc}.",
            "fix the LaTeX (balanced braces, \\left with \\right, commands latex2mathml knows)",
        ) from None


def tex_written(tex: str) -> str:
    """Each `[[…]]` in a formula becomes its written value, spelled as TeX sets numbers."""

    def written(value: str) -> str:
        if re.fullmatch(r"-?\d{1,3}(,\d{3})+(\.\d+)?", value):
            return value.replace(",", "{,}")  # thousands: a comma without the space after it
        if value.endswith("%"):
            return value[:-1] + "\\%"
        exponent = re.fullmatch(r"(-?\d+(?:\.\d+)?)[eE]([+-]?\d+)", value)
        if exponent:
            return f"{exponent.group(1)} \\times 10^{{{int(exponent.group(2))}}}"
        return value

    return strip_to_written(tex, written)

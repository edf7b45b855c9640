"""`$…$` and `$$…$$` → MathML at build time, so a page needs no script and no network for its math.

Runs on the page's Markdown before Python-Markdown sees it: each formula becomes a stash token, the
MathML itself goes into the page's stash. Code (fenced blocks, inline code spans) is left alone. The
line count never changes: a display formula of n lines becomes its token padded with empty lines, so
later stages still report true line numbers.

Inside a formula, a bound number `[[expr = 2.1]]` shows its written value (the executor checks it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from llmbook.bindings import BINDING_RE, parse_body
from llmbook.errors import AuthorError
from llmbook.lexer import code_spans, fences
from llmbook.mathfix import FormulaError, latex_to_mathml
from llmbook.stash import Stash

__all__ = ["render_math"]

# A line's container prefix (indentation, blockquote markers) and a display formula after it.
_DISPLAY_OPEN = re.compile(r"^(?P<prefix>[ \t]*(?:>[ \t]?)*)\$\$")
# TeX's own `$…$` rule as Markdown math extensions read it: no space inside the dollars, and a
# closing `$` not followed by a digit, so "costs $5 or $10" stays prose.
_INLINE = re.compile(r"(?<![\\$])\$(?![\s$])(?P<tex>(?:\\.|[^$\\])+?)(?<![\s\\])\$(?!\d)")
_HEADING = re.compile(r"^ {0,3}#{1,6}\s")
_TAG_TEXT = re.compile(r">([^<]+)<")
_INLINE_DISPLAY = re.compile(r"(?<!\\)\$\$(?P<tex>(?:\\.|[^$\\])+?)\$\$")


def render_math(markdown: str, *, src: str, stash: Stash, line_offset: int = 0) -> str:
    """Replace every formula outside code by a stash token holding its MathML; same line count.

    `line_offset` is added to reported lines (the front matter MkDocs removed above `markdown`).
    """
    try:
        return _render_math(markdown, src=src, stash=stash)
    except AuthorError as error:
        if not line_offset:
            raise
        raise AuthorError(error.src, error.line + line_offset, error.problem, error.fix) from None


def _render_math(markdown: str, *, src: str, stash: Stash) -> str:
    lines = markdown.split("\n")
    out: list[str] = []
    code = {i for f in fences(lines, quotes=True) for i in range(f.start, f.end + 1)}
    index = 0
    while index < len(lines):
        line = lines[index]
        if index in code:
            out.append(line)
            index += 1
            continue
        opening = _DISPLAY_OPEN.match(line)
        if opening and line.count("$$") == 1:  # `$$ x $$` on one line is handled inline
            count = _display_block(
                lines, index, opening.group("prefix"), src=src, stash=stash, out=out
            )
            index += count
            continue
        out.append(_inline(line, line_no=index + 1, src=src, stash=stash))
        index += 1
    assert len(out) == len(lines), "render_math must keep the line count"
    return "\n".join(out)


def _display_block(
    lines: list[str], start: int, prefix: str, *, src: str, stash: Stash, out: list[str]
) -> int:
    """Convert the `$$` block opening at `start`; append its replacement lines, return their count."""
    body = [lines[start][len(prefix) :].strip()[2:]]
    end = start
    while end == start or not body[-1].rstrip().endswith("$$"):
        end += 1
        if end >= len(lines):
            raise AuthorError(
                src,
                start + 1,
                "display math `$$` is never closed.",
                "end the formula with a line `$$`",
            )
        body.append(_strip_prefix(lines[end], prefix))
    tex = "\n".join(body).rstrip()[:-2]
    html = _convert(tex, display=True, src=src, line=start + 1)
    blank = prefix.rstrip()
    count = end - start + 1

    # Standing alone (blank lines around) it is a block of its own; in a paragraph, a span.
    def blank_at(index: int) -> bool:
        return not 0 <= index < len(lines) or not _strip_prefix(lines[index], prefix).strip()

    tag = "div" if count >= 3 or (blank_at(start - 1) and blank_at(end + 1)) else "span"
    token = stash.put(f'<{tag} class="llmbook-math llmbook-math--display">{html}</{tag}>')
    if count >= 3:
        out.extend([blank, prefix + token] + [blank] * (count - 2))
    else:
        out.extend([prefix + token] + [blank] * (count - 1))
    return count


def _strip_prefix(line: str, prefix: str) -> str:
    if line.startswith(prefix):
        return line[len(prefix) :]
    return line.lstrip(" \t>")


def _inline(line: str, *, line_no: int, src: str, stash: Stash) -> str:
    """Convert the formulas of one line, skipping inline code spans."""
    if "$" not in line:
        return line
    # A heading's text also becomes its table-of-contents label, which never sees the stash:
    # there the MathML goes in as inline HTML, whose tags the label drops ("O(n2)").
    place = _inline_html if _HEADING.match(line) else stash.put
    pieces, last = [], 0
    for start, end in code_spans(line):
        pieces.append(_inline_math(line[last:start], line_no, src, place))
        pieces.append(line[start:end])
        last = end
    pieces.append(_inline_math(line[last:], line_no, src, place))
    return "".join(pieces)


def _inline_math(text: str, line_no: int, src: str, place: Callable[[str], str]) -> str:
    def display(match: re.Match[str]) -> str:
        html = _convert(match.group("tex"), display=True, src=src, line=line_no)
        # A line that is only the formula is a block of its own; in running text, a span.
        tag = "div" if match.group(0) == text.strip() else "span"
        return place(f'<{tag} class="llmbook-math llmbook-math--display">{html}</{tag}>')

    def inline(match: re.Match[str]) -> str:
        html = _convert(match.group("tex"), display=False, src=src, line=line_no)
        return place(f'<span class="llmbook-math">{html}</span>')

    text = _INLINE_DISPLAY.sub(display, text)
    text = _INLINE.sub(inline, text)
    return text.replace("\\$", "$")  # `\$` writes a dollar sign


def _inline_html(html: str) -> str:
    """`html` as inline HTML Markdown leaves alone: its text's Markdown characters as entities."""
    return _TAG_TEXT.sub(
        lambda m: ">" + "".join(f"&#{ord(c)};" if c in "*_`[]\\~" else c for c in m.group(1)) + "<",
        html,
    )


def _convert(tex: str, *, display: bool, src: str, line: int) -> str:
    shown = " ".join(tex.split())
    try:
        return latex_to_mathml(_bindings_to_written(tex), display=display)
    except FormulaError as exc:
        raise AuthorError(
            src,
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

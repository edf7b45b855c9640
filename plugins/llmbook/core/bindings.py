"""The syntax of numbers bound to computations (shared by the math step and the executor).

    [[expr = written]]      a number the build recomputes: `expr` runs in the page's namespace and
                            must round to `written` at its written precision.
    [[written @ source]]    a cited number (a paper's measurement): shown as written, source named,
                            never computed; `[[written @key, Table 1]]` names a bibliography
                            entry (its source keeps the `@`: `@key, Table 1`).
    [[~written]]            an illustrative number (a made-up example, a toy value): shown as
                            written with a visible 示意 label, never computed.

The written value is what the page shows. Neither form may contain a pipe (tables) or `]]`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["BINDING_RE", "RawBinding", "find_bindings", "spans", "strip_to_written"]

# `]](?!])` lets a vector value end in `]]]`: the last two brackets close the binding.
BINDING_RE = re.compile(r"\[\[(?P<body>.+?)\]\](?!\])")
# `written @key` or `written @key, locator`: a key glued to its `@`, as Pandoc cites.
_CITED_KEY = re.compile(r"^(?P<written>.+?)\s(?P<source>@[A-Za-z0-9_][\w:.+/-]*\s*(?:,.*)?)$")


@dataclass(frozen=True)
class RawBinding:
    """One `[[…]]` as written: either bound (`expr` set) or cited (`source` set)."""

    body: str
    written: str
    expr: str | None
    source: str | None
    line: int
    start: int  # offset of `[[` in its line
    end: int  # offset after `]]`

    @property
    def illustrative(self) -> bool:
        return self.expr is None and self.source is None


def parse_body(body: str) -> tuple[str, str | None, str | None]:
    """Split a binding's body into (written, expr, source); raise ValueError when it is no form.
    An illustrative number has neither expression nor source."""
    if body.startswith("~") and body[1:].strip():
        return body[1:].strip(), None, None
    cited = _CITED_KEY.match(body)
    if cited and cited.group("written").strip():
        return cited.group("written").strip(), None, cited.group("source").strip()
    if " @ " in body:
        written, source = body.split(" @ ", 1)
        if written.strip() and source.strip():
            return written.strip(), None, source.strip()
    cut = body.rfind("=")
    # The separator is a lone `=`: not part of `==`, `<=`, `>=` or `!=` inside the expression.
    if cut > 0 and body[cut - 1] not in "=!<>":
        expr, written = body[:cut].strip(), body[cut + 1 :].strip()
        if expr and written:
            return written, expr, None
    raise ValueError(
        f"[[{body}]] is neither a bound number `[[expr = value]]`, a cited one "
        "`[[value @ source]]` nor an illustrative one `[[~value]]`"
    )


def spans(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, body) of each `[[…]]` of a line, as BINDING_RE matches them, in linear time
    (the regex retries every `[[` to the line's end: quadratic on a long line of them)."""
    at = 0
    while (start := text.find("[[", at)) >= 0:
        close = text.find("]]", start + 3)  # the body has one character at least
        if close < 0:
            return  # no later `[[` closes either
        while text.startswith("]", close + 2):  # `]]]`: the last two close
            close += 1
        body = text[start + 2 : close]
        if "\n" in body:  # `.` stops at a line end: retry from the next `[[`
            at = start + 1
            continue
        yield start, close + 2, body
        at = close + 2


def find_bindings(line_text: str, line_no: int) -> list[RawBinding]:
    """All bindings on one source line (1-based `line_no`); ValueError for a malformed one."""
    found = []
    for start, end, body in spans(line_text):
        written, expr, source = parse_body(body)
        found.append(RawBinding(body, written, expr, source, line_no, start, end))
    return found


def strip_to_written(text: str, spell: Callable[[str], str] = str) -> str:
    """Replace every binding in `text` (e.g. a formula) by its written value, as `spell` writes
    it; a malformed one stays (the executor reports it with its line)."""
    parts, at = [], 0
    for start, end, body in spans(text):
        try:
            shown = spell(parse_body(body)[0])
        except ValueError:
            shown = text[start:end]
        parts += [text[at:start], shown]
        at = end
    return "".join(parts) + text[at:]

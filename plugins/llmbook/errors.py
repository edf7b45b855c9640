"""The core's errors: `LLMBookError` stops a build (the adapters turn it into their engine's own
error, MkDocs' `PluginError`); `AuthorError`, the one error an author can cause, names the page and
line and says how to fix it.

A page made from another format (a notebook) registers how its lines map back to the source the
author edits, so every error, from any stage, reads `notebook.ipynb:cell 4, line 2: …`.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = [
    "QUOTE_LIMIT",
    "AuthorError",
    "LLMBookError",
    "describe_line",
    "forget_line_maps",
    "location",
    "quoted",
    "quoted_lines",
    "register_line_map",
]

# The most of an author's text (a line, an expression, a value) an error quotes, in characters.
QUOTE_LIMIT = 200
# The longest line of an error's text, whatever it quotes: what the places that quote missed.
_LINE_LIMIT = 1000

_LINE_MAPS: dict[str, Callable[[int], str]] = {}


def register_line_map(src: str, where: Callable[[int], str]) -> None:
    """`where(line)` names a line of the page's Markdown in the author's own file."""
    _LINE_MAPS[src] = where


def forget_line_maps() -> None:
    _LINE_MAPS.clear()


def location(src: str, line: int) -> str:
    """`docs/x.md:12`, or `docs/x.ipynb:cell 4, line 2` for a page with a line map."""
    where = _LINE_MAPS.get(src)
    return f"{src}:{where(line) if where else line}"


def describe_line(src: str, line: int) -> str:
    """`line 12`, or `cell 4, line 2`: a line named inside a message."""
    where = _LINE_MAPS.get(src)
    return where(line) if where else f"line {line}"


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """`text` as an error quotes it: whole when it has at most `limit` characters, else its start
    and how many characters were cut, `limit` characters in all (so quoting again changes
    nothing): a 700,000-character line makes a message of a few hundred characters."""
    if len(text) <= limit:
        return text
    keep = limit
    while keep > 0:  # the mark's own length counts: at most two rounds
        mark = f"… ({len(text) - keep:,} more characters)"
        if keep + len(mark) <= limit:
            break
        keep = max(limit - len(mark), 0)
    return f"{text[:keep]}… ({len(text) - keep:,} more characters)"


def quoted_lines(text: str, limit: int = QUOTE_LIMIT) -> str:
    """Each line of `text` quoted (`quoted`): a traceback, a diff, an exception's message."""
    return "\n".join(quoted(line, limit) for line in text.split("\n"))


class LLMBookError(Exception):
    """What stops a build: its text is the whole message an author reads (no traceback)."""


class AuthorError(LLMBookError):
    """A mistake in a chapter's source. Stops the build as `path/to/page.md:LINE: what. Fix: how.`"""

    def __init__(self, src: str, line: int, message: str, fix: str | None = None) -> None:
        self.src = src
        self.line = line
        self.problem = quoted_lines(message, _LINE_LIMIT)
        self.fix = quoted_lines(fix, _LINE_LIMIT) if fix else fix
        text = f"{location(src, line)}: {self.problem}"
        if self.fix:
            text += f" Fix: {self.fix}"
        super().__init__(text)

    def __reduce__(self) -> tuple:  # kept in caches (a plan's unaccounted numbers)
        return (type(self), (self.src, self.line, self.problem, self.fix))

"""The core's errors: `LLMBookError` stops a build (the adapters turn it into their engine's own
error, MkDocs' `PluginError`); `AuthorError`, the one error an author can cause, names the page and
line and says how to fix it.

An error names its line as the page's model does (`Lexed.place`): a page made from another format
(a notebook) carries how its lines map back to the source the author edits, so an error made with
the model, or located against it where the page's stages hand their errors on, reads
`notebook.ipynb:cell 4, line 2: …`.
"""

from __future__ import annotations

from typing import Protocol

__all__ = [
    "QUOTE_LIMIT",
    "AuthorError",
    "LLMBookError",
    "Located",
    "location",
    "quoted",
    "quoted_lines",
]

# The most of an author's text (a line, an expression, a value) an error quotes, in characters.
QUOTE_LIMIT = 200
# The longest line of an error's text, whatever it quotes: what the places that quote missed.
_LINE_LIMIT = 1000


class Located(Protocol):
    """A page's model as errors read it (`lexer.Lexed`): how it names its file lines."""

    def place(self, line: int) -> str: ...


def location(src: str, line: int, page: Located | None) -> str:
    """`docs/x.md:12`, or `docs/x.ipynb:cell 4, line 2`: file line `line` of page `src` as its
    model `page` names it (None: a file with no model, named by its line)."""
    return f"{src}:{page.place(line) if page is not None else line}"


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

    def __init__(
        self,
        src: str,
        line: int,
        message: str,
        fix: str | None = None,
        *,
        page: Located | None = None,
    ) -> None:
        self.src = src
        self.line = line
        self.problem = quoted_lines(message, _LINE_LIMIT)
        self.fix = quoted_lines(fix, _LINE_LIMIT) if fix else fix
        self.place = str(line)  # the line as the page's model names it (`cell 4, line 2`)
        super().__init__()
        self.locate(src, page)

    def locate(self, src: str, page: Located | None) -> AuthorError:
        """Itself, its line named by `page`, the model of page `src`, when it is about that page
        (a stage that raises without the model at hand is located where it hands it on)."""
        if page is not None and self.src == src:
            self.place = page.place(self.line)
        text = f"{self.src}:{self.place}: {self.problem}"
        self.args = (f"{text} Fix: {self.fix}" if self.fix else text,)
        return self

    def __reduce__(self) -> tuple:  # kept in caches (a plan's unaccounted numbers)
        return (_restored, (type(self), self.src, self.line, self.problem, self.fix, self.place))


class _Place:
    def __init__(self, place: str) -> None:
        self._place = place

    def place(self, line: int) -> str:
        return self._place


def _restored(
    kind: type[AuthorError], src: str, line: int, problem: str, fix: str | None, place: str
) -> AuthorError:
    return kind(src, line, problem, fix, page=_Place(place))

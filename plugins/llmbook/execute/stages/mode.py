"""How the executor treats a page with an author error: the build's way or the live preview's.

A build (`mkdocs build`, `zensical build`, pytest) stops at one report of every failure; a page
that failed has only a bare plan, its model, so links into it are still checked. The live preview (`serve`) shows every page, its errors on it: a page whose
code failed is still planned (its numbers unchecked), a line a stage cannot read is taken as plain
text. The executor and the check stage are handed one of these; neither tests a flag.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from llmbook.core.errors import AuthorError
from llmbook.core.lexer import Lexed

__all__ = ["Forgiving", "Strict", "recover"]

T = TypeVar("T")


class Strict:
    """The build's way: every error is reported, none is worked around."""

    caches_stages = True  # the stage cache keeps what a strict plan found

    def read(self, stage: Callable[..., T], lexed: Lexed, src: str) -> tuple[T | None, bool]:
        """(the stage's view of the page, whether it read every line)."""
        return stage(lexed, src=src), True

    def plans(self, failed_to_run: bool) -> bool:
        """Whether a page whose code failed is planned as if it ran; here it gets only a bare
        plan (its model, for the rest of the book; its failure is in the report)."""
        return not failed_to_run


class Forgiving(Strict):
    """The live preview's way: every page is planned and rendered, its errors shown on it."""

    caches_stages = False  # a forgiving plan is not the build's: never kept

    def read(self, stage: Callable[..., T], lexed: Lexed, src: str) -> tuple[T | None, bool]:
        found, errors, _ = recover(
            lambda plain, _: stage(lexed, src=src, plain=plain), src=src, lines=lexed.numbers
        )
        return found, not errors

    def plans(self, failed_to_run: bool) -> bool:
        return True  # its numbers stay unchecked


def recover(
    attempt: Callable[[frozenset[int], list[AuthorError]], T], *, src: str, lines: range
) -> tuple[T | None, list[AuthorError], frozenset[int]]:
    """Run `attempt(plain, errors)` until it passes, each time adding the line of the author
    error it raised to `plain` (file lines to take as plain text) and the error to `errors`; (its
    result or None, the errors, plain). Each of the page's `lines` is given up once at most, so
    this ends."""
    plain: set[int] = set()
    errors: list[AuthorError] = []
    while True:
        try:
            return attempt(frozenset(plain), list(errors)), errors, frozenset(plain)
        except AuthorError as error:
            line = error.line
            if error.src != src or line in plain or line not in lines:
                return None, errors + [error], frozenset(plain)
            errors.append(error)
            plain.add(line)

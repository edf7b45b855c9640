"""What the executor asks of a translating build (translate/book.py implements it): which pages
are translations and of what, whether they correspond to their sources, and their results made
of their sources' (the code runs once, as the source's page)."""

from __future__ import annotations

from typing import Protocol

from llmbook.core.errors import AuthorError
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.run import RunResult

__all__ = ["Companion"]


class Companion(Protocol):
    def source_file(self, src: str) -> tuple[str, bytes] | None:
        """The source of `src` (its path, its file) when this build renders `src` as a translation."""

    def runs(self, src: str) -> str:
        """The path whose `execute_pages` patterns decide whether `src` runs."""

    def pair(self, translation: PageSource, source: PageSource) -> list[AuthorError]:
        """What does not correspond between the two (empty: the results can be mapped)."""

    def result(self, translation: PageSource, source: PageSource, result: RunResult) -> RunResult:
        """The source's `result` as the translation's (its blocks and bound numbers)."""

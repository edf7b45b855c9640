"""A build's report: a plan per page that passed, every failing page, every drifted number."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.stages.block_errors import Raised
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.notebook import Notebook
from llmbook.execute.stages.plan import Plan

__all__ = ["FIX_DRIFT", "BuildFailed", "DriftError", "RaisingPolicy", "Report", "in_page_order"]

FIX_DRIFT = (
    "Fix: correct the written values, or run `python -m llmbook update-numbers` to rewrite them "
    "to the computed ones and review the diff."
)


class DriftError(LLMBookError):
    """Every bound number of a build that does not match its computation, one line each."""

    def __init__(self, mismatches: list[str]) -> None:
        self.mismatches = list(mismatches)
        count = len(self.mismatches)
        head = (
            f"{count} written number{'s differ' if count > 1 else ' differs'} from the computation:"
        )
        super().__init__("\n".join([head, *self.mismatches, FIX_DRIFT]))


class BuildFailed(LLMBookError):
    """The whole report of a build: every failing page (its first failure) and every drifted number."""

    def __init__(self, failures: list[AuthorError], mismatches: list[str]) -> None:
        self.failures, self.mismatches = list(failures), list(mismatches)
        parts = []
        if failures:
            parts.append(_failed_summary(failures))
            parts += [str(f) for f in failures]
        if mismatches:
            parts.append(str(DriftError(mismatches)))
        super().__init__("\n".join(parts))


def in_page_order(
    failures: Iterable[AuthorError], source_of: Callable[[str], str] = str
) -> list[AuthorError]:
    """Page by page, each by line, a source's errors before its translations' (`source_of`: a
    translation's source), which they may imply: a translation runs as its source."""
    return sorted(
        failures, key=lambda e: (source_of(e.src), e.src != source_of(e.src), e.src, e.line)
    )


def _failed_summary(failures: list[AuthorError]) -> str:
    """`1 page failed:`, or `1 page failed with 2 errors:` when a page has more than one."""
    pages = len({f.src for f in failures})
    head = _counted(pages, "page") + " failed"
    if len(failures) != pages:
        head += " with " + _counted(len(failures), "error")
    return head + ":"


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


@dataclass
class Report:
    """What a build's pages gave: a plan per page that passed, the failures, the drifted numbers."""

    plans: dict[str, Plan] = field(default_factory=dict)
    notebooks: dict[str, Notebook] = field(default_factory=dict)
    failures: list[AuthorError] = field(default_factory=list)

    @property
    def mismatches(self) -> list[str]:
        return [m for plan in self.plans.values() for m in plan.mismatches]

    def raise_if_failed(self) -> None:
        if self.failures:
            raise BuildFailed(self.failures, self.mismatches)
        if self.mismatches:
            raise DriftError(self.mismatches)


class RaisingPolicy:
    """What a block that raised is to the build: an error, or under `execute_allow_errors`
    (the book's, or the page's own) a warning, its error shown on the page."""

    def __init__(self, allow_errors: bool, log: logging.Logger | logging.LoggerAdapter) -> None:
        self.allow_errors = allow_errors
        self.log = log

    def allowed(self, page: PageSource, raised: Raised) -> bool:
        allows = page.allow_errors if page.allow_errors is not None else self.allow_errors
        return allows and raised.allowable

    def errors(self, page: PageSource, found: list[Raised]) -> list[AuthorError]:
        """The errors of `found`; those allowed are logged as warnings instead."""
        failing = []
        for raised in found:
            if self.allowed(page, raised):
                self.log.warning(f"{page.location(raised.line)}: {raised.problem}")
            else:
                failing.append(raised.error(page))
        return failing

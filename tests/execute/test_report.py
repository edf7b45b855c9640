"""The build's report: its head counts the pages that failed and, when some failed more than once,
the errors; every error follows, then the drifted numbers."""

from __future__ import annotations

import pytest
from llmbook.core.errors import AuthorError
from llmbook.execute.stages.report import BuildFailed


def _error(src: str, line: int) -> AuthorError:
    return AuthorError(src, line, "the quiz has no answer.", "mark one option with [x]")


@pytest.mark.parametrize(
    ("errors", "head"),
    [
        ([("docs/a.md", 3)], "1 page failed:"),
        ([("docs/a.md", 3), ("docs/b.md", 4)], "2 pages failed:"),
        ([("docs/a.md", 3), ("docs/a.md", 9)], "1 page failed with 2 errors:"),
        ([("docs/a.md", 3), ("docs/a.md", 9), ("docs/b.md", 1)], "2 pages failed with 3 errors:"),
    ],
)
def test_the_head_counts_pages_and_errors(errors: list[tuple[str, int]], head: str) -> None:
    report = BuildFailed([_error(src, line) for src, line in errors], [])
    lines = str(report).split("\n")
    assert lines[0] == head
    assert lines[1:] == [str(_error(src, line)) for src, line in errors]


def test_drifted_numbers_follow_the_failures() -> None:
    report = BuildFailed([_error("docs/a.md", 3)], ["docs/b.md:7: written 8, computed 12"])
    assert str(report).split("\n") == [
        "1 page failed:",
        "docs/a.md:3: the quiz has no answer. Fix: mark one option with [x]",
        "1 written number differs from the computation:",
        "docs/b.md:7: written 8, computed 12",
        "Fix: correct the written values, or run `python -m llmbook update-numbers` to rewrite "
        "them to the computed ones and review the diff.",
    ]

"""An error quotes at most `QUOTE_LIMIT` characters of the author's text (`errors.quoted`): a
700,000-character line in a page makes a report of a few KB, not of megabytes."""

from __future__ import annotations

import pickle

import pytest
from llmbook.core.errors import AuthorError, LLMBookError, quoted, quoted_lines

BIG = "a" * 700_000


def test_a_short_text_is_quoted_whole() -> None:
    assert quoted("x = 1") == "x = 1"
    assert quoted("b" * 200) == "b" * 200


def test_a_long_text_keeps_its_start_and_counts_what_was_cut() -> None:
    text = quoted(BIG)
    assert text == "a" * 173 + "… (699,827 more characters)"
    assert len(text) == 200
    assert quoted(text) == text  # quoting again changes nothing
    assert quoted("c" * 100, 60) == "c" * 38 + "… (62 more characters)"


def test_each_line_is_quoted() -> None:
    assert quoted_lines(f"head\n{BIG}\ntail") == f"head\n{quoted(BIG)}\ntail"


def test_no_line_of_an_author_error_is_longer_than_a_thousand_characters() -> None:
    """What a place that quotes missed is cut too, the message and the fix alike; a kept error
    (the stage cache pickles them) reads the same."""
    error = AuthorError("docs/x.md", 3, f"problem {BIG}\nsecond line", f"write {BIG}")
    lines = str(error).split("\n")
    assert lines[0] == "docs/x.md:3: problem " + "a" * 965 + "… (699,035 more characters)"
    assert lines[1] == "second line Fix: write " + "a" * 967 + "… (699,033 more characters)"
    assert max(len(line) for line in lines) < 1100
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


PAGES = {
    "docs/traceback.md": f"```python\nx = '{BIG}' + y\n```\n",
    "docs/assert.md": f"```python\nassert '{BIG}' == 1, '{BIG}'\n```\n",
    "docs/name.md": f"```python\nx = 1\n```\n\n[[{BIG} = 3]]\n",
    "docs/written.md": f"```python\nx = 1\n```\n\n[[x = {BIG}]]\n",
    "docs/directive.md": f":::{BIG} title\n:::\n\n::: {BIG}\n",
    "docs/marker.md": f"<!--pytest.mark.{BIG}-->\n```python\nx = 1\n```\n",
    "docs/output.md": (
        f"```python\nprint('{BIG}')\n```\n\n<!--pytest-codeblocks:expected-output-->\n```\nb\n```\n"
    ),
    "docs/drift.md": f"```python\nx = [1] * 100_000\n```\n\n[[x = [{', '.join(['2'] * 100_000)}]]]\n",
}


def test_a_report_of_pages_with_huge_lines_stays_small(make_executor) -> None:
    report = make_executor(cache=False).run_pages(list(PAGES.items()))
    with pytest.raises(LLMBookError) as raised:
        report.raise_if_failed()
    text = str(raised.value)
    assert len(text) < 8_000, text[:3000]
    failed = {e.src for e in report.failures} | {m.split(":")[0] for m in report.mismatches}
    assert failed == set(PAGES)
    for line in text.split("\n"):
        assert len(line) < 1100
    assert text.count("more characters)") >= len(PAGES)

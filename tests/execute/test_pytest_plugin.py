"""pytest collects the docs pages and runs them through the build's executor."""

from __future__ import annotations

import pytest


def test_pages_become_tests_reported_at_their_markdown_line(
    pytester: pytest.Pytester, monkeypatch
) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    pytester.makefile(
        ".md",
        **{
            "docs/ok": "```python hidden\nx = 0.5\n```\n\n一半是 [[x = 50%]]。\n",
            "docs/chapters/broken": "# 坏页\n\n```python\ny = 1\nz = y / 0\n```\n",
            "docs/drift": "```python hidden\nx = 0.5\n```\n\n一半是 [[x = 0.6]]，也是 [[x = 49%]]。\n",
            "docs/quoted": "---\nexecute: false\n---\n```python\nnn.Linear\n```\n",
            "docs/prose": "没有代码的页面不是测试。\n",
            "notes/outside": "```python\n1 / 0\n```\n",
        },
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q", "-rs")
    result.assert_outcomes(passed=1, failed=2, skipped=1)
    result.stdout.fnmatch_lines(
        [
            "*docs/chapters/broken.md:5: ZeroDivisionError: division by zero (python block at line 3)",
            '*File "docs/chapters/broken.md", line 5, in <module>',
            "docs/drift.md:5: written 0.6, computed 0.5 (rounds to 0.5)",
            "docs/drift.md:5: written 49%, computed 0.5 (rounds to 50%)",
            "*docs/quoted.md: `execute: false` in its front matter*",
        ]
    )

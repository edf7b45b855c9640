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
            "docs/drift.md:5: written 0.6, computed 0.5",
            "docs/drift.md:5: written 49%, computed 0.5 (rounds to 50%)",
            "*docs/quoted.md: does not run: `execute: false` in its front matter*",
        ]
    )


@pytest.mark.slow
def test_a_page_that_ends_its_process_fails_pytest_and_the_others_still_run(
    pytester: pytest.Pytester, monkeypatch
) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    pytester.makefile(
        ".md",
        **{
            "docs/a_exit": "```python\nimport os\nos._exit(0)\n```\n",
            "docs/b_ok": "```python hidden\nx = 2\n```\n\n[[x = 2]]\n",
        },
    )
    (pytester.path / "docs" / "c_bad.md").write_bytes(b"# ok\n\xff\xfe\n")
    (pytester.path / "docs" / "d_prose.md").write_bytes(b"plain \xe4\xb8\xad prose\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-q")
    assert result.ret == 1
    result.assert_outcomes(passed=1, failed=2)
    result.stdout.fnmatch_lines(
        [
            "docs/a_exit.md:1: the page's worker process exited with code * without finishing*",
            "docs/c_bad.md:2: the file is not valid UTF-8: byte 5 (0xff) cannot be decoded*",
        ]
    )


def test_notebooks_are_collected_and_checked(pytester: pytest.Pytester, monkeypatch) -> None:
    import json

    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    cells = [
        {
            "cell_type": "code",
            "metadata": {},
            "source": ["x = 3"],
            "outputs": [],
            "execution_count": None,
        },
        {"cell_type": "markdown", "metadata": {}, "source": ["三 [[x = 4]]"]},
    ]
    (pytester.path / "docs").mkdir()
    (pytester.path / "docs" / "nb.ipynb").write_text(
        json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["docs/nb.ipynb:cell 2, line 1: written 4, computed 3"])

"""`python -m llmbook update-numbers`: drifted written values become the computed ones, with a diff."""

from __future__ import annotations

from pathlib import Path

import pytest
from llmbook.execute.update import main

PAGE = """\
---
title: t
---
```python hidden
x = 2**31 / 1e9
v = [0.36512, 0.7302]
```

A [[x = 2.2]], [[x = 2.1]], [[v = [0.365, 0.731]]] | [[x * 100 = 2.1e2]] | $[[x / 4 = 60%]]$.
Cited [[29.9 @ Shazeer 2019]], illustrative [[~0.7]]; broken [[v = [1.0]]].
"""


def test_rewrites_drifted_values_and_prints_the_diff(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    assert main(["docs"]) == 1  # one value cannot be rewritten (vector length): exit 1
    out, err = capsys.readouterr()
    expected = (
        PAGE.replace("[[x = 2.2]]", "[[x = 2.1]]")
        .replace("[0.365, 0.731]", "[0.365, 0.730]")
        .replace("[[x / 4 = 60%]]", "[[x / 4 = 54%]]")
    )
    assert page.read_text(encoding="utf-8") == expected
    assert "-A [[x = 2.2]], [[x = 2.1]], [[v = [0.365, 0.731]]]" in out
    assert "+A [[x = 2.1]], [[x = 2.1]], [[v = [0.365, 0.730]]]" in out
    assert "update_numbers: 1 page(s) rewritten, 1 left to edit by hand" in out
    assert "docs/p.md:10: cannot rewrite [1.0] to [0.36512, 0.7302]; edit it by hand" in err


def test_keeps_the_files_line_ends_and_tabs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CRLF file with a tab before its number (read by the build with tabs expanded) gets only
    the number rewritten."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    page = tmp_path / "docs" / "p.md"
    page.parent.mkdir()
    text = "```python\r\nx = 2\r\n```\r\n\r\n-\tx is\t[[x = 3]], again [[x = 3]].\r\n"
    page.write_bytes(text.encode())
    assert main(["docs"]) == 0
    assert page.read_bytes().decode() == text.replace("= 3]]", "= 2]]")

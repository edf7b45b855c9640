"""A second book, NumPy only (tests/books/numpy_book: its own mkdocs.yml, Material, strict numbers):
it builds with its code run, numbers checked, a figure and a quiz, and a drifted number fails it.
The proof that the llmbook plugin is not the LLM book's alone."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sites import Built, build

pytestmark = pytest.mark.slow

BOOK = Path(__file__).parent / "numpy_book"
PAGE = "docs/least-squares.md"


def _build(tmp_path: Path, edit: tuple[str, str] | None = None) -> Built:
    root = tmp_path / "book"
    shutil.copytree(BOOK, root)
    if edit is not None:
        page = root / PAGE
        text = page.read_text(encoding="utf-8")
        assert edit[0] in text
        page.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    env = {"SOURCE_DATE_EPOCH": "1700000000"}
    return build(root / "mkdocs.yml", site=tmp_path / "site", strict=True, cache=False, env=env)


def test_the_numpy_book_builds_with_checked_numbers_a_figure_and_a_quiz(tmp_path: Path) -> None:
    for page in (BOOK / "docs").glob("*.md"):  # NumPy only: its preamble imports it, not llmkit
        assert "import llmkit" not in page.read_text(encoding="utf-8")
        assert "import numpy" not in page.read_text(encoding="utf-8")
    done = _build(tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"{PAGE}: ran in a worker process; numbers: 5 checked" in done.stderr
    html = (tmp_path / "site" / "least-squares.html").read_text(encoding="utf-8")
    assert "slope=2.116 intercept=0.955" in html  # the block's printed output
    assert html.count('<span class="llmbook-num" title=') == 5
    figure = re.search(r'<img src="(assets/llmbook/figures/\w+\.svg)" alt="最小二乘拟合"', html)
    assert figure is not None
    svg = (tmp_path / "site" / figure.group(1)).read_text(encoding="utf-8")
    assert svg.startswith('<svg role="img" aria-label="最小二乘拟合"')
    assert 'class="llmbook-quiz__question"' in html


def test_a_drifted_number_fails_the_numpy_book_at_its_line(tmp_path: Path) -> None:
    done = _build(tmp_path, ("[[slope = 2.12]]", "[[slope = 2.20]]"))
    assert done.returncode == 1
    assert f"{PAGE}:24: written 2.20, computed 2.1160302 (rounds to 2.12)" in done.stderr

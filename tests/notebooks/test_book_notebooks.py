"""THE PROOF: the book's own pages as notebooks (site/page_notebook.py). Chapter 10's and lesson 3's
notebooks from the project's built site (both editions) are valid, and Jupyter (nbclient and a
real ipykernel, started in the notebook's folder) re-runs every cell of them to the text the
build stored: streams, `Out` text and errors."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
from sites import project_site

from .rerun import rerun

pytestmark = pytest.mark.slow

NOTEBOOKS = [
    "chapters/ch10-modern-llm.ipynb",
    "lessons/lesson03-five-upgrades.ipynb",
    "en/chapters/ch10-modern-llm.ipynb",
    "en/lessons/lesson03-five-upgrades.ipynb",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return project_site(tmp_path_factory)


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_the_books_notebook_is_valid_and_reruns_to_the_same_text(site: Path, name: str) -> None:
    path = site / name
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    # written without nbformat (notebook_outputs.notebook_json): byte for byte what it writes
    assert path.read_text(encoding="utf-8") == nbformat.writes(notebook) + "\n"
    assert notebook.metadata.kernelspec.name == "python3"
    assert "llmbook-setup" in notebook.cells[0].metadata.tags
    found = rerun(path)
    assert found.failed == []
    assert found.differences == []
    assert found.equal == found.code_cells > 10


@pytest.mark.parametrize(
    ("page", "words"),
    [
        ("chapters/ch10-modern-llm.html", "下载本页的 Jupyter 笔记本"),
        ("en/chapters/ch10-modern-llm.html", "Download this page's Jupyter notebook"),
    ],
)
def test_each_edition_links_its_notebook_in_its_language(site: Path, page: str, words: str) -> None:
    html = (site / page).read_text(encoding="utf-8")
    found = re.search(r'<p class="llmbook-download"><a href="([^"]+)" download>([^<]+)</a>', html)
    assert found is not None and found.group(2).startswith(words)
    target = ((site / page).parent / unquote(found.group(1))).resolve()
    assert target == (site / page).with_suffix(".ipynb").resolve()

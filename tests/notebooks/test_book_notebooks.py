"""THE PROOF: the book's own pages as notebooks (site/page_notebook.py). Chapter 10's and lesson 3's
notebooks from the project's built site (both editions) are valid, and Jupyter (nbclient and a
real ipykernel, started in the notebook's folder) re-runs every cell of them to the text the
build stored: streams, `Out` text and errors."""

from __future__ import annotations

from pathlib import Path

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
    assert notebook.metadata.kernelspec.name == "python3"
    assert "llmbook-setup" in notebook.cells[0].metadata.tags
    found = rerun(path)
    assert found.failed == []
    assert found.differences == []
    assert found.equal == found.code_cells > 10

"""A notebook written for Jupyter Book (jupyter_book_style.ipynb: its cell tags, a pandas table,
a matplotlib figure, `display` of Markdown and LaTeX, an expected error) shows what Jupyter Book
would show: the same notebook benchmarks/compare_mkdocs_jupyter.py builds with mkdocs-jupyter."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sites import build, write_config

from .test_jupyter_corpus import CONFIG

pytestmark = pytest.mark.slow

NOTEBOOK = Path(__file__).with_name("jupyter_book_style.ipynb")


@pytest.fixture(scope="module")
def article(tmp_path_factory: pytest.TempPathFactory) -> Tag:
    root = tmp_path_factory.mktemp("book-style")
    (root / "docs").mkdir()
    shutil.copy(NOTEBOOK, root / "docs" / "book.ipynb")
    site = build(write_config(root, CONFIG), site=root / "site", in_process=True, cache=False).site
    page = BeautifulSoup((site / "book.html").read_text(encoding="utf-8"), "html.parser")
    return page.find("article")


def _in_details(article: Tag, text: str) -> bool:
    return any(text in d.get_text() for d in article.find_all("details"))


def _outside_details(article: Tag, text: str) -> bool:
    copy = BeautifulSoup(str(article), "html.parser")
    for details in copy.find_all("details"):
        details.decompose()
    return text in copy.get_text()


def test_remove_input_and_remove_cell_show_nothing_of_the_code(article: Tag) -> None:
    text = article.get_text()
    assert "import pandas" not in text
    assert "secret = 6 * 7" not in text


def test_a_dataframe_is_an_html_table(article: Tag) -> None:
    table = article.find("table", class_="dataframe")
    assert table is not None
    assert [td.get_text() for td in table.find_all("td")][:2] == ["embed", "4096"]


def test_hide_output_and_hide_input_collapse_their_part(article: Tag) -> None:
    assert _in_details(article, "step 2: loss 0.333")
    assert not _outside_details(article, "step 2: loss")
    assert _in_details(article, "print(secret)")
    assert _outside_details(article, "42")


def test_remove_output_keeps_the_code_only(article: Tag) -> None:
    text = article.get_text()
    assert '"not shown"' in text and "printed, not shown" not in text


def test_the_figure_and_displayed_markdown_are_shown(article: Tag) -> None:
    assert article.find("img", alt="squares") or article.find(
        "svg", attrs={"aria-label": "squares"}
    )
    assert article.find("strong", string="Bold") is not None


def test_an_expected_error_shows_its_traceback(article: Tag) -> None:
    assert "ZeroDivisionError: division by zero" in article.get_text()


def test_displayed_latex_is_a_formula(article: Tag) -> None:
    assert any("∫" in math.get_text() for math in article.find_all("math"))

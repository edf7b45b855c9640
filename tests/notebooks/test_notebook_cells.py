"""The parts of a Markdown page's notebook that need no build (site/page_notebook.py,
site/notebook_setup.py): the setup cell's code, Jupyter Book's tags, the `;` that keeps Jupyter
from showing what the build did not show, and the download left out of the editions."""

from __future__ import annotations

import pytest
from book_locales import EN
from bs4 import BeautifulSoup
from llmbook.directives import shipped
from llmbook.editions.print_form import print_form
from llmbook.execute.stages.tags import read_tags
from llmbook.site.notebook_setup import setup_code
from llmbook.site.page_notebook import block_tags, notebook_uri, quiet_last


def test_notebook_uri() -> None:
    assert notebook_uri("chapters/x.md") == "chapters/x.ipynb"
    assert notebook_uri("x y.md") == "x y.ipynb"


def test_the_setup_cell_holds_the_preamble_and_the_threads_asked() -> None:
    code = setup_code(EN, name="x.md", preamble="import math\n", seed=7, threads=4, torch=False)
    lines = code.splitlines()
    assert lines[lines.index("import math") - 1] == (
        "# The code every page of the book starts with (execute_preamble)"
    )
    assert not [line for line in lines if "torch" in line and not line.startswith("#")]
    assert "matplotlib" not in code  # a page that drew nothing: no fonts
    plain = setup_code(
        EN, name="x.md", preamble="", seed=0, threads=1, torch=False, figures="plain"
    )
    assert plain.splitlines()[-1] == (
        "matplotlib.rcParams.update({'font.family': 'sans-serif', 'font.sans-serif': "
        "['DejaVu Sans'], 'axes.unicode_minus': False})"
    )
    assert "noto" not in plain.replace("noto-cjk-sans-otc)", "")
    assert lines[-3:] == ["random.seed(7)", "numpy.random.seed(7)", "threadpool_limits(4)"]
    assert code.index("__file__") < code.index("import math") < code.index("random.seed")


@pytest.mark.parametrize(
    ("words", "tags"),
    [
        (["hidden"], ["remove-input"]),
        (["remove-cell"], ["remove-cell"]),
        (["hide-cell"], ["hide-cell"]),
        (["hide-input", "remove-output"], ["hide-input", "remove-output"]),
        (["raises-exception", "hide-input"], ["hide-input", "raises-exception"]),
        (["skip-execution"], []),
    ],
)
def test_block_tags_name_what_the_page_shows(words, tags) -> None:
    assert block_tags(read_tags(words)[0]) == tags


@pytest.mark.parametrize(
    ("code", "quiet"),
    [
        ("x", "x;"),
        ("x  # a comment", "x;  # a comment"),
        ("x;", "x;"),
        ("x ;  # quiet already", "x ;  # quiet already"),
        ("f(\n    1,\n)\n", "f(\n    1,\n);\n"),
        ("名 = 1\n名 + 1  # 注", "名 = 1\n名 + 1;  # 注"),  # offsets are bytes, not characters
        ("print(1)", "print(1)"),
        ("display(x)", "display(x)"),
        ("x = 1", "x = 1"),
        ("%time x", "%time x"),  # not Python: left as it is
        ("", ""),
    ],
)
def test_quiet_last(code, quiet) -> None:
    assert quiet_last(code) == quiet


def test_the_editions_leave_the_download_out() -> None:
    html = (
        '<p class="llmbook-download"><a href="x.ipynb" download>Download</a></p>\n'
        "<h1>Title</h1><p>Text</p>"
    )
    printed = print_form(html, locale=EN, directives=shipped()).html
    soup = BeautifulSoup(printed, "html.parser")
    assert soup.select(".llmbook-download") == []
    assert "Download" not in soup.get_text()
    assert "Text" in soup.get_text()

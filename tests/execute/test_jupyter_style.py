"""A notebook written as Jupyter Book users write them, in a real build of the project's config:
tags, a pandas table, a matplotlib figure, Markdown and LaTeX displays, an expected error, a
shell command, stderr. The reference is what Jupyter Book shows for the same notebook: code
removed or collapsed as tagged, the DataFrame's own HTML table, LaTeX typeset, the traceback as
text; and what a Jupyter kernel stores in the executed download."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from sites import ROOT, build, project_config, write_config, write_pages

pytestmark = pytest.mark.slow

CELLS = [
    ("markdown", "# Jupyter Book 风格的笔记本", []),
    (
        "code",
        "%matplotlib inline\nimport pandas as pd\nimport matplotlib.pyplot as plt",
        ["remove-cell"],
    ),
    ("code", "df = pd.DataFrame({'层数': [24, 32], '头数': [16, 32]}, index=['小', '大'])\ndf", []),
    ("code", "print('secret setup')\nvalue = 7", ["remove-input"]),
    (
        "code",
        "fig, ax = plt.subplots(figsize=(3, 2))\nax.plot([1, 3, 2])\nax.set_title('曲线')\nplt.show()",
        ["hide-input"],
    ),
    (
        "code",
        "from IPython.display import Latex, Markdown, display\ndisplay(Markdown('**粗体** 文本'))\ndisplay(Latex(r'$$\\frac{a}{b}$$'))",
        [],
    ),
    ("code", "import warnings\nwarnings.warn('留意这一步')\nprint('done')", ["hide-output"]),
    ("code", "1 / 0", ["raises-exception"]),
    ("code", "!echo from-the-shell", []),
    (
        "code",
        "import io\nfrom IPython.display import Image\nbuf = io.BytesIO()\nplt.figure(figsize=(1, 1)).savefig(buf, format='png')\nplt.close('all')\nImage(data=buf.getvalue())",
        [],
    ),
]


def _notebook() -> str:
    cells = [
        {
            "cell_type": kind,
            "metadata": {"tags": tags},
            "source": text.splitlines(True),
            **({"outputs": [], "execution_count": None} if kind == "code" else {}),
        }
        for kind, text, tags in CELLS
    ]
    # As Jupyter writes it, but with a kernelspec lacking its name (repaired with a log line).
    metadata = {"kernelspec": {"display_name": "Python 3", "language": "python"}}
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jb")
    docs = root / "docs"
    write_pages(docs, {"index.md": "# 首页\n", "jb.ipynb": _notebook()})
    config = project_config(docs, [{"首页": "index.md"}, {"笔记本": "jb.ipynb"}])
    build(
        write_config(root, config),
        site=root / "site",
        strict=True,
        cache=False,
        cwd=ROOT,
        env={"SOURCE_DATE_EPOCH": "1700000000"},
    )
    return root / "site"


def _article(site: Path) -> str:
    html = (site / "jb.html").read_text(encoding="utf-8")
    return html[html.index("<article") : html.index("</article>")]


def test_tags_remove_and_collapse_as_jupyter_book_does(built: Path) -> None:
    page = _article(built)
    assert "import pandas" not in page and "%matplotlib" not in page  # remove-cell
    assert "secret setup" in page and "value = 7" not in page  # remove-input: output stays
    hidden = re.findall(r'<details class="llmbook-hide"><summary>(.*?)</summary>', page)
    assert hidden == ["显示代码", "显示输出"]  # hide-input, hide-output
    assert page.index("曲线") > page.index("显示代码")


def test_a_dataframe_is_its_own_html_table(built: Path) -> None:
    page = _article(built)
    table = page[page.index('<table border="1" class="dataframe">') :]
    table = table[: table.index("</table>")]
    assert re.findall(r"<th>(.*?)</th>", table) == ["", "层数", "头数", "小", "大"]
    assert re.findall(r"<td>(.*?)</td>", table) == ["24", "16", "32", "32"]
    css = (built / "assets" / "llmbook" / "execute" / "execute.css").read_text(encoding="utf-8")
    assert ".llmbook-display table.dataframe" in css


def test_markdown_and_latex_displays_are_typeset(built: Path) -> None:
    page = _article(built)
    assert "<strong>粗体</strong> 文本" in page
    latex = page[page.index("llmbook-display--latex") :]
    assert latex.index("<mfrac>") < latex.index("</div>")  # MathML from our math step, no $$


def test_errors_warnings_and_the_shell_read_as_text(built: Path) -> None:
    page = _article(built)
    assert "ZeroDivisionError: division by zero" in page and "\x1b[" not in page
    assert 'llmbook-output--stderr"><span class="llmbook-output-label">标准错误' in page
    assert "UserWarning: 留意这一步" in page
    assert "from-the-shell" in page


def test_the_download_keeps_jupyters_outputs(built: Path) -> None:
    notebook = nbformat.reads((built / "jb.ipynb").read_text(encoding="utf-8"), as_version=4)
    nbformat.validate(notebook)
    outputs = [[o.output_type for o in c.outputs] for c in notebook.cells if c.cell_type == "code"]
    assert outputs == [
        [],
        ["execute_result"],
        ["stream"],
        ["display_data"],
        ["display_data", "display_data"],
        ["stream", "stream"],
        ["error"],
        ["stream"],
        ["execute_result"],
    ]
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert "text/html" in cells[1].outputs[0].data  # the DataFrame's table, as a kernel keeps it
    assert [o.name for o in cells[5].outputs] == ["stderr", "stdout"]
    assert notebook.metadata.kernelspec.name == "python3"  # repaired


def test_a_png_output_is_a_file_of_the_site(built: Path) -> None:
    page = _article(built)
    (src,) = re.findall(r'<img src="(assets/llmbook/figures/[0-9a-f]{24}\.png)"', page)
    assert (built / src).read_bytes().startswith(b"\x89PNG\r\n\x1a\n")

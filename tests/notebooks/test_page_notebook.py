"""Every Markdown page that ran code is also a notebook beside it in the site (site/page_notebook.py),
in a real build: its cells in page order after a setup cell, Jupyter Book's tags, the build's
outputs, a Python kernelspec, valid under nbformat, linked from the page under both URL styles
and by Zensical, taken from the store on a warm build, and re-run by Jupyter to the same text.
The parts that need no build: test_notebook_cells.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest
from book_locales import EN
from llmbook.site.notebook_setup import setup_code
from sites import Built, build, write_config, write_pages

from .rerun import rerun

pytestmark = pytest.mark.slow

PAGE = """# Page

Intro text.

```python
from pathlib import Path

data = (Path(__file__).parent / "data.txt").read_text(encoding="utf-8")
print(data.strip())
```

Some prose.

```python hidden
import random

secret = round(random.random(), 6)
print(secret)
```

```python remove-output
x = 6 * 7
x  # the answer
```

```python raises-exception
1 / 0
```

```python hide-output
import matplotlib.pyplot as plt
from IPython.display import HTML, display

fig, ax = plt.subplots()
ax.plot([1, 2])
ax.set_title("line")
display(HTML("<b>hi</b>"))
```

```python norun
print("never")
```
"""

PAGES = {
    "index.md": "# Home\n\nNo code here.\n",
    "sub/page.md": PAGE,
    "sub/data.txt": "from a file\n",
}


def _config(directory_urls: bool) -> dict:
    return {
        "site_name": "t",
        "use_directory_urls": directory_urls,
        "theme": {"name": "mkdocs", "highlightjs": False},  # no CDN: the offline check passes
        "plugins": ["llmbook"],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }


def _site(root: Path, directory_urls: bool = True, **options) -> Built:
    write_pages(root / "docs", PAGES)
    config = write_config(root, _config(directory_urls))
    return build(config, site=root / "site", strict=True, **options).ok()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Built:
    return _site(tmp_path_factory.mktemp("notebook"), cache=False)


@pytest.fixture(scope="module")
def notebook(built: Built) -> nbformat.NotebookNode:
    return nbformat.read(built.site / "sub/page.ipynb", as_version=4)


def _source(cell) -> str:
    return "".join(cell.source)


def test_the_cells_follow_the_page_after_the_setup_cell(notebook) -> None:
    # The prose's cells are notebook_prose.py's (tested there); here, that they come in order.
    kinds = [cell.cell_type for cell in notebook.cells]
    assert kinds[:4] == ["code", "markdown", "code", "markdown"]
    assert "Intro text." in _source(notebook.cells[1])
    assert "Some prose." in _source(notebook.cells[3])
    code = [_source(cell) for cell in notebook.cells[1:] if cell.cell_type == "code"]
    assert [text.splitlines()[0] for text in code] == [
        "from pathlib import Path",
        "import random",
        "x = 6 * 7",
        "1 / 0;",
        "import matplotlib.pyplot as plt",
    ]  # a block that did not run (`norun`) is no code cell
    assert [cell.id for cell in notebook.cells] == [f"cell-{n}" for n in range(1, len(kinds) + 1)]
    counts = [cell.execution_count for cell in notebook.cells if cell.cell_type == "code"]
    assert counts == [1, 2, 3, 4, 5, 6]


def test_the_setup_cell_does_what_the_build_did_before_the_first_block(notebook) -> None:
    setup = notebook.cells[0]
    assert setup.metadata.tags == ["llmbook-setup"]
    assert setup.outputs == []
    assert _source(setup) == setup_code(
        EN, name="page.md", preamble="", seed=0, threads=1, torch=True, figures="cjk"
    )
    assert _source(setup).splitlines() == [
        "# What the build did before this page's first block: run this cell first, from the "
        "notebook's own folder",
        "# NumPy's and torch's math libraries on one thread, as in the build (set before they "
        "load)",
        "import os",
        "",
        'os.environ.setdefault("OMP_NUM_THREADS", "1")',
        "# The page's file: the files beside the page lie in this notebook's folder, so "
        "Path(__file__).parent / 'data.csv' finds them",
        "__file__ = os.path.abspath('page.md')",
        "",
        "# The same random state as the build (seed 0), torch on 1 thread(s) with deterministic "
        "algorithms",
        "import random",
        "",
        "import numpy",
        "import torch",
        "",
        "random.seed(0)",
        "numpy.random.seed(0)",
        "torch.manual_seed(0)",
        "torch.set_num_threads(1)",
        "torch.use_deterministic_algorithms(True)",
        "",
        "# The figures' fonts as the build draws them (the CJK font comes with pip install "
        "noto-cjk-sans-otc)",
        "import matplotlib",
        "import noto_cjk_sans_otc",
        "from matplotlib import font_manager",
        "",
        "font_manager.fontManager.addfont(str(noto_cjk_sans_otc.FONT_PATH))",
        "matplotlib.rcParams.update({'font.family': 'sans-serif', 'font.sans-serif': "
        "['Noto Sans CJK SC', 'DejaVu Sans'], 'axes.unicode_minus': False})",
    ]


def test_hidden_blocks_keep_jupyter_books_tags(notebook) -> None:
    code = [cell for cell in notebook.cells[1:] if cell.cell_type == "code"]
    assert [cell.metadata.get("tags") for cell in code] == [
        None,
        ["remove-input"],
        ["remove-output"],
        ["raises-exception"],
        ["hide-output"],
    ]
    assert code[4].metadata.jupyter == {"outputs_hidden": True}


def test_outputs_are_as_the_build_produced_them(notebook) -> None:
    code = [cell for cell in notebook.cells[1:] if cell.cell_type == "code"]
    assert code[0].outputs == [{"output_type": "stream", "name": "stdout", "text": "from a file\n"}]
    assert code[1].outputs[0].text == "0.844422\n"  # random.seed(0), as the build seeds it
    assert code[2].outputs == []  # the build showed no `Out` for `x`
    error = code[3].outputs[0]
    assert (error.output_type, error.ename, error.evalue) == (
        "error",
        "ZeroDivisionError",
        "division by zero",
    )
    kinds = [(o.output_type, sorted(o.data)) for o in code[4].outputs]
    assert kinds == [
        ("display_data", ["text/html", "text/plain"]),
        ("display_data", ["image/svg+xml", "text/plain"]),
    ]
    assert code[4].outputs[1].data["text/plain"] == "line"  # the figure's alt text
    assert code[4].outputs[1].data["image/svg+xml"].lstrip().startswith(("<?xml", "<svg"))


def test_a_last_expression_the_build_did_not_show_ends_with_a_semicolon(notebook) -> None:
    assert _source(notebook.cells[5]) == "x = 6 * 7\nx;  # the answer"


def test_metadata_is_a_python_kernel_and_the_notebook_is_valid(notebook, built) -> None:
    nbformat.validate(notebook)
    # written by the standard library in nbformat's layout: byte for byte nbformat's own text
    written = (built.site / "sub/page.ipynb").read_text(encoding="utf-8")
    assert written == nbformat.writes(notebook) + "\n"
    assert notebook.metadata.kernelspec == {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    assert notebook.metadata.language_info.name == "python"
    assert (notebook.nbformat, notebook.nbformat_minor) >= (4, 5)


def test_a_page_without_code_has_no_notebook_and_no_link(built: Built) -> None:
    assert not (built.site / "index.ipynb").exists()
    assert "llmbook-download" not in built.page("index.html")


@pytest.mark.parametrize(("directory_urls", "page"), [(True, "sub/page/index.html"),
                                                      (False, "sub/page.html")])  # fmt: skip
def test_the_link_reaches_the_notebook(tmp_path, directory_urls, page) -> None:
    site = _site(tmp_path, directory_urls, cache=False).site
    html = (site / page).read_text(encoding="utf-8")
    found = re.search(r'<p class="llmbook-download"><a href="([^"]+)" download>([^<]+)</a>', html)
    assert found is not None
    assert found.group(2) == EN.ui("notebook_download")
    assert ((site / page).parent / unquote(found.group(1))).resolve() == (
        site / "sub/page.ipynb"
    ).resolve()


def test_a_warm_build_takes_the_notebook_from_the_store(tmp_path) -> None:
    cache = tmp_path / "cache"
    first = _site(tmp_path, cache=cache)
    before = (first.site / "sub/page.ipynb").read_bytes()
    second = build(tmp_path / "mkdocs.yml", site=tmp_path / "site", strict=True, cache=cache)
    assert re.search(r"notebooks 1/1\b", second.ok().stderr), second.stderr[-2000:]
    assert (second.site / "sub/page.ipynb").read_bytes() == before


def test_a_markdown_page_beside_a_notebook_page_leaves_it_the_name(make_site) -> None:
    cell = {"cell_type": "code", "metadata": {}, "source": ["print(1)"], "outputs": [],
            "execution_count": None}  # fmt: skip
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    pages = {"index.md": "# Home\n", "a/x.md": "# X\n\n```python\nprint(2)\n```\n",
             "a/y.ipynb": json.dumps(notebook), "a/y.md": "# Y\n\n```python\nprint(3)\n```\n"}  # fmt: skip
    built = make_site(pages, _config(False), strict=True, cache=False)
    assert built.returncode != 0
    assert (
        "docs/a/y.md:1: the page's notebook would be a/y.ipynb, which the notebook page beside "
        "it already is; it is left out. Fix: rename one of the two pages"
    ) in built.stderr


def test_jupyter_reruns_it_to_the_same_text(built: Built) -> None:
    found = rerun(built.site / "sub/page.ipynb", timeout=120)
    assert (found.code_cells, found.failed, found.differences) == (6, [], [])
    assert found.equal == 6


def test_zensical_writes_and_links_the_notebook_as_it_renders_the_page(tmp_path) -> None:
    pytest.importorskip("zensical")
    write_pages(tmp_path / "docs", PAGES)
    write_config(tmp_path, {**_config(False), "theme": {"name": "material"}})  # Zensical's
    built = build(tmp_path / "mkdocs.yml", engine="zensical", cache=False, args=["--clean"])
    assert built.returncode == 0, built.stderr[-3000:]
    site = tmp_path / "site"
    html = next(site.glob("sub/page*/index.html"), None) or site / "sub/page.html"
    found = re.search(r'<p class="llmbook-download"><a href="([^"]+)" download>', html.read_text())
    assert found is not None
    target = (html.parent / unquote(found.group(1))).resolve()
    assert target == (site / "sub/page.ipynb").resolve()
    nbformat.validate(nbformat.read(target, as_version=4))
    assert not (site / "index.ipynb").exists()


def test_the_differences_the_guide_states_are_the_only_ones(tmp_path) -> None:
    """A warning's location and an expected SyntaxError's value name the page in the build, the
    kernel's cell file in Jupyter (docs/guide/executable.md, "run this page yourself")."""
    page = (
        "# W\n\n```python raises-exception\nx[(:, 1)]\n```\n\n"
        '```python\nimport warnings\n\nwarnings.warn("careful")\n```\n'
    )
    write_pages(tmp_path / "docs", {"index.md": page})
    config = write_config(tmp_path, _config(False))
    site = build(config, site=tmp_path / "site", cache=False).ok().site
    found = rerun(site / "index.ipynb", timeout=120)
    assert found.failed == [] and found.equal == 1
    syntax, warned = found.differences
    assert syntax[1:3] == ("errors", [["SyntaxError", "invalid syntax (docs/index.md, line 4)"]])
    assert syntax[3][0][0] == "SyntaxError" and syntax[3][0][1].endswith(".py, line 1)")
    assert warned[1:3] == (
        "stderr",
        'docs/index.md:10: UserWarning: careful\n  warnings.warn("careful")\n',
    )
    # the line as the notebook has it: a last bare expression the build did not show ends in `;`
    assert re.fullmatch(
        r'\S+\.py:3: UserWarning: careful\n  warnings.warn\("careful"\);\n', warned[3]
    )

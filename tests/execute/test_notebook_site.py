"""A notebook in a real build (the project's mkdocs.yml and the whole plugin): rendered as a page of
the site, its download executed, byte-identical across builds, its drift failing the build."""

from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
import pytest
from sites import (
    ROOT,
    Built,
    build,
    masked_provenance,
    project_config,
    write_config,
    write_pages,
)

pytestmark = pytest.mark.slow

CELLS = [
    ("markdown", "# 小笔记本\n\n公式 $d = 256$ 照常渲染。"),
    (
        "code",
        "import torch\nimport matplotlib.pyplot as plt\nx = torch.randn(5)\nprint(x.round(decimals=4).tolist())",
    ),
    ("markdown", "五个数的和是 [[round(x.sum().item(), 4) = SUM]]。"),
    (
        "code",
        "fig, ax = plt.subplots(figsize=(3, 2))\nax.plot(x.numpy())\nax.set_title('随机数')\nplt.show()",
    ),
]


def _notebook(total: str) -> str:
    cells = [
        {
            "cell_type": kind,
            "metadata": {},
            "source": text.replace("SUM", total).splitlines(True),
            **({"outputs": [], "execution_count": None} if kind == "code" else {}),
        }
        for kind, text in CELLS
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _build(root: Path, notebook: str, site: str) -> Built:
    docs = root / "docs"
    write_pages(docs, {"index.md": "# 首页\n\n见[笔记本](nb.ipynb)。\n", "nb.ipynb": notebook})
    config = project_config(docs, [{"首页": "index.md"}, {"笔记本": "nb.ipynb"}])
    return build(
        write_config(root, config),
        site=root / site,
        strict=True,
        cache=False,
        cwd=ROOT,
        env={"SOURCE_DATE_EPOCH": "1700000000"},
    )


@pytest.fixture(scope="module")
def total(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The sum the page computes (seed 0), read from a build of a deliberately drifted page."""
    root = tmp_path_factory.mktemp("probe")
    done = _build(root, _notebook("0.0000"), "site")
    assert done.returncode == 1
    line = next(x for x in done.stderr.split("\n") if x.startswith("docs/nb.ipynb:cell 3, line 1"))
    # `written 0.0000, computed 1.2345` (at the written precision: no "rounds to")
    return line.split("rounds to ")[1].rstrip(")") if "rounds to" in line else line.split()[-1]


def test_the_notebook_builds_identically_twice_with_its_download(
    tmp_path: Path, total: str
) -> None:
    first = _build(tmp_path, _notebook(total), "site1")
    assert first.returncode == 0, first.stderr
    second = _build(tmp_path, _notebook(total), "site2")
    assert second.returncode == 0, second.stderr
    files = {
        p.relative_to(tmp_path / "site1").as_posix()
        for p in (tmp_path / "site1").rglob("*")
        if p.is_file()
    }
    # the record of what computed the page (when, how long) masked: all else is the same
    one, two = (
        masked_provenance({f: (tmp_path / site / f).read_bytes() for f in sorted(files)})
        for site in ("site1", "site2")
    )
    assert [f for f in sorted(files) if one[f] != two[f]] == []
    html = (tmp_path / "site1" / "nb.html").read_text(encoding="utf-8")
    assert "<math" in html and "$d" not in html  # math in Markdown cells is rendered
    figure = re.search(r'<figure class="llmbook-figure"><img src="([^"]+)" alt="随机数"', html)
    assert figure and figure.group(1).startswith("assets/llmbook/figures/")
    svg = (tmp_path / "site1" / figure.group(1)).read_text(encoding="utf-8")
    assert svg.startswith('<svg role="img" aria-label="随机数"')
    assert '<a href="nb.ipynb" download>' in html
    assert 'href="nb.html"' in (tmp_path / "site1" / "index.html").read_text(encoding="utf-8")
    executed = json.loads((tmp_path / "site1" / "nb.ipynb").read_text(encoding="utf-8"))
    outputs = [c["outputs"] for c in executed["cells"] if c["cell_type"] == "code"]
    assert outputs[0][0]["output_type"] == "stream"
    assert outputs[1][0]["data"]["text/plain"] == ["随机数"]
    # The download is a valid notebook by the Jupyter schema, read back as Jupyter reads it.
    downloaded = nbformat.read(tmp_path / "site1" / "nb.ipynb", as_version=4)
    nbformat.validate(downloaded)
    assert [c.get("id") for c in downloaded.cells] == ["cell-1", "cell-2", "cell-3", "cell-4"]


def test_a_drifted_number_in_a_notebook_fails_the_build_at_its_cell(
    tmp_path: Path, total: str
) -> None:
    done = _build(tmp_path, _notebook("99.9999"), "site")
    assert done.returncode == 1
    assert f"docs/nb.ipynb:cell 3, line 1: written 99.9999, computed {total}" in done.stderr


def test_cell_tags_in_a_real_build(tmp_path: Path) -> None:
    tagged = [
        ("code", "import torch\nsecret = 6", ["remove-cell"]),
        ("code", "print(secret * 7)", ["hide-input"]),
        ("code", "print('前')\nraise ValueError('故意的')", ["raises-exception"]),
        ("code", "print(secret)", ["remove-output"]),
        ("code", "x[(:, 1)]", ["raises-exception"]),  # does not parse, on purpose
        ("code", "print('之后')", []),
    ]
    cells = [
        {
            "cell_type": kind,
            "metadata": {"tags": tags},
            "source": text.splitlines(True),
            "outputs": [],
            "execution_count": None,
        }
        for kind, text, tags in tagged
    ]
    notebook = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# 标签\n"]}, *cells],
        "metadata": {"kernelspec": {"display_name": "Python 3"}},  # no name: repaired
        "nbformat": 4,
        "nbformat_minor": 4,
    }
    done = _build(tmp_path, json.dumps(notebook, ensure_ascii=False), "site")
    assert done.returncode == 0, done.stderr
    assert "docs/nb.ipynb: repaired the missing metadata.kernelspec.name" in done.stderr
    html = (tmp_path / "site" / "nb.html").read_text(encoding="utf-8")
    assert "secret = 6" not in html and "<code>6</code>" not in html
    assert re.search(r'<details class="llmbook-hide"><summary>显示代码</summary>\s*<div', html)
    assert "<code>42</code>" in html
    assert (
        "前\nTraceback (most recent call last):\n  File &quot;docs/nb.ipynb&quot;, cell 4, line 2"
        in html
    )
    assert (
        "<pre><code>  File &quot;docs/nb.ipynb&quot;, cell 6, line 1\n    x[(:, 1)]\n"
        "       ^\nSyntaxError: invalid syntax</code></pre>"
    ) in html
    assert "<pre><code>之后</code></pre>" in html
    executed = json.loads((tmp_path / "site" / "nb.ipynb").read_text(encoding="utf-8"))
    assert [c["metadata"].get("tags") for c in executed["cells"]][2:4] == [
        ["hide-input"],
        ["raises-exception"],
    ]
    error = executed["cells"][3]["outputs"][-1]
    assert (error["output_type"], error["ename"], error["evalue"]) == (
        "error",
        "ValueError",
        "故意的",
    )
    syntax = executed["cells"][5]["outputs"][-1]
    assert (syntax["ename"], syntax["evalue"]) == (
        "SyntaxError",
        "invalid syntax (docs/nb.ipynb, cell 6, line 1)",
    )
    assert executed["metadata"]["kernelspec"]["name"] == "python3"

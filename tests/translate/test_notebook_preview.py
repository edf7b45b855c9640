"""A translated notebook (`x.en.ipynb`) is proven like a translated page, and the live preview
of the English edition shows a translation's errors on its page instead of stopping."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sites import build, write_config, write_pages

pytestmark = pytest.mark.slow


def _notebook(title: str, code: str, text: str) -> str:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [title]},
        {
            "cell_type": "code",
            "metadata": {},
            "source": [code],
            "outputs": [],
            "execution_count": None,
        },
        {"cell_type": "markdown", "metadata": {}, "source": [text]},
    ]
    kernel = {"kernelspec": {"name": "python3", "display_name": "Python 3"}}
    return json.dumps({"cells": cells, "metadata": kernel, "nbformat": 4, "nbformat_minor": 5})


def _book(root: Path, pages: dict[str, str]) -> Path:
    """A two-language book: mkdocs.yml (Chinese) and mkdocs.en.yml (English, into site/en)."""
    write_pages(root / "docs", {"index.md": "# 首页\n", **pages})  # the home the theme links
    options = {"languages": ["zh", "en"], "translations_strict": True}
    config = {
        "site_name": "t",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs", "highlightjs": False, "language": "zh"},
        "plugins": [{"llmbook": options}],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }
    write_config(root, config)
    english = {"INHERIT": "mkdocs.yml", "theme": {"language": "en"}, "site_dir": "site/en"}
    (root / "mkdocs.en.yml").write_text(json.dumps(english), encoding="utf-8")
    return root / "mkdocs.en.yml"


def test_a_translated_notebook_runs_as_its_source_and_drifts_at_its_cell(tmp_path: Path) -> None:
    english = _book(
        tmp_path,
        {
            "nb.ipynb": _notebook("# 笔记本", "x = 2 * 3  # 乘法\nprint(x)", "结果是 [[x = 6]]。"),
            "nb.en.ipynb": _notebook(
                "# Notebook", "x = 2 * 3  # product\nprint(x)", "The result is [[x = 7]]."
            ),
        },
    )
    from llmbook.translate.__main__ import main as translate

    config = str(tmp_path / "mkdocs.yml")
    # It corresponds (the same code, the same bound expression): marked; the build checks values.
    assert translate(["-f", config, "mark", str(tmp_path / "docs/nb.en.ipynb")]) == 0
    built = build(english, strict=True, cache=False)
    assert built.returncode != 0
    assert "docs/nb.en.ipynb:cell 3, line 1: written 7, computed 6" in built.stderr

    text = (
        (tmp_path / "docs/nb.en.ipynb")
        .read_text(encoding="utf-8")
        .replace("[[x = 7]]", "[[x = 6]]")
    )
    (tmp_path / "docs/nb.en.ipynb").write_text(text, encoding="utf-8")
    build(tmp_path / "mkdocs.yml", strict=True, cache=False).ok()
    build(english, strict=True, cache=False).ok()
    page = (tmp_path / "site/en/nb.html").read_text(encoding="utf-8")
    assert "The result is" in page and "# product" in page and "6" in page
    assert '<a href="nb.ipynb" download>' in page  # the translated notebook, with its outputs:
    download = json.loads((tmp_path / "site/en/nb.ipynb").read_text(encoding="utf-8"))
    assert "".join(download["cells"][1]["source"]) == "x = 2 * 3  # product\nprint(x)"
    assert download["cells"][1]["outputs"][0]["text"] == ["6\n"]
    assert not (tmp_path / "site/nb.en.html").exists()  # the Chinese site leaves translations out


def test_the_live_preview_shows_a_translations_error_on_its_page(tmp_path: Path) -> None:
    english = _book(
        tmp_path,
        {
            "a.md": "# 页\n\n```python\nx = 2\n```\n\n值是 [[x = 2]]。\n",
            "a.en.md": "# Page\n\n```python\nx = 3\n```\n\nThe value is [[x = 2]].\n",
        },
    )
    build(english, in_process=True, command="serve", cache=False)
    page = (tmp_path / "site/en/a.html").read_text(encoding="utf-8")
    assert "this python block differs from its source&#x27;s (docs/a.md:3)" in page or (
        "this python block differs from its source's (docs/a.md:3)" in page
    )
    # in the page's language: the English edition's preview speaks English
    assert "Build error 1" in page and "构建错误" not in page


def test_an_untranslated_notebook_runs_once_for_both_editions(tmp_path: Path) -> None:
    """The English build takes the Chinese build's results; the untitled figure is described in
    each edition's words (llmbook's words are the edition's, the author's as written)."""
    english = _book(
        tmp_path,
        {
            "nb.ipynb": _notebook(
                "# 图",
                "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.xlabel('步')",
                "画了一条线。",
            )
        },
    )
    cache = tmp_path / "cache"
    zh = build(tmp_path / "mkdocs.yml", strict=True, cache=cache).ok()
    en = build(english, strict=True, cache=cache).ok()
    assert "docs/nb.ipynb: ran in a worker process" in zh.stderr
    assert "docs/nb.ipynb: results from the cache" in en.stderr
    page = (tmp_path / "site/en/nb.html").read_text(encoding="utf-8")
    assert 'alt="Figure drawn by cell 2; x axis: 步"' in page
    assert "第 2 个单元格画的图；x 轴：步" in (tmp_path / "site/nb.html").read_text(
        encoding="utf-8"
    )


def test_the_two_editions_built_in_turn_keep_each_others_caches(tmp_path: Path) -> None:
    """A page shown in both editions has a rendered page and a conversion per edition, and each
    site its offline record: building one edition does not evict the other's."""
    english = _book(
        tmp_path,
        {
            "a.md": "# 页\n\n```python\nx = 2\n```\n\n值是 [[x = 2]]。\n",
            "a.en.md": "# Page\n\n```python\nx = 2\n```\n\nThe value is [[x = 2]].\n",
            "b.md": "# 未译\n\n正文。\n",
        },
    )
    from llmbook.translate.__main__ import main as translate

    assert (
        translate(["-f", str(tmp_path / "mkdocs.yml"), "mark", str(tmp_path / "docs/a.en.md")]) == 0
    )
    cache = tmp_path / "cache"
    logs = [
        build(config, strict=True, cache=cache).ok().stderr
        for config in (tmp_path / "mkdocs.yml", english) * 2
    ]
    for log in logs[2:]:
        (line,) = [row for row in log.splitlines() if "cache hits: " in row]
        counts = [
            part.split(" ")[1].split("/") for part in line.split("cache hits: ")[1].split(", ")
        ]
        assert all(hits == reads for hits, reads in counts), line
        assert "converted 3/3" in line and "offline 1/1" in line  # index, a, b
    # the untranslated page's text is marked as Chinese; the note saying so is not
    untranslated = (tmp_path / "site/en/b.html").read_text(encoding="utf-8")
    assert '<div lang="zh"><h1 id=' in untranslated
    assert '</div><p class="llmbook-untranslated">This page has not been translated' in untranslated
    assert '<div lang="zh">' not in (tmp_path / "site/en/a.html").read_text(encoding="utf-8")


def test_a_translated_notebooks_untitled_figure_is_described_in_english_and_runs_once(
    tmp_path: Path,
) -> None:
    code = "import matplotlib.pyplot as plt\nplt.plot([1, 2])"
    english = _book(
        tmp_path,
        {
            "nb.ipynb": _notebook("# 图", code, "画了一条线。"),
            "nb.en.ipynb": _notebook("# Figure", code, "It draws a line."),
        },
    )
    from llmbook.translate.__main__ import main as translate

    assert (
        translate(["-f", str(tmp_path / "mkdocs.yml"), "mark", str(tmp_path / "docs/nb.en.ipynb")])
        == 0
    )
    cache = tmp_path / "cache"
    build(tmp_path / "mkdocs.yml", strict=True, cache=cache).ok()
    en = build(english, strict=True, cache=cache).ok()
    assert "(0 pages run)" in en.stderr  # the Chinese build's results serve both
    theirs = (tmp_path / "site/nb.html").read_text(encoding="utf-8")
    ours = (tmp_path / "site/en/nb.html").read_text(encoding="utf-8")
    assert 'alt="第 2 个单元格画的图"' in theirs and 'alt="Figure drawn by cell 2"' in ours
    (figure,) = re.findall(r'<img src="(assets/llmbook/figures/[0-9a-f]+\.svg)"', ours)
    svg = (tmp_path / "site/en" / figure).read_text(encoding="utf-8")
    assert 'aria-label="Figure drawn by cell 2"' in svg
    assert "<title>Figure drawn by cell 2</title>" in svg

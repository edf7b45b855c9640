"""Links a notebook makes as Jupyter makes heading anchors (`#Big-O-Notation`: the heading's text,
spaces made hyphens) resolve on the built pages, within a notebook, between notebooks and from a
Markdown page, under MkDocs' `--strict` anchor validation; a fragment that names no heading still
fails it (issue 43)."""

from __future__ import annotations

import json
import re

import pytest
from llmbook.core.jupyter_anchors import jupyter_id, nbconvert_id
from sites import build, write_config, write_pages

CONFIG = {
    "site_name": "t",
    "theme": {"name": "material", "font": False},
    "plugins": ["llmbook"],
    "markdown_extensions": [{"toc": {"permalink": True}}],
    "validation": {"anchors": "warn"},  # so `--strict` fails on a missing anchor
}


def notebook(*markdown_cells: str) -> str:
    cells = [{"cell_type": "markdown", "metadata": {}, "source": text} for text in markdown_cells]
    metadata = {"kernelspec": {"name": "python3", "language": "python"}}
    return json.dumps({"cells": cells, "metadata": metadata, "nbformat": 4, "nbformat_minor": 5})


ENCODED = "%E5%A4%A7-O-%E8%AE%B0%E5%8F%B7"  # nbconvert's id of "大 O 记号"
SORTING = notebook(
    "# Sorting Arrays\n\n## Big O Notation\n\nAs [below](#Sorted-and-unsorted-indices).",
    "## Sorted and unsorted indices\n\nBack to [Big O](#Big-O-Notation).",
    "## What's `np.sort`? (*fast*!)",
    "## intro\n\n## Big O Notation\n\nThe same heading again.",
    "## 大 O 记号",
)
ARRAYS = notebook(
    "# Arrays\n\nSee [Big O](sorting.ipynb#Big-O-Notation) and "
    "[np.sort](<sorting.ipynb#What's-np.sort?-(fast!)>)\n\n[大 O](sorting.ipynb#大-O-记号)\n\n"
    f"[as nbconvert writes it](sorting.ipynb#{ENCODED})",
)
PAGES = {
    "index.md": "# Home\n\n[Indices](sorting.ipynb#Sorted-and-unsorted-indices)\n",
    "sorting.ipynb": SORTING,
    "arrays.ipynb": ARRAYS,
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory):
    """The site built twice, strict, the second time from the converted-pages cache."""
    root = tmp_path_factory.mktemp("anchors")
    write_pages(root / "docs", PAGES)
    config = write_config(root, CONFIG)
    build(config, site=root / "cold", cache=root / "cache", strict=True).ok()
    return build(config, site=root / "site", cache=root / "cache", strict=True).ok()


def _ids(html: str) -> list[str]:
    return re.findall(r'\sid="([^"]*)"', html)


def test_jupyter_ids_are_nbconverts() -> None:
    assert jupyter_id("Big O Notation") == "Big-O-Notation"
    assert jupyter_id("What's np.sort? (fast!)") == "What's-np.sort?-(fast!)"
    assert jupyter_id(" Über uns ") == "Über-uns"
    assert nbconvert_id("Über uns") == "%C3%9Cber-uns"
    assert nbconvert_id('a "b" (c)') == "a-%22b%22-(c)"
    assert nbconvert_id("What's np.sort? (fast!)") == "What's-np.sort?-(fast!)"


def test_a_notebooks_headings_hold_jupyters_ids_beside_mkdocs(site) -> None:
    html = site.page("sorting/index.html")
    assert '<span id="Big-O-Notation"></span><h2 id="big-o-notation">Big O Notation' in html
    ids = _ids(html)
    ids_made = ["Sorted-and-unsorted-indices", "What's-np.sort?-(fast!)", "intro", "大-O-记号"]
    for wanted in [*ids_made, ENCODED]:
        assert ids.count(wanted) == 1, wanted
    # A repeated heading: its Jupyter id is the first one's, as in Jupyter.
    assert ids.count("Big-O-Notation") == 1
    assert 'href="#Big-O-Notation"' in html and 'href="#Sorted-and-unsorted-indices"' in html


def test_links_between_notebooks_and_from_pages_reach_the_ids(site) -> None:
    arrays = site.page("arrays/index.html")
    assert 'href="../sorting/#Big-O-Notation"' in arrays
    assert 'href="../sorting/#What\'s-np.sort?-(fast!)"' in arrays
    assert 'href="sorting/#Sorted-and-unsorted-indices"' in site.page("index.html")


def test_a_markdown_page_gets_no_jupyter_ids(tmp_path) -> None:
    write_pages(tmp_path / "docs", {"index.md": "# Home\n\n## Big O Notation\n"})
    built = build(write_config(tmp_path, CONFIG), site=tmp_path / "site", cache=False).ok()
    assert "Big-O-Notation" not in built.page("index.html")


@pytest.mark.parametrize(
    ("link", "problem"),
    [
        ("#Big-O-notation", "there is no such anchor on this page"),
        ("sorting.ipynb#Big-O", "the doc 'sorting.ipynb' does not contain an anchor '#Big-O'"),
    ],
)
def test_a_fragment_naming_no_heading_still_fails(tmp_path, link, problem) -> None:
    broken = notebook(f"# Broken\n\n## Big O Notation\n\n[Gone]({link})")
    write_pages(tmp_path / "docs", {**PAGES, "broken.ipynb": broken})
    built = build(write_config(tmp_path, CONFIG), site=tmp_path / "site", cache=False, strict=True)
    assert built.returncode != 0
    message = f"Doc file 'broken.ipynb' contains a link '{link}', but {problem}."
    assert message in built.stderr
    assert "WARNING" in built.stderr.split(message)[0].rsplit("\n", 1)[-1]

"""Code is highlighted in a plain Material site (no `markdown_extensions`): notebook cells and the
fences llmbook runs come out as pymdownx.highlight writes them, Pygments' classes for Material's
CSS; a site's own `pymdownx.highlight` settings are the ones used (issue 43)."""

from __future__ import annotations

import json

import pytest
from sites import build, write_config, write_pages

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["total = sum([1, 2])\n", "print(total)\n"],
        },
    ],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
PAGES = {
    "index.md": "# Home\n\n```python\nanswer = 6 * 7\nprint(answer)\n```\n",
    "nb.ipynb": json.dumps(NOTEBOOK),
}
# Material as it comes, its fonts kept local so the offline check passes.
PLAIN = {"site_name": "t", "theme": {"name": "material", "font": False}, "plugins": ["llmbook"]}


def _code(html: str) -> str:
    """The page's first highlighted block, from its `<div class="highlight">` on."""
    start = html.find('<div class="highlight">')
    assert start >= 0, html
    return html[start : html.find("</div>", start)]


@pytest.fixture(scope="module")
def plain_site(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("plain")
    write_pages(root / "docs", PAGES)
    return build(write_config(root, PLAIN), site=root / "site", cache=False, strict=True).ok()


@pytest.mark.parametrize(("page", "name"), [("nb/index.html", "total"), ("index.html", "answer")])
def test_a_plain_material_site_highlights_code(plain_site, page, name) -> None:
    code = _code(plain_site.page(page))
    assert "<pre><span></span><code>" in code  # pymdownx.highlight's Pygments block
    assert f'<span class="n">{name}</span>' in code  # a Pygments token class Material colours
    assert '<span class="nb">print</span>' in code


def test_the_sites_pymdownx_highlight_settings_are_used(make_site) -> None:
    settings = {"linenums": True, "css_class": "codehilite", "pygments_lang_class": True}
    config = {**PLAIN, "markdown_extensions": [{"pymdownx.highlight": settings}]}
    built = make_site(PAGES, config, cache=False, strict=True).ok()
    for page in ("nb/index.html", "index.html"):
        html = built.page(page)
        assert '<div class="language-python codehilite">' in html
        assert '<table class="codehilitetable">' in html  # line numbers: Pygments' table
        assert '<div class="highlight">' not in html


def test_highlighting_in_the_browser_when_the_site_turns_pygments_off(make_site) -> None:
    config = {**PLAIN, "markdown_extensions": [{"pymdownx.highlight": {"use_pygments": False}}]}
    built = make_site(PAGES, config, cache=False, strict=True).ok()
    html = built.page("nb/index.html")
    assert '<pre class="highlight"><code class="language-python">total = sum' in html
    assert '<span class="n">' not in html

"""A notebook page's download link reaches the executed notebook the build writes, under both of
MkDocs' URL styles (`nb/x/index.html` or `nb/x.html`; the file is `nb/x.ipynb` either way)."""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

import pytest

NOTEBOOK = {
    "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n"]}],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


@pytest.mark.parametrize(
    ("directory_urls", "page"), [(True, "nb/x y/index.html"), (False, "nb/x y.html")]
)
def test_the_download_link_reaches_the_notebook(make_site, directory_urls, page) -> None:
    config = {
        "site_name": "t",
        "use_directory_urls": directory_urls,
        "theme": {"name": "mkdocs", "highlightjs": False},  # no CDN: the offline check passes
        "plugins": ["llmbook"],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }
    built = make_site({"index.md": "# Home\n", "nb/x y.ipynb": json.dumps(NOTEBOOK)}, config)
    assert built.returncode == 0, built.stderr
    html = (built.site / page).read_text(encoding="utf-8")
    href = re.search(r'<p class="llmbook-download"><a href="([^"]+)" download>', html)
    assert href is not None
    target = ((built.site / page).parent / unquote(href.group(1))).resolve()
    assert target == (built.site / "nb/x y.ipynb").resolve()
    assert json.loads(target.read_text(encoding="utf-8"))["cells"][0]["source"] == [
        "# A notebook\n"
    ]

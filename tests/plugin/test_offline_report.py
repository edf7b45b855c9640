"""The offline check's report names where an author wrote what the site loads from outside it:
`docs/…:LINE` of a Markdown page, `docs/…:cell N, line M` of a notebook (nbsphinx's documentation
shows badges and logos by URL), with the built file in brackets."""

from __future__ import annotations

import json

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Logos\n"]},
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": ["Two logos:\n", "\n", "![logo](https://example.org/logo.png)\n"],
        },
    ],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
CONFIG = {
    "site_name": "t",
    "use_directory_urls": False,
    "plugins": ["llmbook"],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


def test_an_image_by_url_is_reported_at_its_line_and_cell(make_site) -> None:
    pages = {
        "index.md": "# Home\n\nText.\n\n![badge](https://example.org/badge.svg)\n",
        "sub/nb.ipynb": json.dumps(NOTEBOOK),
    }
    built = make_site(pages, CONFIG)
    assert built.returncode == 1
    assert "  docs/index.md:5: <img src> https://example.org/badge.svg (index.html)\n" in (
        built.stderr
    )
    assert "  docs/sub/nb.ipynb:cell 2, line 3: <img src> https://example.org/logo.png" in (
        built.stderr
    )

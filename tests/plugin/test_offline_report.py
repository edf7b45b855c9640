"""The offline check's report names where an author wrote what the site loads from outside it:
`docs/…:LINE` of a Markdown page, `docs/…:cell N, line M` of a notebook (nbsphinx's documentation
shows badges and logos by URL; images are shipped into the site, test_remote_images.py), with the
built file in brackets."""

from __future__ import annotations

import json

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Logos\n"]},
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": [
                "Two clips:\n",
                "\n",
                '<video src="https://example.org/talk.mp4"></video>\n',
            ],
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


def test_a_clip_by_url_is_reported_at_its_line_and_cell(make_site) -> None:
    pages = {
        "index.md": '# Home\n\nText.\n\n<audio src="https://example.org/clip.ogg"></audio>\n',
        "sub/nb.ipynb": json.dumps(NOTEBOOK),
    }
    built = make_site(pages, CONFIG)
    assert built.returncode == 1
    assert "  docs/index.md:5: <audio src> https://example.org/clip.ogg (index.html)\n" in (
        built.stderr
    )
    assert "  docs/sub/nb.ipynb:cell 2, line 3: <video src> https://example.org/talk.mp4" in (
        built.stderr
    )


def test_material_google_fonts_say_to_switch_them_off(tmp_path) -> None:
    # Material links Google Fonts unless `theme.font: false`: the fix names that setting.
    import pytest
    from llmbook.core.errors import LLMBookError
    from llmbook.site.offline import check_site

    font = "https://fonts.googleapis.com/css?family=Roboto"
    (tmp_path / "index.html").write_text(f'<link rel="stylesheet" href="{font}">', "utf-8")
    with pytest.raises(LLMBookError) as error:
        check_site(tmp_path)
    assert str(error.value) == (
        "The site loads 1 resource(s) from outside site/, so it would not work offline or from "
        f"a sub-path:\n  index.html: <link rel=stylesheet> {font}\n"
        "Fix: set `font: false` under `theme:` in mkdocs.yml (Material then uses the system's "
        "fonts instead of loading Google Fonts)."
    )

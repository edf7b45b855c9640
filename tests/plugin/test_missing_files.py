"""A relative link or load into the site that reaches no file stops the build, whatever wrote it
(missing_files.py): named at its page's source line (or notebook cell), under both of MkDocs' URL
styles; a site without a home page is told so once, not once per page of the theme's logo."""

from __future__ import annotations

import json

import pytest
from llmbook.core.errors import LLMBookError
from llmbook.site.missing_files import FIX_MISSING
from llmbook.site.offline import check_site, other_editions

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n", "\n", "See "]},
        {"cell_type": "markdown", "metadata": {}, "source": ["Read\n", "[the data](data/x.csv)."]},
    ],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
URL_STYLES = pytest.mark.parametrize(
    ("directory_urls", "built"), [(True, "{}/index.html"), (False, "{}.html")]
)


def _config(directory_urls: bool) -> dict:
    return {
        "site_name": "t",
        "use_directory_urls": directory_urls,
        "theme": {"name": "material", "font": False},  # it links the home page from every page
        "plugins": ["llmbook"],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }


def _write(root, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, "utf-8")


def test_what_a_url_names_is_checked_as_a_server_serves_it(tmp_path) -> None:
    # Fragments and queries stripped, `%20` decoded, a folder served by its index.html; `..` out
    # of the site, other sites, 404.html, scripts and other editions' folders are not checked.
    _write(
        tmp_path,
        {
            "index.html": '<a href="en/x.html">en</a> <a href="#top">top</a> <a href="?q=1">q</a>',
            "a b/index.html": '<a href="../a%20b/#x">me</a> <a href="..">home</a>',
            "ch/x.html": (
                '<a href="../a b/?v=2">ok</a> <a href="../../../up.html">out</a>'
                ' <a href="mailto:a@b.c">mail</a> <a href="//host/x">host</a>'
                ' <img src="fig.svg?v=1"> <a href="../nowhere/#x">no</a> <a href="../ch/">no</a>'
            ),
            "assets/x.css": "a { background: url(../img/bg.png) } b { background: url(data:,) }",
            "assets/x.js": 'import("./lazy.js")',
            "404.html": '<a href="nowhere.html">home</a>',
            "en/index.html": '<a href="../gone.html">gone</a>',
        },
    )
    with pytest.raises(LLMBookError) as error:
        check_site(tmp_path, elsewhere=["en"])
    assert str(error.value) == (
        "The site links or loads 4 file(s) it does not have (a 404 for the reader):\n"
        "  assets/x.css: CSS url() ../img/bg.png\n"
        "  ch/x.html: <img src> fig.svg?v=1\n"
        "  ch/x.html: <a href> ../nowhere/#x\n"
        "  ch/x.html: <a href> ../ch/\n"
        f"{FIX_MISSING}"
    )


def test_a_site_without_a_home_page_is_told_so_once(tmp_path) -> None:
    _write(tmp_path, {"a.html": '<a href=".">t</a>', "b/c.html": '<a href="../index.html">t</a>'})
    with pytest.raises(LLMBookError) as error:
        check_site(tmp_path)
    assert str(error.value) == (
        "The site has no home page (index.html), yet 2 page(s) link it (the theme's logo and "
        "title do, on every page).\n"
        "Fix: add docs/index.md, the book's first page (MkDocs builds index.html from it)."
    )


def test_the_command_line_check_leaves_out_the_other_editions(tmp_path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - search\n  - llmbook:\n      languages: [zh, en, fr]\n", "utf-8"
    )
    assert other_editions(tmp_path / "mkdocs.yml") == ["en", "fr"]
    assert other_editions(tmp_path / "none.yml") == []


@URL_STYLES
def test_links_to_no_file_are_named_at_their_lines(make_site, directory_urls, built) -> None:
    pages = {
        "index.md": "# Home\n",
        "a.md": '# A\n\nThe [table](data.csv).\n\n<img src="missing.png" alt="x">\n',
        "nb.ipynb": json.dumps(NOTEBOOK),
    }
    done = make_site(pages, _config(directory_urls))
    assert done.returncode == 1
    a, nb = built.format("a"), built.format("nb")
    assert (
        "The site links or loads 3 file(s) it does not have (a 404 for the reader):\n"
        f"  docs/a.md:3: <a href> data.csv ({a})\n"
        f"  docs/a.md:5: <img src> missing.png ({a})\n"
        f"  docs/nb.ipynb:cell 2, line 2: <a href> data/x.csv ({nb})\n"
        f"{FIX_MISSING}\n"
    ) in done.stderr
    assert "home page" not in done.stderr


@URL_STYLES
def test_a_site_whose_links_reach_their_files_builds(make_site, directory_urls, built) -> None:
    pages = {
        "index.md": "# Home\n\n[B](sub/b.md#b), ![fig](img/my%20fig.svg) and [top](#home).\n",
        "sub/b.md": "# B\n\n[Home](../index.md) <a href='#b'>here</a> [nb](../nb.ipynb)\n",
        "img/my fig.svg": '<svg xmlns="http://www.w3.org/2000/svg"/>',
        "nb.ipynb": json.dumps(NOTEBOOK).replace("data/x.csv", "sub/b.md"),
    }
    done = make_site(pages, _config(directory_urls))
    assert done.returncode == 0, done.stderr
    assert (done.site / built.format("sub/b")).is_file()


@URL_STYLES
def test_a_site_without_index_md_says_to_add_it(make_site, directory_urls, built) -> None:
    done = make_site({"a.md": "# A\n", "sub/b.md": "# B\n"}, _config(directory_urls))
    assert done.returncode == 1
    assert (
        "The site has no home page (index.html), yet 2 page(s) link it (the theme's logo and "
        "title do, on every page).\n"
        "Fix: add docs/index.md, the book's first page (MkDocs builds index.html from it).\n"
    ) in done.stderr


def test_each_link_is_named_at_the_place_that_writes_it(tmp_path) -> None:
    # The second link to one URL at its second place; a notebook's text cells before its code,
    # a link's target (`(x.png)`) before the name in a sentence.
    from llmbook.site.missing_files import source_line

    page = tmp_path / "x.md"
    page.write_text("# X\n\nThe file x.png: [a](x.png)\n\nAgain [b](x.png)\n", "utf-8")
    assert [source_line(page, "x.png", nth) for nth in (0, 1, 2)] == ["3", "5", "3"]
    notebook = tmp_path / "nb.ipynb"
    cells = [("code", "fig.savefig('x.png')\n"), ("markdown", "It saves `x.png`:\n[x](x.png)")]
    notebook.write_text(
        json.dumps({"cells": [{"cell_type": kind, "source": text} for kind, text in cells]}),
        "utf-8",
    )
    assert source_line(notebook, "x.png") == "cell 2, line 2"

"""Launch links (site/launch.py, the `launch` option): on each page that runs code, a button per
service, in the page's language, whose address is the service's template with `{path}`, the
notebook's path in the published site, filled in (URL-quoted); none on a page that runs nothing;
links the offline check lets pass; a bad value stops the build at its line of mkdocs.yml."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from llmbook.adapters.config import load_options
from llmbook.core.errors import LLMBookError
from llmbook.site.launch import launch_problem, notebook_path

COLAB = "https://colab.research.google.com/github/me/book/blob/notebooks/{path}"
NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# A notebook\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["print(6 * 7)\n"],
        },
    ],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
PAGES = {
    "index.md": "# Home\n\nNo code here.\n",
    "shown.md": "# Shown\n\n```python norun\nprint(1)\n```\n",
    "chapters/ch 1.md": "# One\n\n```python\nprint(1 + 1)\n```\n",
    "nb/lesson.ipynb": json.dumps(NOTEBOOK),
}


def config(launch: object, *, language: str = "en") -> dict:
    return {
        "site_name": "t",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs", "highlightjs": False, "language": language},  # no CDN
        "plugins": [{"llmbook": {"launch": launch}}],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }


def buttons(html: str) -> list[tuple[str, str]]:
    """(address, text) of each launch button of a page."""
    found = re.findall(
        r'<a class="md-button llmbook-launch__button" href="([^"]+)"[^>]*>([^<]+)', html
    )
    return [(href.replace("&amp;", "&"), text) for href, text in found]


def test_each_page_that_runs_code_opens_its_notebook(make_site) -> None:
    binder = "https://mybinder.org/v2/gh/me/book/notebooks?labpath={path}"
    launch = {  # in mkdocs.yml's order (the test's YAML sorts it)
        "binder": binder,
        "colab": COLAB,
        "kaggle": "",
        "my-hub": "https://hub.example/{path}",
    }
    built = make_site(PAGES, config(launch), in_process=True, cache=False)  # offline check on
    page = built.page("chapters/ch 1.html")
    assert buttons(page) == [
        (
            "https://mybinder.org/v2/gh/me/book/notebooks?labpath=chapters/ch%201.ipynb",
            "Open in Binder",
        ),
        (
            "https://colab.research.google.com/github/me/book/blob/notebooks/chapters/ch%201.ipynb",
            "Open in Colab",
        ),
        ("https://hub.example/chapters/ch%201.ipynb", "Open in my-hub"),  # a name as written
    ]
    assert 'target="_blank" rel="noopener"' in page
    notebook = built.page("nb/lesson.html")
    assert buttons(notebook)[1] == (
        "https://colab.research.google.com/github/me/book/blob/notebooks/nb/lesson.ipynb",
        "Open in Colab",
    )
    # Beside the notebook's download: the download first, then the buttons.
    assert notebook.index("llmbook-download") < notebook.index("llmbook-launch")
    for quiet in ("index.html", "shown.html"):  # no code, or code that only shows
        assert "llmbook-launch" not in built.page(quiet)


def test_the_buttons_speak_the_pages_language(make_site) -> None:
    built = make_site(PAGES, config({"colab": COLAB}, language="zh"), in_process=True, cache=False)
    assert [text for _, text in buttons(built.page("chapters/ch 1.html"))] == ["在 Colab 中打开"]


def test_a_book_without_launch_shows_no_button(make_site) -> None:
    built = make_site(PAGES, config({}), in_process=True, cache=False)
    assert "llmbook-launch" not in built.page("chapters/ch 1.html")


def test_launch_links_cost_no_page_its_render(make_site, tmp_path: Path) -> None:
    """The buttons are added to the rendered page: a book that sets `launch` (CI) or not (an
    author's machine) shares the render cache."""
    built = make_site(PAGES, config({}), in_process=True, cache=tmp_path / "cache")
    assert len(built.config.plugins["llmbook"].site.rendered) == len(PAGES)
    built = make_site(PAGES, config({"colab": COLAB}), in_process=True, cache=tmp_path / "cache")
    assert built.config.plugins["llmbook"].site.rendered == []
    assert "Open in Colab" in built.page("chapters/ch 1.html")


def test_the_offline_check_lets_launch_links_pass(make_site) -> None:
    """A link is followed on purpose, never fetched: the built site passes the check, while a
    script from the same host fails it."""
    from llmbook.site.offline import check_site, find_external_loads, site_urls

    built = make_site(PAGES, config({"colab": COLAB}), in_process=True, cache=False)
    seen = [(u.file, u.how) for u in site_urls(built.site) if "colab" in u.url]
    assert seen == [("chapters/ch 1.html", "<a href>"), ("nb/lesson.html", "<a href>")]
    assert find_external_loads(built.site) == []
    check_site(built.site)
    script = '<script src="https://colab.research.google.com/x.js"></script>'
    (built.site / "loads.html").write_text(script, encoding="utf-8")
    with pytest.raises(LLMBookError, match="colab.research.google.com/x.js"):
        check_site(built.site)


@pytest.mark.parametrize(
    ("uri", "edition", "path"),
    [
        ("chapters/ch10-modern-llm.md", "", "chapters/ch10-modern-llm.ipynb"),
        ("notebooks/llama-kv-cache.ipynb", "", "notebooks/llama-kv-cache.ipynb"),
        ("chapters/ch10-modern-llm.md", "en", "en/chapters/ch10-modern-llm.ipynb"),
        ("index.md", "", "index.ipynb"),
    ],
)
def test_the_notebooks_path_is_its_path_in_the_published_site(uri, edition, path) -> None:
    assert notebook_path(uri, edition) == path


LAUNCH_ERRORS = [
    (
        '"https://colab.research.google.com/github/me/book/blob/main/{path}"',
        4,
        "`launch` maps each service to a URL template, not a str "
        "('https://colab.research.google.com/github/me/book/blob/main/{path}'). Fix: write it as "
        'a mapping, e.g. `launch: {colab: "https://colab.research.google.com/github/OWNER/REPO/'
        'blob/notebooks/{path}"}`.',
    ),
    (
        "\n        colab: [a, b]",
        5,
        "`launch: colab` is a list, not a URL template. Fix: write one URL in quotes, e.g. "
        '`colab: "https://colab.research.google.com/github/OWNER/REPO/blob/notebooks/{path}"`.',
    ),
    (
        "\n        colab: https://x.org/{path}\n        binder: mybinder.org/{path}",
        6,
        "`launch: binder` is not an http(s) address: 'mybinder.org/{path}'. Fix: write the "
        "service's whole address, starting with `https://`.",
    ),
    (
        "\n        colab: https://colab.research.google.com/github/me/book/blob/main/",
        5,
        "`launch: colab` has no `{path}`, so every page's button would open the same address. "
        "Fix: put `{path}` where the service takes the notebook's path, e.g. `colab: "
        '"https://colab.research.google.com/github/OWNER/REPO/blob/notebooks/{path}"`.',
    ),
    (
        "\n        colab: https://colab.research.google.com/github/{repo}/blob/main/{path}",
        5,
        "`launch: colab` has the placeholder `{repo}`, which llmbook does not fill: it fills "
        "only `{path}`, the notebook's path in the published site. Fix: write that part of the "
        "address out (your repository, your branch), and keep `{path}`.",
    ),
]


@pytest.mark.parametrize(("value", "line", "message"), LAUNCH_ERRORS)
def test_a_bad_launch_value_names_its_line_and_a_fix(tmp_path: Path, value, line, message) -> None:
    file = tmp_path / "mkdocs.yml"
    file.write_text(f"site_name: x\nplugins:\n  - llmbook:\n      launch: {value}\n", "utf-8")
    with pytest.raises(LLMBookError) as error:
        load_options(file)
    assert str(error.value) == f"mkdocs.yml:{line}: {message}"


def test_mkdocs_stops_at_a_bad_launch_value(make_site, tmp_path: Path) -> None:
    built = make_site(PAGES, config({"colab": "https://colab.research.google.com/"}))
    assert built.returncode == 1
    lines = (tmp_path / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text.strip().startswith("colab:"))
    assert f"mkdocs.yml:{line}: `launch: colab` has no `{{path}}`, so every page's" in built.stderr


@pytest.mark.parametrize("value", [{}, {"colab": ""}, {"colab": None}, {"colab": COLAB}])
def test_an_empty_template_is_no_button_and_no_error(value) -> None:
    assert launch_problem(value) is None

"""Under Zensical a notebook is a page, and translations stay out of a build without the author's
`exclude_docs`: `python -m llmbook zensical-config` writes the config Zensical builds (translations
and notebooks excluded, the nav's notebooks named by their twins) and a twin `x.md` beside each
notebook `x.ipynb`, which the extension renders from the notebook (adapters/zensical/twins.py).
MkDocs builds the same notebook page and ignores the twin."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from llmbook.adapters.zensical.twins import docs_files, twin_text
from llmbook.adapters.zensical.written import build_files, zensical_config
from llmbook.cli import main as llmbook_main
from llmbook.core.errors import LLMBookError
from llmbook.core.project import Project
from sites import Built, build, project_config, write_config, write_pages


def _notebook(title: str, text: str, number: str = "42") -> str:
    """A notebook: a heading, code that prints and draws, a checked number in prose."""
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": [f"# {title}\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": ["x = 6 * 7\n", "print(x)"],
        },
        {"cell_type": "markdown", "metadata": {}, "source": [f"{text} [[x = {number}]]."]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": [
                "import matplotlib.pyplot as plt\n",
                "fig, ax = plt.subplots(figsize=(2, 2))\n",
                "ax.plot([1, 2])\n",
                'ax.set_title("line");',
            ],
        },
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def _zensical(root: Path, config: str = "mkdocs.yml", site: str = "site") -> Built:
    """`zensical build --clean -f` the config zensical-config writes for `config`."""
    pytest.importorskip("zensical")
    assert llmbook_main(["zensical-config", str(root / config)]) == 0
    written = config.replace(".yml", ".zensical.yml")
    return build(
        root / config,
        site=root / site,
        engine="zensical",
        cache=False,
        args=["--clean", "-f", written],
    )


def _numbers(html: str) -> list[str]:
    return re.findall(r'<span class="llmbook-num" title="([^"]*)">([^<]*)</span>', html)


def _outputs(html: str) -> list[str]:
    return re.findall(r'<div class="llmbook-output">.*?</div>', html, re.S)


def _figures(site: Path, html: str) -> dict[str, bytes]:
    return {
        src: (site / src).read_bytes() for src in re.findall(r'<img src="([^"]+)" alt="line"', html)
    }


@pytest.mark.slow
def test_a_notebook_is_the_same_page_under_both_engines(tmp_path: Path) -> None:
    """The twin is in docs/ for both builds: MkDocs builds the notebook, Zensical the twin as it."""
    write_pages(tmp_path / "docs", {"index.md": "# 首页\n", "nb.ipynb": _notebook("笔记", "答案")})
    write_config(tmp_path, project_config(nav=[{"首页": "index.md"}, {"笔记": "nb.ipynb"}]))
    zensical = _zensical(tmp_path).ok()
    assert (tmp_path / "docs" / "nb.md").read_text(encoding="utf-8") == twin_text("nb.ipynb")
    mkdocs = build(
        tmp_path / "mkdocs.yml", site=tmp_path / "msite", strict=True, cache=False, in_process=True
    )
    assert sorted(mkdocs.config.plugins["llmbook"].site.rendered) == [
        "docs/index.md",
        "docs/nb.ipynb",  # and not the twin docs/nb.md
    ]
    ours, theirs = zensical.page("nb.html"), mkdocs.page("nb.html")
    assert _numbers(ours) == _numbers(theirs) == [("x = 42（构建时计算并核对）", "42")]
    assert _outputs(ours) == _outputs(theirs) and "<code>42</code>" in _outputs(ours)[0]
    figures = _figures(zensical.site, ours)
    assert len(figures) == 1 and figures == _figures(mkdocs.site, theirs)
    for html in (ours, theirs):
        assert '<p class="llmbook-download"><a href="nb.ipynb" download>' in html
        assert '<h1 id="笔记">笔记' in html
    # the download: the executed notebook, the same from either engine (not the raw file)
    ran = [json.loads(b.page("nb.ipynb"))["cells"][1]["outputs"] for b in (zensical, mkdocs)]
    assert ran[0] == ran[1] and ran[0][0]["text"] == ["42\n"]
    assert not (zensical.site / "nb" / "index.html").exists()  # the twin is no page of its own
    assert 'href="nb.html"' in ours  # the nav links the page, not the raw notebook


@pytest.mark.slow
def test_a_drift_in_a_notebook_fails_the_zensical_build_at_its_cell(tmp_path: Path) -> None:
    write_pages(tmp_path / "docs", {"nb.ipynb": _notebook("笔记", "答案", number="41")})
    write_config(tmp_path, project_config(nav=[{"笔记": "nb.ipynb"}]))
    done = _zensical(tmp_path)
    assert done.returncode != 0
    assert "docs/nb.ipynb:cell 3, line 1: written 41, computed 42" in done.stderr


TRANSLATING = """\
site_name: t
use_directory_urls: false
theme: {name: material, language: en, font: false}
nav: [{Home: index.md}, {Notebook: nb.ipynb}]
plugins:
  - llmbook:
      languages: [en, fr]
markdown_extensions:
  - llmbook.extension
  - toc
  - pymdownx.superfences
"""
FRENCH = "INHERIT: mkdocs.yml\nsite_dir: site/fr\ntheme: {language: fr}\n"


def _translating(root: Path) -> Path:
    """An English book with a French edition, no `exclude_docs` anywhere."""
    write_pages(
        root / "docs",
        {
            "index.md": "# Home\n\nHello.\n",
            "index.fr.md": "# Accueil\n\nBonjour.\n",
            "nb.ipynb": _notebook("Notebook", "The answer is"),
            "nb.fr.ipynb": _notebook("Carnet", "La réponse est"),
        },
    )
    (root / "mkdocs.fr.yml").write_text(FRENCH, encoding="utf-8")
    return write_config(root, TRANSLATING)


@pytest.mark.slow
def test_a_translating_book_builds_each_language_without_exclude_docs(tmp_path: Path) -> None:
    _translating(tmp_path)
    _zensical(tmp_path).ok()
    site = tmp_path / "site"
    assert sorted(p.name for p in site.glob("*.html")) == ["404.html", "index.html", "nb.html"]
    assert not (site / "nb.fr.ipynb").exists()  # neither copied nor a page
    assert "The answer is <span" in (site / "nb.html").read_text(encoding="utf-8")
    _zensical(tmp_path, "mkdocs.fr.yml", site="site/fr").ok()
    french = site / "fr"
    assert sorted(p.name for p in french.glob("*.html")) == ["404.html", "index.html", "nb.html"]
    page = (french / "nb.html").read_text(encoding="utf-8")
    assert "La réponse est <span" in page and '<h1 id="carnet">Carnet' in page
    assert "The answer is" not in page
    assert "Bonjour" in (french / "index.html").read_text(encoding="utf-8")
    assert json.loads((french / "nb.ipynb").read_text(encoding="utf-8"))["cells"][0]["source"] == [
        "# Carnet\n"
    ]


@pytest.mark.slow
def test_zensical_without_the_written_config_names_the_command(tmp_path: Path) -> None:
    pytest.importorskip("zensical")
    _translating(tmp_path)
    done = build(tmp_path / "mkdocs.yml", engine="zensical", cache=False, args=["--clean"])
    assert done.returncode != 0
    assert (
        "mkdocs.yml: Zensical would build the notebooks as no pages and the translations as "
        "pages of their own (it renders every Markdown file and only those). Fix: build from the "
        "config llmbook writes for Zensical: `python -m llmbook zensical-config mkdocs.yml`, "
        "then `zensical build --clean -f mkdocs.zensical.yml`"
    ) in done.stderr


# -- what zensical-config writes ---------------------------------------------------------------


def test_the_written_config_excludes_translations_and_names_twins_in_the_nav(
    tmp_path: Path,
) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\n"
        "exclude_docs: |\n  drafts/\n  *.tmp.md\n"
        "nav:\n"
        "  - index.md\n"
        "  - Part: [{Lab: labs/lab.ipynb}, {Site: 'https://example.com/x.ipynb'}]\n"
        "plugins:\n  - llmbook:\n      languages: [zh, en, ja]\n",
        encoding="utf-8",
    )
    write_pages(
        tmp_path / "docs",
        {"index.md": "# x\n", "labs/lab.ipynb": "{}", "labs/lab.en.ipynb": "{}"},
    )
    written, twins = zensical_config(tmp_path / "mkdocs.yml")
    assert (written, twins) == (tmp_path / "mkdocs.zensical.yml", 1)
    data = yaml.safe_load(written.read_text(encoding="utf-8"))
    assert data["exclude_docs"] == (
        "drafts/\n*.tmp.md\n*.en.md\n*.en.ipynb\n*.ja.md\n*.ja.ipynb\n*.ipynb\n"
    )
    assert data["nav"] == [
        "index.md",
        {"Part": [{"Lab": "labs/lab.md"}, {"Site": "https://example.com/x.ipynb"}]},
    ]
    assert (tmp_path / "docs" / "labs" / "lab.md").read_text(encoding="utf-8") == (
        "---\n"
        "llmbook_notebook: lab.ipynb\n"
        "---\n"
        "<!-- Written by `python -m llmbook zensical-config` for Zensical: the page of "
        "lab.ipynb, rendered from the notebook. Do not edit; it can be git-ignored. -->\n"
    )
    assert not (tmp_path / "docs" / "labs" / "lab.en.md").exists()  # a translation has none
    # again: the same; a twin whose notebook is gone is removed
    (tmp_path / "docs" / "labs" / "lab.ipynb").unlink()
    assert zensical_config(tmp_path / "mkdocs.yml")[1] == 0
    assert not (tmp_path / "docs" / "labs" / "lab.md").exists()


def test_a_book_of_one_language_excludes_only_notebooks(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\nnav: [a.ipynb]\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    written, _ = zensical_config(tmp_path / "mkdocs.yml")
    data = yaml.safe_load(written.read_text(encoding="utf-8"))
    assert data["exclude_docs"] == "*.ipynb\n" and data["nav"] == ["a.md"]


def test_zensical_config_refuses_a_page_written_beside_a_notebook(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    write_pages(tmp_path / "docs", {"x.ipynb": "{}", "x.md": "# mine\n"})
    assert llmbook_main(["zensical-config", str(tmp_path / "mkdocs.yml")]) == 1
    assert capsys.readouterr().err == (
        "llmbook zensical-config: docs/x.ipynb:1: docs/x.md beside it is a page of its own, "
        "where Zensical needs the notebook's page (both would be built as one file) "
        "Fix: rename one of the two\n"
    )
    assert (tmp_path / "docs" / "x.md").read_text(encoding="utf-8") == "# mine\n"


# -- the Zensical build's checks of the twins ------------------------------------------------------


def _problems(root: Path, pages: dict[str, str]) -> str:
    write_pages(root / "docs", pages)
    files = docs_files(root / "docs", root, lambda src: ".en." in src)
    with pytest.raises(LLMBookError) as caught:
        files.check("mkdocs.en.zensical.yml")
    return str(caught.value)


FIX = "Fix: `python -m llmbook zensical-config mkdocs.en.yml` writes the twins again"


def test_a_notebook_without_its_twin_stops_the_build(tmp_path: Path) -> None:
    assert _problems(tmp_path, {"a/x.ipynb": "{}", "a/x.en.ipynb": "{}"}) == (
        f"docs/a/x.ipynb:1: Zensical builds no page of it: its twin docs/a/x.md is missing {FIX}"
    )


def test_a_stale_or_orphaned_twin_stops_the_build(tmp_path: Path) -> None:
    pages = {
        "x.ipynb": "{}",
        "x.md": twin_text("x.ipynb") + "edited\n",
        "gone.md": twin_text("gone.ipynb"),
    }
    assert _problems(tmp_path, pages) == (
        f"docs/gone.md:1: the page of notebook docs/gone.ipynb, which is gone {FIX}\n"
        f"docs/x.ipynb:1: its page for Zensical, docs/x.md, is not the one written for it {FIX}"
    )


def test_a_page_beside_a_notebook_stops_the_build(tmp_path: Path) -> None:
    assert _problems(tmp_path, {"x.ipynb": "{}", "x.md": "# x\n"}) == (
        "docs/x.ipynb:1: docs/x.md beside it is a page of its own, where Zensical needs the "
        "notebook's page (both would be built as one file) Fix: rename one of the two"
    )


def test_the_build_runs_notebooks_and_pages_but_no_twin_or_translation(tmp_path: Path) -> None:
    write_pages(
        tmp_path / "docs",
        {
            "x.ipynb": "{}",
            "x.md": twin_text("x.ipynb"),
            "x.en.ipynb": "{}",
            "a.md": "# a\n",
            "a.en.md": "# a\n",
            ".hidden/y.ipynb": "{}",
        },
    )
    files = docs_files(tmp_path / "docs", tmp_path, lambda src: ".en." in src)
    files.check("mkdocs.zensical.yml")
    assert files.pages == ["docs/a.md", "docs/x.ipynb"]
    assert files.twins == {"docs/x.md": "docs/x.ipynb"}
    assert files.translations == ["docs/a.en.md", "docs/x.en.ipynb"]


def _written(root: Path, pages: dict[str, str]) -> Path:
    """A one-language book with its config written by zensical-config (and its twins)."""
    (root / "mkdocs.yml").write_text("site_name: t\nnav: [x.ipynb]\n", encoding="utf-8")
    write_pages(root / "docs", pages)
    return zensical_config(root / "mkdocs.yml")[0]


def test_a_config_written_for_an_earlier_nav_or_languages_stops_the_build(tmp_path: Path) -> None:
    written = _written(tmp_path, {"x.ipynb": "{}"})
    config = yaml.safe_load(written.read_text(encoding="utf-8"))
    project = Project.from_config_file(written)
    build_files(project, None, {**config, "nav": [{"url": "x.md"}]}, written)  # current
    stale = {"exclude_docs": "drafts/\n", "nav": [{"url": None, "children": [{"url": "x.ipynb"}]}]}
    with pytest.raises(LLMBookError) as caught:
        build_files(project, None, stale, written)
    assert str(caught.value) == (
        "mkdocs.zensical.yml: written for an earlier state of mkdocs.yml: its exclude_docs lacks "
        "*.ipynb; its nav names x.ipynb. Fix: write it again: "
        "`python -m llmbook zensical-config mkdocs.yml`"
    )


def test_a_book_with_a_notebook_built_from_its_own_config_stops_the_build(tmp_path: Path) -> None:
    _written(tmp_path, {"x.ipynb": "{}"})
    project = Project.from_config_file(tmp_path / "mkdocs.yml")
    with pytest.raises(LLMBookError) as caught:
        build_files(project, None, {}, tmp_path / "mkdocs.yml")
    assert str(caught.value) == (
        "mkdocs.yml: Zensical would build the notebooks as no pages (it renders every Markdown "
        "file and only those). Fix: build from the config llmbook writes for Zensical: "
        "`python -m llmbook zensical-config mkdocs.yml`, then "
        "`zensical build --clean -f mkdocs.zensical.yml`"
    )

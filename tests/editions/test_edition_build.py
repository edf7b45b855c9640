"""An edition comes from the site's build: a drifted number stops the build before any edition
is written, naming its line; a second build converts no page again (the store's memo) and runs
no page code."""

from __future__ import annotations

import logging

import pytest
from mkdocs.exceptions import Abort

PAGE = """\
# 第 1 章 · 小书

## 1.1 一节

```python
x = 6 * 7
```

答案是 [[x = {written}]]。

$$
E = mc^2
$$
"""
CONFIG = {
    "site_name": "小书",
    "use_directory_urls": False,
    "plugins": [{"llmbook": {"editions": ["pdf"], "offline_check": False}}],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


@pytest.fixture(autouse=True)
def _no_override(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("LLMBOOK_EDITIONS", "LLMBOOK_EDITIONS_DIR"):
        monkeypatch.delenv(name, raising=False)


def test_a_drift_stops_the_build_before_the_pdf(make_site, tmp_path, caplog) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(Abort):
        make_site({"index.md": PAGE.format(written=41)}, CONFIG, in_process=True)
    assert "docs/index.md:9: " in caplog.text and "written 41, computed 42" in caplog.text
    assert not (tmp_path / "dist" / "llmbook.pdf").exists()


def test_a_second_build_converts_and_runs_nothing_again(make_site, tmp_path, caplog) -> None:
    with caplog.at_level(logging.INFO):
        make_site({"index.md": PAGE.format(written=42)}, CONFIG, in_process=True, cache=True).ok()
    first = (tmp_path / "dist" / "llmbook.pdf").read_bytes()
    assert first.startswith(b"%PDF") and (tmp_path / "site" / "llmbook.pdf").exists()
    caplog.clear()
    with caplog.at_level(logging.INFO):
        make_site({"index.md": PAGE.format(written=42)}, CONFIG, in_process=True, cache=True).ok()
    said = "\n".join(record.getMessage() for record in caplog.records)
    # the page's Typst, the colophon's, the PDF
    assert "editions 3/3" in said and "(0 pages run)" in said
    assert (tmp_path / "dist" / "llmbook.pdf").read_bytes() == first  # the same bytes again


def test_the_pdf_ends_with_the_colophon_of_the_versions(make_site, tmp_path) -> None:
    """The editions end with the versions that computed the book (editions/colophon.py), in the
    book's language; the pages' panels of the same record are not printed."""
    import pypdf

    config = {
        **CONFIG,
        "plugins": [{"llmbook": {**CONFIG["plugins"][0]["llmbook"], "language": "en"}}],
    }
    page = PAGE.format(written=42).replace("x = 6 * 7", "import yaml\nx = 6 * 7")
    make_site({"index.md": page}, config, in_process=True, cache=False).ok()
    pages = pypdf.PdfReader(tmp_path / "dist" / "llmbook.pdf").pages
    last = pages[-1].extract_text()
    assert last.startswith("Colophon\nEvery result in this book was computed by its code")
    assert "PyYAML " in last and "CPython " in last
    assert "What computed this page" not in "".join(p.extract_text() for p in pages)


def test_the_command_makes_the_editions_of_a_built_site(make_site, tmp_path, monkeypatch) -> None:
    """`python -m llmbook.editions` (after a Zensical build): the nav's pages, directory URLs."""
    import pypdf
    from llmbook.editions.__main__ import main

    config = {
        **CONFIG,
        "plugins": [{"llmbook": {"offline_check": False, "editions_skip": ["skip/*"]}}],
        "nav": [{"首页": "index.md"}, {"部分": [{"第二页": "two.md"}, {"略": "skip/x.md"}]}],
    }
    pages = {
        "index.md": PAGE.format(written=42),
        "two.md": "# 第 2 章 · 第二页\n\n## 2.1 节\n\n正文。\n",
        "skip/x.md": "# 不进书\n",
    }
    config.pop("use_directory_urls")
    make_site(pages, config, in_process=True).ok()
    monkeypatch.setenv("LLMBOOK_EDITIONS_DIR", str(tmp_path / "out"))
    assert main(["pdf", "-f", str(tmp_path / "mkdocs.yml")]) == 0
    outline = [item.title for item in pypdf.PdfReader(tmp_path / "out" / "llmbook.pdf").outline
               if not isinstance(item, list)]  # fmt: skip
    # the book's pages, then the colophon of the versions (the site's provenance.json)
    assert outline == ["第 1 章 · 小书", "第 2 章 · 第二页", "Colophon"]
    assert (tmp_path / "site" / "llmbook.pdf").exists()


def test_the_command_leaves_out_a_page_the_engine_did_not_build(
    make_site, tmp_path, capsys, monkeypatch
) -> None:
    from llmbook.editions.__main__ import main

    config = {**CONFIG, "plugins": [{"llmbook": {"offline_check": False}}]}
    config["nav"] = [{"首页": "index.md"}, {"笔记本": "nb.ipynb"}]
    make_site({"index.md": PAGE.format(written=42)}, config, in_process=True).ok()
    monkeypatch.setenv("LLMBOOK_EDITIONS_DIR", str(tmp_path / "out"))
    assert main(["pdf", "-f", str(tmp_path / "mkdocs.yml")]) == 0
    assert (
        "editions: docs/nb.ipynb is left out: the site has no nb.html\n" in capsys.readouterr().out
    )


def test_the_command_says_when_the_site_is_not_built(tmp_path, capsys) -> None:
    from llmbook.editions.__main__ import main

    (tmp_path / "mkdocs.yml").write_text("site_name: t\nnav:\n  - index.md\n", encoding="utf-8")
    assert main(["pdf", "-f", str(tmp_path / "mkdocs.yml")]) == 1
    assert capsys.readouterr().err == (
        f"Error: editions: {tmp_path}/site/index.html is missing (1 of the book's pages are not "
        "built). Fix: build the site first, then make the editions from it\n"
    )


TRANSLATED = """\
# Chapter 1 · A small book

## 1.1 A section

```python
x = 6 * 7
```

The answer is [[x = 42]].

$$
E = mc^2
$$
"""


def test_another_languages_build_writes_its_own_editions_in_english(
    make_site, tmp_path, monkeypatch
) -> None:
    """The English build of a Chinese book (`languages: [zh, en]`) writes llmbook.en.pdf and
    llmbook.en.epub (the build, and `python -m llmbook.editions` after it), links them, and
    leaves the book's own llmbook.pdf as it was; its PDF speaks English in Typst's Latin font."""
    import pypdf
    from ebooklib import epub
    from llmbook.editions.__main__ import main

    options = {"editions": ["pdf", "epub"], "offline_check": False}
    options |= {"language": "en", "languages": ["zh", "en"]}
    config = {**CONFIG, "site_name": "A small book", "plugins": [{"llmbook": options}]}
    (tmp_path / "dist").mkdir()
    (tmp_path / "dist" / "llmbook.pdf").write_bytes(b"the Chinese edition")
    pages = {"index.md": PAGE.format(written=42), "index.en.md": TRANSLATED}
    built = make_site(pages, config, in_process=True).ok()
    assert (tmp_path / "dist" / "llmbook.pdf").read_bytes() == b"the Chinese edition"
    assert (built.site / "llmbook.en.pdf").exists() and not (built.site / "llmbook.pdf").exists()
    pdf = pypdf.PdfReader(tmp_path / "dist" / "llmbook.en.pdf")
    assert pdf.metadata.title == "A small book"
    assert pdf.pages[1].extract_text().startswith("Contents")
    assert "Chapter 1 · A small book" in pdf.pages[2].extract_text()
    fonts = {str(f.get_object()["/BaseFont"]) for f in pdf.pages[2]["/Resources"]["/Font"].values()}
    assert any("LibertinusSerif" in name for name in fonts), fonts
    book = epub.read_epub(str(tmp_path / "dist" / "llmbook.en.epub"))
    assert book.get_metadata("DC", "language")[0][0] == "en"
    monkeypatch.setenv("LLMBOOK_EDITIONS_DIR", str(tmp_path / "out"))
    assert main(["epub", "-f", str(tmp_path / "mkdocs.yml")]) == 0
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["llmbook.en.epub"]

"""Citations as written: the syntax, the checks against the bibliography (each error's exact
text) and a small site's rendering: labels in prose and on cited numbers, each page's 参考文献,
the bibliography page listing where each entry is cited, uncited entries in the log."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from book_locales import ZH
from llmbook.book.citations import CitationIndex, CitedNumber, PageCitations
from llmbook.core.bindings import parse_body
from llmbook.core.cite_syntax import Cite, cited_key, find_citations
from sites import build
from test_bibliography import BIB, load


def test_prose_citations_in_pandoc_syntax() -> None:
    text = "见 [@shazeer2020glu, Table 1] 与 [@a; @b]；`[@code]` 与 [@x y] 不算。"
    found = find_citations(text, 7)
    assert [(c.cites, c.line, text[c.start : c.end]) for c in found] == [
        ((Cite("shazeer2020glu", "Table 1"),), 7, "[@shazeer2020glu, Table 1]"),
        ((Cite("a"), Cite("b")), 7, "[@a; @b]"),
    ]


def test_a_cited_number_names_a_key_glued_to_its_at() -> None:
    assert parse_body("524k @shazeer2020glu, Table 1") == (
        "524k",
        None,
        "@shazeer2020glu, Table 1",
    )
    assert cited_key("@shazeer2020glu, Table 1") == Cite("shazeer2020glu", "Table 1")
    assert parse_body("2.1 @ Shazeer 2020") == ("2.1", None, "Shazeer 2020")
    assert cited_key("Shazeer 2020") is None


def index(tmp_path: Path, bibliography: bool = True, **cited: list) -> CitationIndex:
    page = PageCitations("docs/x.md", "x.md", "X", **cited)
    return CitationIndex(load(tmp_path) if bibliography else None, {page.src: page})


def number(source: str) -> CitedNumber:
    return CitedNumber(12, "2.1", source, cited_key(source))


def test_an_unknown_key_names_the_nearest_keys(tmp_path: Path) -> None:
    prose = find_citations("见 [@shazer2020glu]。", 4)
    (error,) = index(tmp_path, prose=prose).check()
    assert str(error) == (
        "docs/x.md:4: [@shazer2020glu] cites shazer2020glu, which is no entry of "
        "docs/references.bib Fix: cite one of @shazeer2020glu, or add the entry shazer2020glu "
        "to docs/references.bib"
    )


def test_a_cited_number_with_an_unknown_key(tmp_path: Path) -> None:
    (error,) = index(tmp_path, numbers=[number("@zhang2019rms, Table 2")]).check()
    assert str(error) == (
        "docs/x.md:12: [[2.1 @zhang2019rms, Table 2]] cites zhang2019rms, which is no entry of "
        "docs/references.bib Fix: cite one of @zhang2019rmsnorm, or add the entry zhang2019rms "
        "to docs/references.bib"
    )


def test_free_text_under_a_bibliography_names_the_likely_key(tmp_path: Path) -> None:
    (error,) = index(tmp_path, numbers=[number("Shazeer 2020, Table 1")]).check()
    assert str(error) == (
        "docs/x.md:12: the cited number [[2.1 @ Shazeer 2020, Table 1]] names its source as "
        "text, but the site has a bibliography (docs/references.bib) Fix: cite its entry by "
        "key: [[2.1 @shazeer2020glu, Table 1]]"
    )


def test_free_text_without_a_bibliography_is_allowed(tmp_path: Path) -> None:
    assert index(tmp_path, bibliography=False, numbers=[number("Shazeer 2020")]).check() == []


def test_a_key_without_a_bibliography(tmp_path: Path) -> None:
    (error,) = index(tmp_path, bibliography=False, numbers=[number("@shazeer2020glu")]).check()
    assert str(error) == (
        "docs/x.md:12: [[2.1 @shazeer2020glu]] needs a bibliography, but the site has none "
        "Fix: add docs/references.bib (BibTeX), or name the file with the llmbook option "
        "`bibliography` (relative to docs_dir)"
    )


def test_a_bibliography_page_without_a_bibliography(tmp_path: Path) -> None:
    (error,) = index(tmp_path, bibliography=False, listing=3).check()
    assert str(error) == (
        "docs/x.md:3: :::bibliography needs a bibliography, but the site has none "
        "Fix: add docs/references.bib (BibTeX), or name the file with the llmbook option "
        "`bibliography` (relative to docs_dir)"
    )


# -- a small site -----------------------------------------------------------------------------

PAGES = {
    "index.md": (
        "# 首页\n\nSwiGLU 出自 [@shazeer2020glu]，训练 [[524k @shazeer2020glu, Table 1]] 步；"
        "RMSNorm 见 [@zhang2019rmsnorm, Table 2; @ainslie2023gqa]。\n"
    ),
    "two.md": "# 第二页\n\nGQA [@ainslie2023gqa]。\n",
    "references.md": "# 参考文献\n\n:::bibliography\n:::\n",
}
CONFIG = """\
site_name: t
use_directory_urls: false
nav: [{首页: index.md}, {第二页: two.md}, {文献: references.md}]
plugins:
  - llmbook:
      language: zh
      offline_check: false
      numbers_strict: true
markdown_extensions: [llmbook.extension, pymdownx.superfences, admonition]
"""


@pytest.fixture
def site(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> tuple[Path, str]:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    (docs / "references.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    caplog.set_level("INFO")
    build(tmp_path / "mkdocs.yml", in_process=True, cache=False, strict=True)
    return tmp_path / "site", caplog.text


def test_prose_citations_show_author_year_linked(site: tuple[Path, str]) -> None:
    html = (site[0] / "index.html").read_text(encoding="utf-8")
    assert (
        '<span class="llmbook-citation">（<a href="#ref-shazeer2020glu">Shazeer, 2020</a>）</span>'
        in html
    )
    assert (
        '（<a href="#ref-zhang2019rmsnorm">Zhang &amp; Sennrich, 2019</a>, Table 2；'
        '<a href="#ref-ainslie2023gqa">Ainslie et al., 2023</a>）' in html
    )


def test_a_cited_number_shows_its_entry_and_locator(site: tuple[Path, str]) -> None:
    html = (site[0] / "index.html").read_text(encoding="utf-8")
    assert (
        '<span class="llmbook-num llmbook-cited" title="引用值，未经计算：Shazeer, 2020, Table 1">'
        '524k</span><span class="llmbook-source">（<a href="#ref-shazeer2020glu">Shazeer, 2020'
        "</a>, Table 1）</span>" in html
    )


def test_each_page_ends_with_the_entries_it_cites(site: tuple[Path, str]) -> None:
    html = (site[0] / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<h2 id=\"[^\"]*\">参考文献", html)
    listed = re.findall(r'<li id="ref-([\w]+)">', html)
    assert listed == ["ainslie2023gqa", "shazeer2020glu", "zhang2019rmsnorm"]
    assert "<cite>GLU Variants Improve Transformer</cite>" in html
    two = (site[0] / "two.html").read_text(encoding="utf-8")
    assert re.findall(r'<li id="ref-([\w]+)">', two) == ["ainslie2023gqa"]


def test_the_bibliography_page_lists_where_each_entry_is_cited(site: tuple[Path, str]) -> None:
    html = (site[0] / "references.html").read_text(encoding="utf-8")
    ainslie = html[html.index('id="ref-ainslie2023gqa"') :]
    ainslie = ainslie[: ainslie.index("</li>")]
    assert '引用于：<a href="index.html">首页</a>、<a href="two.html">第二页</a>' in ainslie
    assert 'id="ref-touvron2023llama"' in html
    assert "（尚无页面引用）" in html


def test_entries_cited_nowhere_are_logged(site: tuple[Path, str]) -> None:
    assert "docs/references.bib:25: touvron2023llama is cited nowhere" in site[1]
    assert "citations: 4 checked on 2 pages, 5 entries, 2 cited nowhere" in site[1]


def test_numbers_in_a_prose_citation_are_not_the_pages(tmp_path: Path) -> None:
    from llmbook.execute.numbers.coverage import _hidden_spans

    text = "见 [@shazeer2020glu, Table 1]。"
    start = text.index("1]")
    assert any(a <= start < b for a, b in _hidden_spans(text, [], ZH))


def test_a_warm_build_renders_again_the_pages_an_edited_entry_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LLMBOOK_CACHE", raising=False)
    docs = tmp_path / "docs"
    docs.mkdir()
    pages = {**PAGES, "plain.md": "# 第四页\n\n没有引用。\n"}
    for name, text in pages.items():
        (docs / name).write_text(text, encoding="utf-8")
    bib = docs / "references.bib"
    bib.write_text(BIB, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        CONFIG.replace("{文献: references.md}", "{文献: references.md}, {四: plain.md}"),
        encoding="utf-8",
    )

    def rendered() -> list[str]:
        config = build(tmp_path / "mkdocs.yml", in_process=True).config
        return sorted(config.plugins["llmbook"].site.rendered)

    assert len(rendered()) == 4
    assert rendered() == []
    bib.write_text(BIB.replace("Variants Improve", "Variants Improve the"), encoding="utf-8")
    assert rendered() == ["docs/index.md", "docs/references.md"]
    assert "GLU Variants Improve the Transformer" in (tmp_path / "site/index.html").read_text(
        encoding="utf-8"
    )
    (docs / "plain.md").write_text("# 第四页\n\n见 [@touvron2023llama]。\n", encoding="utf-8")
    assert rendered() == ["docs/plain.md", "docs/references.md"]
    # A comment added above every entry moves them in the file, not on any page: none renders.
    bib.write_text("% the book's references\n" + bib.read_text(encoding="utf-8"), "utf-8")
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
        assert rendered() == []
    assert "llmbook: 0 pages rendered, 4 from the render cache" in caplog.messages


def test_zensical_renders_the_same_citations(tmp_path: Path) -> None:
    pytest.importorskip("zensical")
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in PAGES.items():
        (docs / name).write_text(text, encoding="utf-8")
    (docs / "references.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    build(tmp_path / "mkdocs.yml", engine="zensical", cache=False, args=["--clean"]).ok()
    html = (tmp_path / "site/index.html").read_text(encoding="utf-8")
    assert '（<a href="#ref-shazeer2020glu">Shazeer, 2020</a>）' in html
    assert re.findall(r'<li id="ref-([\w]+)">', html) == [
        "ainslie2023gqa",
        "shazeer2020glu",
        "zhang2019rmsnorm",
    ]
    listing = (tmp_path / "site/references.html").read_text(encoding="utf-8")
    assert 'id="ref-touvron2023llama"' in listing

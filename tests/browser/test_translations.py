"""The English edition beside the Chinese book (issue 38), read in Chromium from file://: the
language switcher followed both ways, each edition's search finding its own language's words, and
the note on an English page that has no translation yet.

One build of the project's site for the whole run (`site_dir`: site/ in Chinese, site/en/ in
English); the pages that are only read are opened once per module.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page
from sitebuild import ROOT
from test_offline_site import search

OpenPage = Callable[..., Page]

DOCS = ROOT / "docs"
SWITCHER = "nav.llmbook-languages"
NOTE = "p.llmbook-untranslated"
# A word of the English chapter that the Chinese book never uses (the test checks both).
ENGLISH_WORD = "bandwidth"
CHINESE_WORD = "旋转位置编码"  # chapter 10's heading "10.3 RoPE：旋转位置编码"


def _follow(page: Page, name: str) -> None:
    """Click the switcher's link named `name` and wait for the page it opens."""
    with page.expect_navigation(wait_until="load"):
        page.locator(SWITCHER).get_by_role("link", name=name, exact=True).click()


def _title(page: Page) -> str:
    return page.locator("article h1").first.inner_text().rstrip("¶").strip()


@pytest.mark.parametrize(
    ("rel", "chinese_title", "english_title"),
    [
        (
            "chapters/ch10-modern-llm.html",
            "第 10 章 · 现代 LLM 架构",
            "Chapter 10 · Modern LLM Architecture",
        ),
        ("index.html", "llmbook：现代 LLM 架构", "llmbook: Modern LLM Architecture"),
        # two folders deep, written in English in both editions
        (
            "guide/en/options.html",
            "Options, environment switches and front matter",
            "Options, environment switches and front matter",
        ),
    ],
    ids=["chapter", "home", "two-folders-deep"],
)
def test_the_switcher_leads_to_the_other_edition_and_back_from_file(
    site_dir: Path, open_page: OpenPage, rel: str, chinese_title: str, english_title: str
) -> None:
    page = open_page(rel)
    assert page.get_attribute("html", "lang") == "zh"
    assert page.locator(f"{SWITCHER} .llmbook-languages__current").inner_text() == "中文"
    assert _title(page) == chinese_title

    _follow(page, "English")
    assert page.url == (site_dir / "en" / rel).as_uri()
    assert page.get_attribute("html", "lang") == "en"
    assert page.locator(f"{SWITCHER} .llmbook-languages__current").inner_text() == "English"
    assert _title(page) == english_title
    # The English edition's own stylesheet and scripts were found relative to the page.
    assert page.eval_on_selector("header.md-header", "h => getComputedStyle(h).position") == (
        "sticky"
    )

    _follow(page, "中文")
    assert page.url == (site_dir / rel).as_uri()
    assert page.get_attribute("html", "lang") == "zh"
    assert _title(page) == chinese_title
    assert page.llmbook_errors == []  # type: ignore[attr-defined]


def _pages(site: Path) -> list[Path]:
    """The content pages of one edition (not the other edition's folder, assets or 404)."""
    return sorted(
        p
        for p in site.rglob("*.html")
        if p.relative_to(site).parts[0] not in {"en", "assets"} and p.name != "404.html"
    )


def _switcher_links(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    navs = re.findall(r'<nav class="llmbook-languages".*?</nav>', text, flags=re.S)
    assert len(navs) == 1, f"{page}: {len(navs)} language switchers"
    return re.findall(r'<a href="([^"]+)"', navs[0])


def test_every_page_links_to_the_same_page_of_the_other_edition_and_back(site_dir: Path) -> None:
    english_site = site_dir / "en"
    chinese, english = _pages(site_dir), _pages(english_site)
    assert [p.relative_to(site_dir) for p in chinese] == [
        p.relative_to(english_site) for p in english
    ]
    assert len(chinese) >= 10
    pairs = [(p, site_dir, english_site) for p in chinese] + [
        (p, english_site, site_dir) for p in english
    ]
    for page, here, there in pairs:
        (href,) = _switcher_links(page)
        target = (page.parent / href).resolve()
        assert target == there / page.relative_to(here), (page, href)
        assert target.is_file(), (page, href)
        (back,) = _switcher_links(target)
        assert (target.parent / back).resolve() == page, (target, back)


def _docs_source(rel: str) -> Path:
    """The docs file a page was rendered from (`x.html` → `docs/x.md` or `docs/x.ipynb`)."""
    stem = rel.removesuffix(".html")
    (source,) = [
        DOCS / f"{stem}{ext}" for ext in (".md", ".ipynb") if (DOCS / f"{stem}{ext}").is_file()
    ]
    return source


def test_the_untranslated_note_is_on_exactly_the_english_pages_without_a_translation(
    site_dir: Path,
) -> None:
    english_site = site_dir / "en"
    noted = set()
    for page in _pages(english_site):
        rel = page.relative_to(english_site).as_posix()
        source = _docs_source(rel)
        translated = source.with_suffix(f".en{source.suffix}").is_file()
        written_in_english = "en" in Path(rel).parts[:-1]  # guide/en/: the same page in both
        has_note = '<p class="llmbook-untranslated">' in page.read_text(encoding="utf-8")
        assert has_note == (not translated and not written_in_english), rel
        noted |= {rel} if has_note else set()
    assert "labs/smollm2-135m.html" in noted
    assert (
        not {"chapters/ch10-modern-llm.html", "index.html", "lessons/lesson03-five-upgrades.html"}
        & noted
    )
    for page in _pages(site_dir):  # the book's own language never says it is untranslated
        assert "llmbook-untranslated" not in page.read_text(encoding="utf-8"), page


def test_the_untranslated_note_shows_in_the_browser(open_shared_page: OpenPage) -> None:
    lab = open_shared_page("en/labs/smollm2-135m.html")
    note = lab.locator(f"article {NOTE}")
    assert note.count() == 1 and note.is_visible()
    assert note.inner_text().startswith("This page has not been translated into English yet")
    # under the title and the switcher, before the (Chinese) text of the page
    title_box, note_box = lab.locator("article h1").first.bounding_box(), note.bounding_box()
    assert title_box and note_box and note_box["y"] > title_box["y"]
    assert lab.get_attribute("html", "lang") == "en"
    for rel in ("en/chapters/ch10-modern-llm.html", "en/index.html", "en/guide/en/options.html"):
        page = open_shared_page(rel)
        assert page.locator(SWITCHER).is_visible(), rel
        assert page.locator(NOTE).count() == 0, rel


def _index_text(site: Path) -> str:
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return " ".join(d["title"] + " " + d["text"] for d in index["docs"]).lower()


def test_the_english_search_finds_a_word_only_the_english_chapter_has(
    site_dir: Path, open_shared_page: OpenPage
) -> None:
    assert ENGLISH_WORD in (DOCS / "chapters" / "ch10-modern-llm.en.md").read_text(encoding="utf-8")
    assert ENGLISH_WORD not in _index_text(site_dir)  # the Chinese site cannot find it
    page = open_shared_page("en/index.html")
    results = search(page, ENGLISH_WORD)
    chapter = (site_dir / "en" / "chapters" / "ch10-modern-llm.html").as_uri()
    assert chapter in results, results
    assert all(url.startswith((site_dir / "en").as_uri() + "/") for url in results), results
    # The search worker ran in the shim's iframe (file://), on an index tokenised as English.
    assert page.evaluate("typeof IFrameWorker === 'function' && Worker === IFrameWorker")
    assert json.loads((site_dir / "en" / "search" / "search_index.json").read_text("utf-8"))[
        "config"
    ]["lang"] == ["en"]


def test_the_chinese_search_still_finds_a_chinese_word(
    site_dir: Path, open_shared_page: OpenPage
) -> None:
    page = open_shared_page("index.html")
    results = search(page, CHINESE_WORD)
    assert (site_dir / "chapters" / "ch10-modern-llm.html").as_uri() in results, results
    assert not any(url.startswith((site_dir / "en").as_uri() + "/") for url in results), results

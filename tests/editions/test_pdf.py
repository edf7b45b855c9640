"""The PDF edition of the project's book, opened with pypdf: chapter 10's headings and checked
numbers as the site shows them, every font embedded (one of them the CJK font), bookmarks for
every chapter and section, internal links that land on pages, the quiz key, hidden code hidden;
the English edition (llmbook.en.pdf) beside it, in English, in Typst's own Latin fonts."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pypdf
import pytest
from bs4 import BeautifulSoup

BOOK = [  # the nav without the guides (mkdocs.yml: editions_skip)
    "index.html",
    "chapters/ch10-modern-llm.html",
    "lessons/lesson03-five-upgrades.html",
    "notebooks/llama-kv-cache.html",
    "labs/smollm2-135m.html",
    "glossary.html",
    "references.html",
]


@cache
def _reader(path: Path) -> pypdf.PdfReader:
    return pypdf.PdfReader(path)


@pytest.fixture
def pdf(editions) -> pypdf.PdfReader:
    return _reader(editions[1] / "llmbook.pdf")


@pytest.fixture
def english_pdf(editions) -> pypdf.PdfReader:
    return _reader(editions[1] / "llmbook.en.pdf")


def _squeeze(text: str) -> str:
    """Without spaces, a minus as a hyphen (Typst sets `-0.131` with a true minus sign)."""
    return re.sub(r"\s+", "", text).replace("\u2212", "-")


def _article(site: Path, url: str) -> BeautifulSoup:
    html = (site / url).read_text(encoding="utf-8")
    return BeautifulSoup(html, "html.parser").select_one("article")


def _heading(tag) -> str:  # noqa: ANN001
    for link in tag.select("a.headerlink"):
        link.decompose()
    return tag.get_text(" ", strip=True)


def _outline(pdf: pypdf.PdfReader) -> list[tuple[int, str, int]]:
    """(depth, title, page index) of every bookmark, in order."""
    found = []

    def walk(items, depth: int) -> None:  # noqa: ANN001
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                found.append((depth, item.title, pdf.get_destination_page_number(item)))

    walk(pdf.outline, 0)
    return found


def _chapter_text(pdf: pypdf.PdfReader, title: str) -> str:
    chapters = [(name, page) for depth, name, page in _outline(pdf) if depth == 0]
    start = next(page for name, page in chapters if name == title)
    end = min([page for _, page in chapters if page > start] or [len(pdf.pages)])
    return "".join(pdf.pages[i].extract_text() for i in range(start, end))


def test_chapter_10s_headings_and_checked_numbers_are_in_the_pdf(editions, pdf) -> None:
    site = editions[0]
    article = _article(site, "chapters/ch10-modern-llm.html")
    title = _heading(article.find("h1"))
    text = _squeeze(_chapter_text(pdf, title))
    for heading in article.find_all(["h2", "h3"]):
        assert _squeeze(_heading(heading)) in text
    # A solution prints at the chapter's end, after the quiz answers: its numbers are there.
    solutions = article.select(".llmbook-solution .llmbook-num")
    numbers = [span.get_text() for span in article.select(".llmbook-num") if span not in solutions]
    assert len(numbers) > 100 and solutions
    numbers += [span.get_text() for span in solutions]
    # In the site's order: each checked number after the one before it.
    position = 0
    for number in numbers:
        found = text.find(_squeeze(number), position)
        assert found >= 0, f"{number!r} is not in chapter 10 after position {position}"
        position = found


def test_a_cross_reference_prints_the_page_its_target_is_on(pdf) -> None:
    outline = _outline(pdf)
    first = outline[0][2]  # the first page of the body is page 1 (after cover and contents)
    section = next(page for _, title, page in outline if title.startswith("10.2 "))
    text = _squeeze("".join(page.extract_text() for page in pdf.pages))
    assert f"10.2节（第{section - first + 1}页）" in text


def _fonts(pdf: pypdf.PdfReader) -> dict[str, bool]:
    """Every font of the PDF: whether it is embedded."""
    fonts = {}
    for page in pdf.pages:
        for font in (page["/Resources"].get_object().get("/Font") or {}).values():
            font = font.get_object()
            described = font.get("/FontDescriptor")
            if described is None:
                described = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            described = described.get_object()
            files = ("/FontFile", "/FontFile2", "/FontFile3")
            fonts[str(font["/BaseFont"])] = any(key in described for key in files)
    return fonts


def test_every_font_is_embedded_and_one_is_the_cjk_font(pdf) -> None:
    fonts = _fonts(pdf)
    assert fonts and all(fonts.values()), fonts
    assert any("NotoSansCJK" in name for name in fonts)
    assert all(re.match(r"/[A-Z]{6}\+", name) for name in fonts)  # subsets


def test_the_bookmarks_hold_every_chapter_and_section(editions, pdf) -> None:
    outline = _outline(pdf)
    chapters = [title for depth, title, _ in outline if depth == 0]
    sections = [title for depth, title, _ in outline if depth == 1]
    for url in BOOK:
        article = _article(editions[0], url)
        assert _heading(article.find("h1")) in chapters
        for heading in article.find_all("h2"):
            assert _heading(heading) in sections
    assert chapters.count("写作指南") == 0  # the guides are left out
    pages = [page for _, _, page in outline]
    assert pages == sorted(pages) and pages[0] >= 2  # after the cover and the contents


def test_every_internal_link_lands_on_a_page(pdf) -> None:
    internal = 0
    for page in pdf.pages:
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") != "/Link" or "/Dest" not in annotation:
                continue
            destination = annotation["/Dest"]
            if not isinstance(destination, list):
                destination = pdf.named_destinations[str(destination)]
                target = pdf.get_destination_page_number(destination)
            else:
                target = pdf.get_page_number(destination[0].get_object())
            assert 0 <= target < len(pdf.pages)
            internal += 1
    assert internal > 100


def test_the_quiz_key_holds_every_quizs_answer(editions, pdf) -> None:
    article = _article(editions[0], "chapters/ch10-modern-llm.html")
    answers = [quiz["data-answer"] for quiz in article.select(".llmbook-quiz")]
    assert answers
    text = _squeeze(_chapter_text(pdf, _heading(article.find("h1"))))
    key = text[text.index("小测验答案") :]
    for number, answer in enumerate(answers, start=1):
        assert f"第{number}题：{answer}" in key


def test_demos_are_their_drawing_and_a_note_and_hidden_code_stays_hidden(editions, pdf) -> None:
    text = _squeeze("".join(page.extract_text() for page in pdf.pages))
    demos = len(_article(editions[0], "chapters/ch10-modern-llm.html").select(".llmbook-demo"))
    assert text.count("交互版本见本书网站。") >= demos > 0
    assert "kv_7b_4096=kv_cache_bytes_for" not in text  # the home page's `python hidden` block
    assert "标记为已完成" not in text  # a card's button is the site's only


def test_each_language_has_its_own_pdf_and_its_site_links_it(editions, pdf) -> None:
    site, dist = editions
    names = ["llmbook.en.epub", "llmbook.en.pdf", "llmbook.epub", "llmbook.pdf"]
    assert sorted(path.name for path in dist.iterdir()) == names
    assert pdf.metadata.title == "llmbook · 现代 LLM 架构"  # the English build left it be
    assert pdf.trailer["/Root"]["/Lang"] == "zh-CN"
    for folder, name in ((site, "llmbook.pdf"), (site / "en", "llmbook.en.pdf")):
        assert (folder / name).read_bytes() == (dist / name).read_bytes()
        assert f'href="{name}" download' in (folder / "index.html").read_text(encoding="utf-8")
    assert not (site / "en" / "llmbook.pdf").exists()


def test_the_english_pdf_speaks_english_in_typsts_latin_fonts(english_pdf) -> None:
    cover, contents = (english_pdf.pages[n].extract_text() for n in (0, 1))
    assert cover.startswith("llmbook · Modern LLM Architecture\nAn executable textbook")
    assert contents.startswith("Contents\n") and "Chapter 10 · Modern LLM Architecture" in contents
    assert english_pdf.metadata.title == "llmbook · Modern LLM Architecture"
    assert english_pdf.trailer["/Root"]["/Lang"] == "en"
    fonts = _fonts(english_pdf)
    assert fonts and all(fonts.values()), fonts
    assert any("LibertinusSerif" in name for name in fonts)  # ships inside Typst
    assert any("NotoSansCJK" in name for name in fonts)  # the Chinese that remains still drawn


def test_the_english_pdfs_interface_text_is_english(english_pdf) -> None:
    outline = _outline(english_pdf)
    first = outline[0][2]
    section = next(page for _, title, page in outline if title.startswith("10.2 "))
    text = "".join(page.extract_text() for page in english_pdf.pages)
    assert f"Section 10.2 (p. {section - first + 1})" in text
    key = text[text.index("Answers to the quizzes") :]
    assert "Quiz 1: " in key
    assert "The interactive version is on the book's website." in text
    for chinese in ("目录", "小测验答案", "交互版本见本书网站", "中文 · English"):
        assert chinese not in text

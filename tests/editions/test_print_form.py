"""Print forms of the directives (editions/print_form.py) and the book's anchors
(editions/article.py), on small pieces of the site's HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from book_locales import EN, ZH
from bs4 import BeautifulSoup
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.directives import shipped
from llmbook.editions import edition_kinds
from llmbook.editions.article import book_articles, page_key
from llmbook.editions.links import edition_links, edition_name
from llmbook.editions.model import Book, BookPage
from llmbook.editions.pdf import template_values
from llmbook.editions.print_form import print_form

QUIZ = """<div class="admonition question llmbook-quiz" data-answer="{answer}"><p class="admonition-title">小测验</p>
<div class="llmbook-quiz__question"><p>{question}</p></div>
<ol class="llmbook-quiz__options"><li class="llmbook-quiz__option">A. 甲</li><li class="llmbook-quiz__option">B. 乙</li></ol>
<p class="llmbook-quiz__feedback" role="status"></p>
<details class="llmbook-quiz__answer"><summary>答案与解析</summary><p class="llmbook-quiz__key">答案：<strong>{answer}</strong></p>
<div class="llmbook-quiz__explanation"><p>{why}</p></div></details></div>"""


def _soup(html: str) -> BeautifulSoup:
    return BeautifulSoup(print_form(html, locale=ZH, directives=shipped()).html, "html.parser")


def test_a_quiz_keeps_its_options_and_its_answer_goes_to_the_key() -> None:
    html = QUIZ.format(answer="B", question="哪个对？", why="因为乙。")
    html += QUIZ.format(answer="A", question="再问？", why="因为甲。")
    soup = _soup(html)
    boxes = soup.select("div.llmbook-box")
    assert [b.p.get_text() for b in boxes] == ["小测验 1", "小测验 2", "小测验答案"]
    assert "答案与解析" not in boxes[0].get_text() and "甲" in boxes[0].get_text()
    key = boxes[-1].select("li")
    assert [item.get_text() for item in key] == ["第 1 题：B因为乙。", "第 2 题：A因为甲。"]


def test_folds_open_and_answers_follow_their_questions() -> None:
    soup = _soup(
        '<details class="example llmbook-fold"><summary>完整代码</summary><p>正文</p></details>'
        '<div class="admonition question llmbook-interview"><p class="admonition-title">面试常问</p>'
        "<p><strong>Q1：为什么？</strong></p>"
        '<details class="success llmbook-answer"><summary>查看答案</summary><p>因为。</p></details></div>'
    )
    fold, interview = soup.select("div.llmbook-box")
    assert fold["data-kind"] == "example" and fold.get_text("|") == "完整代码|正文"
    assert interview.get_text("|", strip=True) == "面试常问|Q1：为什么？|答：|因为。"
    assert not soup.select("details, summary")
    hidden = _soup(
        '<details class="llmbook-hide"><summary>显示代码</summary><pre>x = 1</pre></details>'
    )
    assert str(hidden) == "<pre>x = 1</pre>"


def test_every_tab_is_shown_under_its_label() -> None:
    soup = _soup(
        '<div class="tabbed-set"><input type="radio"/><input type="radio"/>'
        '<div class="tabbed-labels"><label>第一步</label><label>第二步</label></div>'
        '<div class="tabbed-content"><div class="tabbed-block"><p>一</p></div>'
        '<div class="tabbed-block"><p>二</p></div></div></div>'
    )
    assert soup.get_text("|", strip=True) == "第一步|一|第二步|二"
    assert not soup.select("input")


def test_a_demo_is_its_drawing_under_a_caption_with_a_note() -> None:
    printed = print_form(
        '<figure class="llmbook-demo"><figcaption class="llmbook-demo__title">交互：旋转</figcaption>'
        '<div class="llmbook-demo__figure"><svg viewbox="0 0 10 10" aria-label="图">'
        '<line stroke="currentColor"/></svg></div><div class="llmbook-demo__narrow"><svg/></div>'
        '<div class="llmbook-widget"><label>角度<input type="range"/></label></div></figure>',
        locale=ZH,
        directives=shipped(),
    )
    soup = BeautifulSoup(printed.html, "html.parser")
    assert [img["src"] for img in soup.select("img")] == ["drawing-1.svg"]
    assert not soup.select(".llmbook-widget")
    assert soup.select_one("figcaption").get_text() == "交互：旋转 交互版本见本书网站。"
    assert 'viewBox="0 0 10 10"' in printed.svgs["drawing-1.svg"]
    assert "currentColor" not in printed.svgs["drawing-1.svg"]


def test_numbers_lose_their_tooltips_and_code_names_its_language() -> None:
    soup = _soup(
        '<p><span class="llmbook-num" title="x = 3（构建时计算并核对）">3</span></p>'
        '<div class="language-python highlight"><pre><span></span><code><span class="n">x</span>'
        ' <span class="o">=</span> 1</code></pre></div>'
    )
    assert str(soup.p) == '<p><span class="llmbook-num">3</span></p>'
    assert str(soup.pre) == '<pre><code class="python">x = 1</code></pre>'


def test_anchors_and_links_become_the_books() -> None:
    one = BookPage("docs/a/one.md", "a/one.html", "一")
    two = BookPage("docs/two.md", "two.html", "二")
    built = [
        (one, '<article class="md-content__inner"><h1 id="t">一</h1><p id="x">'
              '<a href="../two.html#y">去</a> <a href="#x">此</a> <a href="one.ipynb">下载</a> '
              '<a href="../two.html">整页</a> <a href="https://e.org">外</a></p></article>'),
        (two, '<article><h1 id="top">二</h1><dl><dt id="y">词</dt><dd>释</dd></dl></article>'),
    ]  # fmt: skip
    first, second = book_articles(built)
    assert page_key("a/one.html") == "a-one"
    assert '<h1 id="a-one--t">' in first
    hrefs = [a["href"] for a in BeautifulSoup(first, "html.parser").select("a")]
    assert hrefs == ["#two--y", "#a-one--x", "#two--top", "https://e.org"]
    assert "下载" in first and 'href="one.ipynb"' not in first
    assert '<dt><span id="two--y">词</span></dt>' in second


def test_a_cross_reference_is_marked_and_other_links_are_not() -> None:
    soup = _soup('<p><a href="#a--gqa">10.2 节</a> <a href="#g--term-gqa">GQA</a> '
                 '<a href="#a--fig">图 10-3</a> <a href="https://e.org">第 2 章</a></p>')  # fmt: skip
    assert [a.get("class") for a in soup.select("a")] == [
        ["llmbook-xref"], None, ["llmbook-xref"], None,
    ]  # fmt: skip


def test_edition_kinds_and_links(monkeypatch) -> None:
    monkeypatch.delenv("LLMBOOK_EDITIONS", raising=False)
    assert edition_kinds(["pdf"]) == ("pdf",)
    monkeypatch.setenv("LLMBOOK_EDITIONS", "epub")
    assert edition_kinds(["pdf"]) == ("epub",)
    monkeypatch.setenv("LLMBOOK_EDITIONS", "pdf,mobi")
    with pytest.raises(LLMBookError) as error:
        edition_kinds([])
    assert str(error.value) == (
        "editions: mobi is no edition. Fix: choose among pdf, epub (the llmbook option "
        "`editions`, or LLMBOOK_EDITIONS=pdf,epub)"
    )
    assert edition_links(["pdf", "epub"], "chapters/x.html", ZH) == (
        '<a href="../llmbook.pdf" download>PDF 版（A4，可打印）'
        '</a> · <a href="../llmbook.epub" download>EPUB 版（电子书阅读器）</a>'
    )


def test_each_language_has_its_own_edition_files() -> None:
    """The book's own language (the first of `languages`, or any when there is one language)
    keeps llmbook.pdf; another's edition is llmbook.<language>.pdf, and its pages link that."""
    assert edition_name("pdf", "zh") == "llmbook.pdf"
    assert edition_name("pdf", "en") == "llmbook.pdf"  # an English book of one language
    assert edition_name("epub", "zh", ["zh", "en"]) == "llmbook.epub"
    assert edition_name("pdf", "en", ["zh", "en"]) == "llmbook.en.pdf"
    assert edition_links(["pdf", "epub"], "index.html", EN, ["zh", "en"]) == (
        '<a href="llmbook.en.pdf" download>'
        'PDF (A4, printable)</a> · <a href="llmbook.en.epub" download>EPUB (e-readers)</a>'
    )


def test_the_pdf_template_is_filled_in_the_books_language() -> None:
    chinese = template_values(Book("书", "副题", "2026-01-02", ZH))
    assert (chinese["lang"], chinese["region"], chinese["contents"]) == ("zh", "cn", "目录")
    assert chinese["page"] == "（第 {number} 页）"
    english = template_values(Book("Book", "Sub", "2026-01-02", EN))
    assert (english["lang"], english["region"], english["contents"]) == ("en", "", "Contents")
    assert english["page"] == " (p. {number})"
    assert Book("B", "", "", EN).language_tag == "en"


def test_english_print_forms_and_no_language_switcher() -> None:
    html = QUIZ.format(answer="B", question="Which?", why="Because.")
    html += '<nav class="llmbook-languages"><a href="../index.html">中文</a> · English</nav>'
    html += '<span class="llmbook-card__number">1</span>'
    soup = BeautifulSoup(print_form(html, locale=EN, directives=shipped()).html, "html.parser")
    assert [b.p.get_text() for b in soup.select("div.llmbook-box")] == [
        "Quiz 1", "Answers to the quizzes",
    ]  # fmt: skip
    assert soup.select_one(".llmbook-answer-key li").get_text() == "Quiz 1: BBecause."
    assert not soup.select("nav") and "中文" not in soup.get_text()
    assert soup.select_one(".llmbook-card__number").get_text() == "1. "


def test_a_character_no_font_draws_stops_the_pdf_at_its_line(tmp_path, monkeypatch) -> None:
    from llmbook.editions.glyphs import check_glyphs

    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# 标题\n\n羊驼 🦙 与 Kᵀ\n", encoding="utf-8")
    check_glyphs([("docs/a.md", "<p>羊驼与 Kᵀ、αβ、→ ⊕ ✓ <math><mi>𝒪</mi></math></p>")])
    with pytest.raises(AuthorError) as error:
        check_glyphs([("docs/a.md", "<p>羊驼 🦙 与 Kᵀ</p>")])
    assert str(error.value) == (
        "docs/a.md:3: the PDF edition cannot draw 🦙 (U+1F999 LLAMA): no font of the book has "
        "it Fix: write it another way (a word, an image), or keep it out of the book's pages"
    )


def test_a_site_without_editions_never_loads_their_tools() -> None:
    """`nox -s docs` installs no editions tool: the plugin must import without them."""
    import subprocess
    import sys

    code = (
        "import sys, llmbook.adapters.mkdocs.plugin, llmbook.extension, llmbook.editions; "
        "print(sorted(m for m in ('bs4', 'lxml', 'pypandoc', 'typst') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "[]\n"


def test_an_english_book_prints_its_answers_in_english() -> None:
    quiz = (
        '<div class="admonition question llmbook-quiz" data-llmbook-quiz data-answer="B">'
        '<p class="admonition-title">Quiz</p><div class="llmbook-quiz__question"><p>Which?</p>'
        '</div><ol class="llmbook-quiz__options"><li>A</li><li>B</li></ol>'
        '<details class="llmbook-quiz__answer"><summary>Answer and explanation</summary>'
        '<div class="llmbook-quiz__explanation"><p>Because.</p></div></details></div>'
    )
    html = print_form(quiz, locale=EN, directives=shipped()).html
    assert "Quiz 1" in html and "Answers to the quizzes" in html and "Quiz 1: B" in html
    assert "小测验" not in html and "第 1 题" not in html


EDITIONS = Path(__file__).resolve().parents[2] / "plugins" / "llmbook" / "editions"


def _naming(name: str, classes: tuple[str, ...]) -> re.Pattern[str]:
    """How code names a directive: `:::name`, its `llmbook-name` class and the classes its web
    form writes (a word `quiz` in prose, a store's namespace "editions", is no name)."""
    forms = [f":::{name}\\b", f"llmbook-{name}(?![a-z0-9-])"]
    forms += [re.escape(c) + "(?![a-z0-9_-])" for c in classes]
    return re.compile("|".join(forms))


def editions_naming_directives(folder: Path) -> list[str]:
    """`module: name` for each module of `folder` that names a shipped directive."""
    found = []
    for module in sorted(folder.glob("*.py")):
        text = module.read_text(encoding="utf-8")
        for directive in shipped():
            if _naming(directive.NAME, directive.CLASSES).search(text):
                found.append(f"{module.name}: {directive.NAME}")
    return found


def test_no_module_of_the_editions_names_a_directive() -> None:
    assert editions_naming_directives(EDITIONS) == []


def test_a_module_that_names_a_directive_is_found(tmp_path) -> None:
    (tmp_path / "a.py").write_text('soup.select(".llmbook-quiz")\n', encoding="utf-8")
    (tmp_path / "b.py").write_text('soup.select("div.tabbed-set")\n', encoding="utf-8")
    (tmp_path / "c.py").write_text('"""Boxes print as boxes; a quiz word in prose."""\n')
    assert editions_naming_directives(tmp_path) == ["a.py: quiz", "b.py: tabs"]


def test_every_directive_adds_to_the_page_end_in_rank_order() -> None:
    html = QUIZ.format(answer="A", question="哪个？", why="甲。")
    soup = _soup(html + "<p>正文</p>")
    assert soup.find_all(recursive=False)[-1]["class"] == ["llmbook-box", "llmbook-answer-key"]

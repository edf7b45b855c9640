"""`:::exercise TITLE {#id}` with one `:::solution`: numbered per chapter like figures, referenced
and checked like them, the solution folded on the web and printed at the page's end, kept by a
translation (directives/exercise.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from book_locales import EN, ZH
from bs4 import BeautifulSoup
from llmbook.book.index import BookIndex
from llmbook.book.parts import page_parts
from llmbook.core.errors import AuthorError
from llmbook.core.formulas import math_spans
from llmbook.core.lexer import lex
from llmbook.directives import parse_directives, shipped
from llmbook.editions.print_form import print_form
from llmbook.execute.stages.collect import collect_page
from llmbook.execute.stages.front_matter import split_front_matter
from llmbook.translate.fingerprint import fingerprint

EXERCISE = """\
:::exercise KV cache 占多少字节？ {#ex-kv}
题目。

:::solution
解答正文。
:::
:::
"""

CHAPTER = """\
---
chapter: 10
---
# 第 10 章 · 现代 LLM

## 10.1 缓存 {#cache}

:::exercise 第一题 {#ex-a}
问。

:::solution
答。
:::
:::

:::exercise 第二题 {#ex-b}
见 [练习 10-1](#ex-a)。

:::solution
答。
:::
:::

回看 [练习 10-2](#ex-b)。
"""


def _parts(text: str, uri: str = "chapters/ch10.md", locale=ZH):
    meta, body, first = split_front_matter(textwrap.dedent(text), src=f"docs/{uri}")
    source = collect_page(lex(body, first), src=f"docs/{uri}", meta=meta, execute=False)
    return page_parts(
        source.lexed,
        src=source.src,
        uri=uri,
        chapter=source.chapter,
        math=math_spans(source.lexed, src=source.src),
        headings=lambda text: [{"name": "10.1 缓存", "id": "cache"}],
        locale=locale,
    )


def _check(text: str, locale=ZH) -> list[str]:
    book = BookIndex.of([_parts(text, locale=locale)], locale)
    return [str(e) for e in book.check({"docs/chapters/ch10.md": True})]


def test_exercises_are_numbered_per_chapter_in_page_order():
    parts = _parts(CHAPTER)
    assert [(p.id, p.number, p.title) for p in parts.numbered("exercise")] == [
        ("ex-a", "10-1", "第一题"),
        ("ex-b", "10-2", "第二题"),
    ]
    assert _check(CHAPTER) == []


def test_a_stale_exercise_number_fails_at_its_line():
    stale = CHAPTER.replace("回看 [练习 10-2](#ex-b)", "回看 [练习 10-3](#ex-b)")
    assert _check(stale) == [
        "docs/chapters/ch10.md:24: written 练习 10-3, the target is now 练习 10-2 (第二题): "
        "[练习 10-3](#ex-b) Fix: write 练习 10-2, or link the exercise you mean"
    ]


def test_an_english_reference_is_checked_in_its_own_form():
    english = CHAPTER.replace("回看 [练习 10-2](#ex-b)", "See [Exercise 10-1](#ex-b).")
    assert _check(english, EN)[0].startswith(
        "docs/chapters/ch10.md:24: written Exercise 10-1, the target is now Exercise 10-2"
    )


def test_the_exercise_renders_as_a_box_with_its_solution_folded(render):
    page = render(EXERCISE)
    assert page.startswith(
        '<div class="admonition example llmbook-exercise" id="ex-kv"><p class="admonition-title">'
        "KV cache 占多少字节？</p>"
    )
    assert '<details class="success llmbook-solution"><summary>解答</summary>' in page
    assert "{#ex-kv}" not in page


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            ":::exercise 题 {#ex-a}\n问。\n:::\n",
            "d.md:1: :::exercise has no :::solution Fix: add a :::solution block inside it, "
            "after the question, with the worked answer",
        ),
        (
            ":::exercise 题\n问。\n:::solution\n一\n:::\n:::solution\n二\n:::\n:::\n",
            "d.md:6: :::exercise holds 2 :::solution blocks (lines 3, 6) Fix: keep one "
            ":::solution per exercise: merge them",
        ),
        (
            ":::exercise {#ex-a}\n:::solution\n答\n:::\n:::\n",
            "d.md:1: :::exercise needs a title before its {#id} Fix: write it after the name, "
            'e.g. ":::exercise KV cache 占多少字节？ {#ex-kv}"',
        ),
        (
            ":::exercise 题 {#1a}\n:::solution\n答\n:::\n:::\n",
            "d.md:1: :::exercise option id '1a' is invalid: an id is a letter, then letters, "
            'digits, -, _ or : Fix: write it as in ":::exercise KV cache 占多少字节？ {#ex-kv}"',
        ),
        (
            ":::exercise 题 {level=2}\n:::solution\n答\n:::\n:::\n",
            "d.md:1: :::exercise has no option level Fix: write one of id in its braces, e.g. "
            '":::exercise KV cache 占多少字节？ {#ex-kv}"',
        ),
        (
            ":::solution\n答\n:::\n",
            "d.md:1: :::solution belongs inside :::exercise Fix: move it into a :::exercise block",
        ),
    ],
)
def test_a_malformed_exercise_names_its_line_and_fix(source, message):
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="d.md", locale=ZH)
    assert str(caught.value) == message


QUIZ_KEY = (
    '<div class="admonition question llmbook-quiz" data-answer="A"><p class="admonition-title">'
    '小测验</p><div class="llmbook-quiz__question"><p>问</p></div><details class='
    '"llmbook-quiz__answer"><summary>答案</summary><div class="llmbook-quiz__explanation">'
    "<p>因为。</p></div></details></div>"
)


def test_in_print_the_solutions_follow_the_quiz_answers_at_the_pages_end(render):
    web = render(EXERCISE).replace(
        "KV cache", '<span class="llmbook-exercise__number">练习 10-1</span> KV cache', 1
    )
    printed = print_form(web + QUIZ_KEY + "<p>正文</p>", locale=ZH, directives=shipped())
    soup = BeautifulSoup(printed.html, "html.parser")
    boxes = soup.find_all("div", recursive=False)
    assert [b["class"] for b in boxes[-2:]] == [
        ["llmbook-box", "llmbook-answer-key"],
        ["llmbook-box", "llmbook-solutions"],
    ]
    solutions = boxes[-1]
    assert solutions.find("p", class_="llmbook-box__title").get_text() == "练习解答"
    assert "练习 10-1" in solutions.get_text() and "解答正文。" in solutions.get_text()
    assert "解答正文" not in boxes[0].get_text()  # the question stays, without its solution


def test_a_translation_keeps_its_exercises(tmp_path: Path):
    meta, body, first = split_front_matter(EXERCISE, src="docs/x.md")
    source = collect_page(lex(body, first), src="docs/x.md", meta=meta, execute=False)
    marks = [(m.kind, m.value) for m in fingerprint(source, ZH).sections[0].marks]
    assert marks == [
        ("directive", "exercise"),
        ("exercise", "#ex-kv"),
        ("directive", "solution"),
    ]

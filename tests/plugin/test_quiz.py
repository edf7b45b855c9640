"""`:::quiz`: the widget's markup, JavaScript-free correctness, escaping, and every author error."""

from __future__ import annotations

import re

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.directives import parse_directives

QUIZ = """:::quiz
KV Cache 的核心作用是？

A. 减少显存占用
B. 避免重复计算历史 token 的 K/V
C. 提高模型精度
D. 加速训练

答案: B
解析: KV Cache 缓存历史的 **Key/Value**。
代价是显存（A 说反了）。
:::
"""


def test_quiz_renders_a_widget(render):
    page = render(QUIZ)
    assert page.startswith(
        '<div class="admonition question llmbook-quiz" id="llmbook-quiz-0" data-llmbook-quiz data-answer="B">'
    )
    assert '<div class="llmbook-quiz__question">\n<p>KV Cache 的核心作用是？</p>\n</div>' in page
    letters = re.findall(r'<li class="llmbook-quiz__option" data-letter="([A-F])">', page)
    assert letters == ["A", "B", "C", "D"]
    assert (
        '<span class="llmbook-quiz__letter">B.</span> <span class="llmbook-quiz__text">避免重复计算历史 token 的 K/V</span>'
        in page
    )


def test_without_javascript_answer_and_explanation_sit_in_a_closed_details(render):
    page = render(QUIZ)
    (details,) = re.findall(r"<details[^>]*>.*?</details>", page, re.S)
    assert details.startswith(
        '<details class="llmbook-quiz__answer" data-search-exclude><summary>答案与解析</summary>'
    )
    assert "open" not in details.split(">", 1)[0]
    assert "答案：<strong>B</strong>" in details
    assert (
        "<p>KV Cache 缓存历史的 <strong>Key/Value</strong>。\n代价是显存（A 说反了）。</p>"
        in details
    )
    # The key is nowhere outside the search-excluded details but the data attribute.
    outside = page.replace(details, "")
    assert "答案" not in outside and "说反了" not in outside


def test_author_text_is_escaped_in_options_and_explanation(render):
    evil = "</script><script>alert(1)</script>"
    page = render(f':::quiz\n问题 "x"？\nA. {evil}\nB. 安全 `a<b`\n答案: A\n解析: {evil}\n:::\n')
    assert "<script>" not in page
    assert page.count("&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;") == 2
    assert "<code>a&lt;b</code>" in page


def test_six_options_and_full_width_separators(render):
    options = "\n".join(f"{letter}．选项{letter}" for letter in "ABCDEF")
    page = render(f":::quiz\n问？\n{options}\n答案：F\n解析：因为 F。\n:::\n")
    assert page.count('class="llmbook-quiz__option"') == 6 and 'data-answer="F"' in page


def _error(body: str) -> str:
    with pytest.raises(AuthorError) as caught:
        parse_directives(f"前文\n\n:::quiz\n{body}:::\n", src="docs/ch.md", locale=ZH)
    return str(caught.value)


def test_quiz_without_answer_line():
    assert _error("问？\nA. 一\nB. 二\n解析: 因为。\n") == (
        "docs/ch.md:3: quiz has no 答案 line"
        ' Fix: add a line "答案: X" after the options, X being the correct option\'s letter'
    )


def test_answer_letter_not_an_option():
    assert _error("问？\nA. 一\nB. 二\n答案: E\n解析: 因为。\n") == (
        "docs/ch.md:7: quiz answer 'E' is not one of its options A, B Fix: write one of A, B after 答案:"
    )


def test_duplicate_option_letters():
    assert _error("问？\nA. 一\nB. 二\nB. 三\n答案: A\n解析: 因为。\n") == (
        "docs/ch.md:7: quiz option B appears twice (lines 6 and 7) Fix: give every option its own letter: A, B, C, …"
    )


def test_options_out_of_order():
    assert _error("问？\nA. 一\nC. 二\n答案: A\n解析: 因为。\n") == (
        "docs/ch.md:6: quiz option C is out of order: expected B Fix: letter the options A, B, C, … in order (2 to 6 options)"
    )


def test_too_few_options():
    assert _error("问？\nA. 一\n答案: A\n解析: 因为。\n") == (
        'docs/ch.md:3: quiz has 1 option(s); it needs 2 to 6 Fix: write each option on its own line: "A. …", "B. …"'
    )


def test_seventh_option():
    options = "".join(f"{letter}. x\n" for letter in "ABCDEFG")
    assert _error(f"问？\n{options}答案: A\n解析: 因为。\n") == (
        "docs/ch.md:11: quiz option G is out of order: expected at most 6 options"
        " Fix: letter the options A, B, C, … in order (2 to 6 options)"
    )


def test_missing_question_and_explanation():
    assert _error("A. 一\nB. 二\n答案: A\n解析: 因为。\n") == (
        "docs/ch.md:3: quiz has no question Fix: write the question on the lines before option A."
    )
    assert _error("问？\nA. 一\nB. 二\n答案: A\n") == (
        'docs/ch.md:7: quiz has no 解析 line Fix: add "解析: …" after the 答案 line, saying why the answer is right'
    )


def test_stray_text_after_answer():
    assert _error("问？\nA. 一\nB. 二\n答案: A\n多余的话\n") == (
        "docs/ch.md:8: quiz line '多余的话' after 答案 is neither 解析 nor part of it"
        ' Fix: start the explanation with "解析: …" right after the 答案 line'
    )


def test_bindings_and_stash_tokens_survive_in_a_quiz(render):
    page = render(
        ":::quiz\n单条序列要多少显存？\nA. [[kv_gb = 2.1]] GB\nB. LLMBOOKSTASH1X2Z\n答案: A\n"
        "解析: 由 [[29.9 @ Shazeer 2019]] 可知。\n:::\n"
    )
    assert (
        "[[kv_gb = 2.1]] GB" in page
        and "LLMBOOKSTASH1X2Z" in page
        and "[[29.9 @ Shazeer 2019]]" in page
    )

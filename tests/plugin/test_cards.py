"""Lesson cards and progress: markup for cards.js (done toggle, localStorage key, k / N)."""

from __future__ import annotations

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.core.page_ref import PageRef
from llmbook.directives import parse_directives

LESSON = """:::progress
:::

:::card 1 "我打你"和"你打我"——模型怎么知道？
:::hint
提示：两句的向量组有什么区别？
:::
正文。
:::insight 核心矛盾
绝对位置编码只给坐标。
:::
:::

:::card 2 RoPE <怎么> 做
第二张。
:::
"""


def test_cards_and_progress(render):
    page = PageRef("docs/lessons/l3.md", "lessons/l3.html", "lessons/l3.md")
    out = render(LESSON, page=page)
    assert out.startswith(
        '<div class="llmbook-progress" data-llmbook-progress="lessons/l3.md" data-total="2">'
        '<progress class="llmbook-progress__bar" max="2" value="0" aria-label="卡片完成进度"></progress>'
        '<span class="llmbook-progress__text" role="status"><span class="llmbook-progress__done">0</span> / 2 卡片已完成</span></div>'
    )
    assert (
        '<section class="llmbook-card" id="card-1" data-llmbook-card="lessons/l3.md#1">'
        '<header class="llmbook-card__header"><span class="llmbook-card__number">1</span>'
        '<span class="llmbook-card__title">"我打你"和"你打我"——模型怎么知道？</span></header>'
    ) in out
    assert '<span class="llmbook-card__title">RoPE &lt;怎么&gt; 做</span>' in out
    assert (
        out.count(
            '<button type="button" class="md-button llmbook-card__done" aria-pressed="false" hidden>标记为已完成</button>'
        )
        == 2
    )
    assert '<details class="question llmbook-hint"><summary>提示</summary>' in out


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            ":::card 一 标题\nx\n:::\n",
            "d.md:1: card needs a number and a title, got '一 标题' Fix: write \":::card 1 标题\" (the card's number, a space, its title)",
        ),
        (
            ":::card 1 甲\nx\n:::\n:::card 1 乙\ny\n:::\n",
            "d.md:4: card number 1 is used twice (lines 1 and 4) Fix: number the cards 1, 2, 3, … once each",
        ),
        (
            ":::progress\n:::\n",
            "d.md:1: progress counts cards, but the page has no :::card Fix: add :::card blocks or remove :::progress",
        ),
    ],
)
def test_card_errors(source, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="d.md", locale=ZH)
    assert str(caught.value) == expected

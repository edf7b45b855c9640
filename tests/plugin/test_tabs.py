"""`:::tabs`/`:::tab` and `:::walkthrough`/`:::step`: Material content tabs (alternate style)."""

from __future__ import annotations

import re

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.directives import parse_directives


def test_tabs_render_like_pymdownx_tabbed(render):
    page = render(
        ":::tabs\n:::tab Pre-Norm\n```python\nx = x + f(norm(x))\n```\n:::\n:::tab Post-Norm\n后置 **Norm**\n:::\n:::\n"
    )
    assert page.startswith(
        '<div class="tabbed-set tabbed-alternate llmbook-tabs" data-tabs="0:2">'
        '<input checked="checked" id="__tabbed_llmbook0_1" name="__tabbed_llmbook0" type="radio" />'
        '<input id="__tabbed_llmbook0_2" name="__tabbed_llmbook0" type="radio" />'
        '<div class="tabbed-labels"><label for="__tabbed_llmbook0_1">Pre-Norm</label>'
        '<label for="__tabbed_llmbook0_2">Post-Norm</label></div><div class="tabbed-content">\n<div class="tabbed-block">\n'
    )
    assert page.endswith(
        '<div class="tabbed-block">\n<p>后置 <strong>Norm</strong></p>\n</div>\n</div></div>'
    )
    assert page.count('class="tabbed-block"') == 2


def test_two_tab_sets_on_a_page_get_distinct_ids(render):
    page = render(":::tabs\n:::tab A\na\n:::\n:::\n\n:::tabs\n:::tab B\nb\n:::\n:::\n")
    groups = set(re.findall(r'name="(__tabbed_llmbook\d+)"', page))
    assert len(groups) == 2


def test_walkthrough_steps_are_content_tabs(render):
    page = render(
        ":::walkthrough 完整走查\n:::step Step 1：Embedding 表\n| 字 | d₁ |\n|---|---|\n| 我 | 0.5 |\n:::\n"
        ":::step Step 2：不加位置\n两句是同一组向量\n:::\n:::\n"
    )
    assert page.startswith(
        '<div class="admonition example llmbook-walkthrough"><p class="admonition-title">完整走查</p>\n'
    )
    assert re.search(r'<label for="__tabbed_llmbook\d+_1">Step 1：Embedding 表</label>', page)
    assert "<table>" in page and page.count('class="tabbed-block"') == 2


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            ":::tabs\n:::\n",
            "d.md:1: :::tabs has no :::tab block Fix: add :::tab TITLE … ::: blocks inside it",
        ),
        (
            ":::tabs\n散落的文字\n:::tab A\na\n:::\n:::\n",
            "d.md:2: text inside :::tabs outside any :::tab Fix: move it into a :::tab block (or out of the :::tabs block)",
        ),
        (
            ":::tab A\na\n:::\n",
            "d.md:1: :::tab belongs inside :::tabs Fix: move it into a :::tabs block",
        ),
        (
            ":::walkthrough 走查\n:::key k\nx\n:::\n:::\n",
            "d.md:2: :::key cannot stand inside :::walkthrough (it holds :::step) Fix: move :::key out of the :::walkthrough block",
        ),
    ],
)
def test_tab_errors(source, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="d.md", locale=ZH)
    assert str(caught.value) == expected

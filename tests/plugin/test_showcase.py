"""`:::showcase`: the authoring guide's source-beside-result blocks, rendered by the plugin itself."""

from __future__ import annotations

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.directives import parse_directives

EXAMPLE = """说明文字

:::showcase
````markdown
:::warning 常见误区
**KV Cache 减少计算，但增加显存**。
:::
````
:::
"""


def test_showcase_shows_the_source_and_its_rendering(render):
    page = render(EXAMPLE)
    source, result = page.split('<div class="llmbook-showcase__result">')
    assert '<div class="llmbook-showcase"><div class="llmbook-showcase__source">' in source
    assert (
        ":::warning 常见误区\n<strong>" not in source
    )  # the source is shown as code, not rendered
    assert "<code>:::warning 常见误区\n" in source and "**KV Cache 减少计算，但增加显存**" in source
    assert result.startswith(
        '\n<div class="admonition warning llmbook-warning"><p class="admonition-title">常见误区</p>\n'
        "<p><strong>KV Cache 减少计算，但增加显存</strong>。</p>\n</div>"
    )
    assert result.endswith("</div></div>")


def test_errors_in_an_example_name_the_guide_line():
    bad = EXAMPLE.replace(":::warning 常见误区", ":::quiz\n问？\nA. 一\nB. 二\n答案: C\n解析: x")
    with pytest.raises(AuthorError) as caught:
        parse_directives(bad, src="docs/guide/authoring.md", locale=ZH)
    assert str(caught.value) == (
        "docs/guide/authoring.md:9: quiz answer 'C' is not one of its options A, B Fix: write one of A, B after 答案:"
    )


def test_showcase_needs_one_fence():
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::showcase\n:::key k\nx\n:::\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == (
        "d.md:2: :::key cannot stand inside :::showcase (it holds no blocks) Fix: move :::key out of the :::showcase block"
    )
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::showcase\n不是代码\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == (
        "d.md:1: showcase holds one fenced code block with the example's source"
        " Fix: wrap the example in ````markdown … ```` inside :::showcase"
    )


def test_math_in_an_example_renders_through_the_math_stage(render):
    pytest.importorskip("llmbook.core.formulas")
    page = render(
        ":::showcase\n```markdown\n:::math 推导\n$$\nd_{ff} \\approx \\frac{8}{3}d\n$$\n:::\n```\n:::\n"
    )
    result = page.split('<div class="llmbook-showcase__result">')[1]
    assert "<math" in result and "$$" not in result

"""Box directives: Markdown in, Material admonition/details HTML out."""

from __future__ import annotations

import re

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.directives import DuplicateDirective, Registry, parse_directives, shipped
from llmbook.directives.box import BOX_TYPES, BoxDirective, BoxType, box_classes


@pytest.mark.parametrize(
    ("name", "opening", "closing"),
    [
        (
            "unfold",
            '<details class="tip llmbook-unfold" open="open"><summary>标题</summary>',
            "</details>",
        ),
        ("fold", '<details class="example llmbook-fold"><summary>标题</summary>', "</details>"),
        (
            "math",
            '<details class="abstract llmbook-math" open="open"><summary>标题</summary>',
            "</details>",
        ),
        (
            "key",
            '<div class="admonition success llmbook-key"><p class="admonition-title">标题</p>',
            "</div>",
        ),
        (
            "warning",
            '<div class="admonition warning llmbook-warning"><p class="admonition-title">标题</p>',
            "</div>",
        ),
        (
            "objectives",
            '<div class="admonition abstract llmbook-objectives"><p class="admonition-title">标题</p>',
            "</div>",
        ),
        (
            "insight",
            '<div class="admonition tip llmbook-insight"><p class="admonition-title">标题</p>',
            "</div>",
        ),
        ("hint", '<details class="question llmbook-hint"><summary>标题</summary>', "</details>"),
        (
            "background",
            '<details class="info llmbook-background" open="open"><summary>标题</summary>',
            "</details>",
        ),
    ],
)
def test_box_renders_material_markup_around_markdown(render, name, opening, closing):
    page = render(f"前文\n:::{name} 标题\n生成第 **100** 个 token：\n\n- 一\n- 二\n:::\n后文\n")
    assert page == (
        f"<p>前文</p>\n{opening}\n<p>生成第 <strong>100</strong> 个 token：</p>\n<ul>\n<li>一</li>\n<li>二</li>\n</ul>\n"
        f"{closing}\n<p>后文</p>"
    )


def test_optional_titles_default(render):
    assert '<p class="admonition-title">注意</p>' in render(":::warning\nw\n:::\n")
    assert "<summary>提示</summary>" in render(":::hint\nh\n:::\n")
    assert "<summary>知识背景</summary>" in render(":::background\nb\n:::\n")


def test_title_markdown_renders_and_raw_html_is_escaped(render):
    page = render(":::key `x<y` 与 <b>粗</b>\nk\n:::\n")
    assert '<p class="admonition-title"><code>x&lt;y</code> 与 &lt;b&gt;粗&lt;/b&gt;</p>' in page


def test_code_inside_a_box_keeps_its_text(render):
    page = render(":::fold 实现\n```python\nK = torch.cat([a, b], dim=1)   # 拼接\n```\n:::\n")
    assert (
        "拼接" in page
        and 'highlight"><pre>' in page  # Pygments' block (its language named where configured)
        and page.startswith('<details class="example llmbook-fold">')
    )


def test_interview_hides_each_answer_behind_a_toggle(render):
    page = render(
        ":::interview 面试常问\n**Q1：为什么？**\n\n:::answer\n因为 A。\n:::\n\n**Q2：代价？**\n\n:::answer\n显存。\n:::\n:::\n"
    )
    assert page == (
        '<div class="admonition question llmbook-interview"><p class="admonition-title">面试常问</p>\n'
        "<p><strong>Q1：为什么？</strong></p>\n"
        '<details class="success llmbook-answer"><summary>查看答案</summary>\n<p>因为 A。</p>\n</details>\n'
        "<p><strong>Q2：代价？</strong></p>\n"
        '<details class="success llmbook-answer"><summary>查看答案</summary>\n<p>显存。</p>\n</details>\n'
        "</div>"
    )


def test_interview_without_answer_fails():
    with pytest.raises(AuthorError) as caught:
        parse_directives(
            "x\n\n:::interview 面试常问\n**Q：为什么？**\n:::\n", src="docs/ch.md", locale=ZH
        )
    assert str(caught.value) == (
        "docs/ch.md:3: interview has no :::answer block"
        " Fix: put each question's answer in a :::answer … ::: block below the question"
    )


def test_chain_renders_its_numbered_steps(render):
    page = render(":::chain 本节推理链（2 步）\n1. **约束一** — 位置\n2. **约束二** — 显存\n:::\n")
    assert page.startswith(
        '<div class="admonition info llmbook-chain"><p class="admonition-title">本节推理链（2 步）</p>\n<ol>'
    )
    assert page.count("<li>") == 2


def test_chain_without_numbered_steps_fails():
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::chain 推理链\n只是一段话\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == (
        'd.md:1: chain has no numbered steps Fix: write the steps as a numbered list: "1. **约束一：…** — …", one item per step'
    )


def test_every_row_of_the_box_table_is_a_registered_directive():
    for row in BOX_TYPES:
        directive = shipped().get(row.name)
        assert isinstance(directive, BoxDirective), row.name
        assert (directive.KIND, directive.COLLAPSE, directive.ARGUMENT) == (
            row.kind,
            row.collapse,
            row.argument,
        )
        assert (directive.DEFAULT_TITLE, directive.PARENTS) == (row.default_title, row.parents)


def test_a_box_row_whose_name_is_taken_is_a_programming_error():
    taken = BoxType("key", "note", "a second key box")
    with pytest.raises(DuplicateDirective, match="directive 'key' is registered twice"):
        shipped().extended(box_classes([taken]))
    assert shipped().get("key").KIND == "success"  # the shipped registry is unchanged
    assert Registry(box_classes([taken])).get("key").KIND == "note"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("collapse", "shut", "box 'x': collapse is None, 'open' or 'closed', not 'shut'"),
        ("argument", "maybe", "box 'x': unknown argument rule 'maybe'"),
    ],
)
def test_a_box_row_with_an_unknown_setting_is_refused(field, value, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        BoxType("x", "note", "a test box", **{field: value})


def test_a_forbidden_title_on_a_table_box_names_the_line():
    source = ":::interview 面试\n问？\n\n:::answer 多余\n答。\n:::\n:::\n"
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="docs/ch.md", locale=ZH)
    assert str(caught.value) == (
        "docs/ch.md:4: :::answer takes nothing after its name, got '多余'"
        " Fix: write the text in the block's body, below the :::answer line"
    )

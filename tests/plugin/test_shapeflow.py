"""`:::shapeflow`: the symbolic dimension algebra, the seed's flows, and lines that do not add up."""

from __future__ import annotations

import re

import pytest
from book_locales import EN, ZH
from llmbook.core.errors import AuthorError
from llmbook.core.stash import engine_stash
from llmbook.directives import parse_directives, render_directives
from llmbook.directives.shapes import Grouping, ShapeError, concat, matmul, parse_dim, parse_shape

KV_CACHE = """:::shapeflow
生成第 t 步：K_past [B, H_kv, t−1, d_head] ⊕ K_new [B, H_kv, 1, d_head] → K [B, H_kv, t, d_head]
Q_new [B, H_q, 1, d_head] × Kᵀ [B, H_kv, d_head, t] → scores [B, H_q, 1, t]
:::
"""
GQA = """:::shapeflow
MHA：Q [B, 32, S, d] × Kᵀ [B, 32, d, S] → scores [B, 32, S, S]
GQA：Q [B, 32, S, d] → 每 4 个 Q head 共用 K/V [B, 8, S, d]（广播匹配）
:::
"""
# Chinese writing: Han characters, CJK punctuation, full-width forms (（）：).
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
SWIGLU = """:::shapeflow
x [B, S, d] × W₁ [d, d_ff] → SiLU → [B, S, d_ff]（门）
x [B, S, d] × W₃ [d, d_ff] → [B, S, d_ff]（内容）
门 ⊙ 内容 → [B, S, d_ff] × W₂ [d_ff, d] → [B, S, d]
:::
"""


@pytest.mark.parametrize(
    ("left", "right"),
    [
        ("t−1 + 1", "t"),
        ("t-1+1", "t"),
        ("2d", "d + d"),
        ("(S+1)*2", "2S + 2"),
        ("H_q/H_kv * H_kv", "H_q"),
        ("8/3 d", "d*8/3"),
    ],
)
def test_dims_compare_symbolically(left, right):
    assert parse_dim(left) == parse_dim(right)


@pytest.mark.parametrize(
    ("left", "right"), [("t", "t - 1"), ("d_head", "d"), ("2S", "S^2" if False else "S*S")]
)
def test_different_dims_differ(left, right):
    assert parse_dim(left) != parse_dim(right)


def test_concat_adds_sizes_along_the_differing_axis():
    shape, axis, sums = concat(
        parse_shape("B, H_kv, t−1, d_head"), parse_shape("B, H_kv, 1, d_head")
    )
    assert axis == 2 and shape == parse_shape("B, H_kv, t, d_head") and sums == "t−1 + 1 = t"


def test_matmul_broadcasts_kv_heads_as_gqa():
    shape, groupings = matmul(parse_shape("B, H_q, 1, d_head"), parse_shape("B, H_kv, d_head, t"))
    assert shape == parse_shape("B, H_q, 1, t")
    assert groupings == [
        Grouping(q=parse_dim("H_q"), kv=parse_dim("H_kv"), group=parse_dim("H_q/H_kv"))
    ]
    assert groupings[0].group.text == "H_q/H_kv"


def test_matmul_with_a_weight_keeps_the_leading_dims():
    shape, _ = matmul(parse_shape("B, S, d"), parse_shape("d, d_ff"))
    assert shape == parse_shape("B, S, d_ff")


@pytest.mark.parametrize(
    ("left", "right", "message"),
    [
        (
            "B, S, d",
            "d_ff, d",
            "× needs the inner dims to agree, but [B, S, d] ends in d and [d_ff, d] has d_ff second to last",
        ),
        (
            "B, H, S, d",
            "C, H, d, S",
            "cannot broadcast B against C in [B, H, S, d] and [C, H, d, S]",
        ),
    ],
)
def test_matmul_errors(left, right, message):
    with pytest.raises(ShapeError, match=re.escape(message)):
        matmul(parse_shape(left), parse_shape(right))


def test_a_dimension_that_is_not_an_expression():
    with pytest.raises(
        ShapeError,
        match=re.escape("dimension 'd?' is not a size expression (names, numbers, + − × /)"),
    ):
        parse_dim("d?")


def test_seed_kv_cache_flow_renders_and_checks(render):
    page = render(KV_CACHE)
    assert page.count('class="llmbook-shapeflow__line is-checked"') == 2
    assert "<li>⊕ 沿第 3 维拼接：t−1 + 1 = t</li>" in page
    assert (
        "<li>× 批量矩阵乘：内维 d_head 一致；GQA 分组：H_kv 组 K/V 广播到 H_q 个 Q head"
        "（每 H_q/H_kv 个 Q head 共用一组 K/V） → [B, H_q, 1, t]</li>"
    ) in page
    assert (
        page.count(
            '<span class="llmbook-shapeflow__gqa" title="K/V 头按组广播到 Q 头">GQA 分组</span>'
        )
        == 1
    )
    assert '<span class="llmbook-shapeflow__caption">生成第 t 步</span>' in page
    assert (
        page.count(
            '<span class="llmbook-shapeflow__badge" title="构建时已符号验证">✓ 已验证</span>'
        )
        == 2
    )
    assert (
        '<span class="llmbook-tensor"><span class="llmbook-tensor__name">K_past</span>'
        '<span class="llmbook-tensor__dims">[B, H_kv, t−1, d_head]</span></span>'
    ) in page


def test_seed_gqa_and_swiglu_flows_check(render):
    gqa = render(GQA)
    assert gqa.count("is-checked") == 2 and "GQA 分组：32 个 Q head ÷ 8 组 K/V = 每组 4 个" in gqa
    swiglu = render(SWIGLU)
    assert swiglu.count("is-checked") == 3
    assert (
        '<span class="llmbook-shapeflow__fn">SiLU</span>' in swiglu
        and "SiLU 逐元素作用，形状不变" in swiglu
    )
    assert "⊙ 逐元素运算 → [B, S, d_ff]" in swiglu
    assert '<span class="llmbook-shapeflow__label">（门）</span>' in swiglu


def test_free_text_lines_are_shown_unchecked(render):
    page = render(
        ":::shapeflow\n这里只是说明文字\nQ [B, S, d] → 按二维子空间旋转 → 形状不变\n:::\n"
    )
    assert "这里只是说明文字" in page and "按二维子空间旋转" in page and "形状不变" in page


FIX = (
    " Fix: correct the shapes: ⊕ adds sizes along the one axis that differs, × is a batched matmul"
    " ([…, m, k] × [k, n]), → must lead to the shape computed so far"
)


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        (
            "K_past [B, H, t−1, d] ⊕ K_new [B, H, 1, d] → K [B, H, t+1, d]",
            "the line states [B, H, t+1, d] but the flow so far gives [B, H, t, d]",
        ),
        (
            "K_past [B, H, t−1, d] ⊕ K_new [B, G, 1, d] → K [B, H, t, d]",
            "⊕ concatenates along exactly one axis, but [B, H, t−1, d] and [B, G, 1, d] differ in axes 2, 3",
        ),
        (
            "Q [B, H, 1, d] × Kᵀ [B, H, t, d] → s [B, H, 1, t]",
            "× needs the inner dims to agree, but [B, H, 1, d] ends in d and [B, H, t, d] has t second to last",
        ),
        (
            "Q [B, 32, S, d] → 每 2 个 Q head 共用 K/V [B, 8, S, d]",
            "每 2 个 … 共用 claims groups of 2, but 32 / 8 = 4",
        ),
        (
            "Q [B, 32, S, d] → every 3 Q heads share one K/V head [B, 8, S, d]",
            "every 3 Q heads … share claims groups of 3, but 32 / 8 = 4",
        ),
        (
            "Q [B, 32, S, d] → every two query heads share K/V [B, 8, S, d]",
            "every two Q heads … share claims groups of 2, but 32 / 8 = 4",
        ),
        (
            "门 ⊙ 内容 → [B, S, d]",
            "'门' is not a shape: write name [dims] or a name given earlier in the block",
        ),
    ],
)
def test_a_line_that_does_not_add_up_fails_with_its_line(line, problem):
    with pytest.raises(AuthorError) as caught:
        parse_directives(
            f"### shape\n\n:::shapeflow\nx [B, S] → [B, S]\n{line}\n:::\n",
            src="docs/ch.md",
            locale=ZH,
        )
    assert str(caught.value) == f"docs/ch.md:5: shapeflow line does not add up: {problem}{FIX}"


# -- the page's language: the build's notes and badges in English, the author's words as written ---

GQA_EN = """:::shapeflow
GQA: Q [B, 32, S, d] → every 4 Q heads share one K/V head [B, 8, S, d] (broadcast to match)
:::
"""


def render_in(language: str, markdown: str) -> str:
    stash, restore = engine_stash()
    locale = {"en": EN, "zh": ZH}[language]
    return restore(render_directives(markdown, src="docs/p.md", stash=stash, locale=locale))


def test_the_english_grouping_note_is_checked():
    page = render_in("en", GQA_EN)
    assert page.count("is-checked") == 1
    assert "<li>GQA grouping: 32 Q heads ÷ 8 K/V heads = 4 per group</li>" in page
    assert '<span class="llmbook-shapeflow__label">(broadcast to match)</span>' in page
    # the same note in a Chinese page is checked too, its note in Chinese
    assert "GQA 分组：32 个 Q head ÷ 8 组 K/V = 每组 4 个" in render_in("zh", GQA_EN)


@pytest.mark.parametrize("block", [KV_CACHE, GQA, SWIGLU, GQA_EN])
def test_an_english_page_gets_the_notes_and_badge_in_english(block):
    page = render_in("en", block)
    written = "".join(line for line in block.splitlines()[1:-1])
    # every Chinese character on the page is one the author wrote in the block
    assert set(CJK.findall(page)) <= set(CJK.findall(written))
    assert (
        '<span class="llmbook-shapeflow__badge" title="Checked symbolically at build time">' in page
    )
    assert "✓ checked</span>" in page and "已验证" not in page


def test_english_notes_of_the_seed_flows():
    kv = render_in("en", KV_CACHE)
    assert "<li>⊕ concatenates along axis 3: t−1 + 1 = t</li>" in kv
    assert (
        "<li>× batched matmul: the inner dims agree (d_head); GQA grouping: H_kv K/V heads "
        "broadcast to H_q Q heads (every H_q/H_kv Q heads share one K/V head) → [B, H_q, 1, t]</li>"
    ) in kv
    assert (
        '<span class="llmbook-shapeflow__gqa" title="The K/V heads broadcast to the Q heads by '
        'group">GQA grouping</span>'
    ) in kv
    swiglu = render_in("en", SWIGLU)
    assert "<li>SiLU acts element-wise, the shape is kept</li>" in swiglu
    assert "<li>⊙ element-wise → [B, S, d_ff]</li>" in swiglu
    assert "<li>the result [B, S, d_ff] agrees with the derivation</li>" in swiglu
    assert '<span class="llmbook-shapeflow__label">(门)</span>' in swiglu  # named in Chinese

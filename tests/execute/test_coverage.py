"""Every number accounted for: checked, cited, illustrative, structural (one test per rule), or
unaccounted, which a strict page refuses with the exact message."""

from __future__ import annotations

import logging

import pytest
from book_locales import ZH
from llmbook.core.formulas import math_spans
from llmbook.core.lexer import lex
from llmbook.execute import BuildFailed
from llmbook.execute.numbers.coverage import page_coverage
from llmbook.execute.stages.collect import collect_page


def cover(markdown: str):  # noqa: ANN201
    page = collect_page(lex(markdown), src="docs/p.md", meta={})
    return page_coverage(page, math_spans(lex(markdown)), None, ZH)


def unaccounted(markdown: str) -> list[str]:
    return [u.text for u in cover(markdown).unaccounted]


def test_each_category_is_recognised() -> None:
    cov = cover(
        "```python hidden\nx = 2\n```\n\n"
        "算出 [[x = 2]]，引用 [[29.9 @ Shazeer 2019]]，示意 [[~0.7]]，还有 628。\n"
    )
    assert (cov.checked, cov.cited, cov.illustrative) == (1, 1, 1)
    assert [(u.line, u.text) for u in cov.unaccounted] == [(5, "628")]
    assert cov.structural == 0  # "2019" sits inside the citation, not in prose


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("## 10.3 RoPE 的原理", "a heading's section number"),
        ("3. 第三步先归一化", "an ordered list marker"),
        ("Vaswani 等人 2017 年提出", "a year"),
        ("第 3 层和 Step 2、Card 4，见 10.2 节", "ordinals and references"),
        ("LLaMA-2-7B 用 fp16，Qwen2.5 和 H100 也是名字，L2-C2 也是", "names"),
    ],
)
def test_structural_numbers_are_not_flagged(line: str, why: str) -> None:
    cov = cover(line + "\n")
    assert cov.unaccounted == [], why
    assert cov.structural > 0, why


def test_card_numbers_in_directive_headers_are_structural_but_title_claims_are_not() -> None:
    assert unaccounted(":::card 3 第三张\n正文。\n:::\n") == []
    assert unaccounted(":::key 11008 怎么来的\n正文。\n:::\n") == ["11008"]


def test_shapeflow_bodies_belong_to_the_shape_checker() -> None:
    assert unaccounted(":::shapeflow 形状\nx [B, 32, S, 128]\n:::\n") == []


def test_code_math_links_tags_and_bindings_are_not_prose() -> None:
    text = (
        '代码 `x = 628` 和公式 $d = 128$，链接 [页](p2.md#s-3)，标签 <span data-n="5">字</span>。\n\n'
        "```python\ny = 99\n```\n\n$$\nz = 42\n$$\n"
    )
    assert unaccounted(text) == []


def test_scientific_notation_is_a_number_not_a_name() -> None:
    assert unaccounted("误差约 2.3e-10。\n") == ["2.3e-10"]


def test_a_strict_page_fails_on_one_unaccounted_number(run_md) -> None:
    page = "---\nnumbers: strict\n---\n```python hidden\nx = 2\n```\n\n[[x = 2]] 之外还有 628。\n"
    with pytest.raises(BuildFailed) as error:
        run_md(page)
    assert str(error.value).split("\n") == [
        "1 page failed:",
        "docs/page.md:8: the number 628 is neither checked, cited nor marked. Fix: bind it to its "
        "computation [[expr = 628]], cite it [[628 @ paper, table]], or mark it illustrative [[~628]]",
    ]


def test_the_site_option_makes_every_page_strict(run_md) -> None:
    with pytest.raises(BuildFailed, match="the number 7 is neither checked"):
        run_md("只有 7 个。\n", numbers_strict=True)
    assert run_md("只有 [[~7]] 个。\n", numbers_strict=True).coverage.illustrative == 1
    # A page can say, in its own source, that it only reports.
    assert (
        len(
            run_md(
                "---\nnumbers: report\n---\n只有 7 个。\n", numbers_strict=True
            ).coverage.unaccounted
        )
        == 1
    )


def test_an_unknown_numbers_mode_is_an_author_error(run_md) -> None:
    from llmbook.core.errors import AuthorError

    with pytest.raises(AuthorError) as error:
        run_md("---\nnumbers: loose\n---\n1 个\n")
    assert str(error.value) == (
        "docs/page.md:1: front matter `numbers: loose` is neither strict nor report "
        "Fix: write `numbers: strict` (every number checked, cited or marked) or `numbers: report` "
        "(unaccounted numbers only reported), or leave it out to follow the site"
    )


def test_footer_and_log_agree(run_md, caplog) -> None:
    from .conftest import render

    page = (
        "```python hidden\nx = 2\n```\n\n"
        "[[x = 2]] 和 [[x * 2 = 4]]，引用 [[29.9 @ Shazeer 2019]]，示意 [[~0.7]]，还有 628。\n"
    )
    with caplog.at_level(logging.INFO):
        plan = run_md(page)
    assert (
        "llmbook: docs/page.md: ran in a worker process; numbers: 2 checked, 1 cited, "
        "1 illustrative, 0 structural, 1 unaccounted"
    ) in [r.getMessage() for r in caplog.records]
    html, _ = render(plan, page)
    assert (
        '<p class="llmbook-numcount">本页 2 个数字由构建时执行的代码核对，1 个引自文献，'
        "1 个为示意，1 个尚未标注来源。</p>"
    ) in html
    assert '<span class="llmbook-num llmbook-illustrative" title="示意数字' in html
    assert '</span><span class="llmbook-illustrative-label">示意</span>' in html


@pytest.mark.parametrize(
    ("line", "found"),
    [
        ("训练 524k 步", ["524k"]),
        ("128K 上下文", ["128K"]),
        ("4k tokens，4k/8k 两档", ["4k", "4k", "8k"]),
        ("7B 与 70B 两个尺寸，1.5B 也有", ["7B", "70B", "1.5B"]),
        ("7B-70B 之间", ["7B", "70B"]),
        ("128K。", ["128K"]),
    ],
)
def test_digits_glued_to_a_magnitude_letter_are_quantities(line: str, found: list[str]) -> None:
    assert unaccounted(line + "\n") == found


@pytest.mark.parametrize(
    "line", ["Llama-2-7B 与 Qwen2.5-7B", "Mistral-7B、LLaMA-3-8B", "fp16 与 H100", "L2-C2"]
)
def test_a_magnitude_inside_a_model_name_stays_a_name(line: str) -> None:
    cov = cover(line + "\n")
    assert cov.unaccounted == [] and cov.structural > 0


def test_a_bound_or_cited_magnitude_is_accounted_for() -> None:
    cov = cover("训练 [[524k @ Shazeer 2020, Table 1]] 步，共 [[2**19 = 524k]] 个。\n")
    assert (cov.checked, cov.cited, cov.unaccounted) == (1, 1, [])


def test_a_strict_page_names_the_quantity_with_its_letter(run_md) -> None:
    with pytest.raises(BuildFailed) as error:
        run_md("---\nnumbers: strict\n---\n训练 524k 步。\n")
    assert str(error.value).split("\n") == [
        "1 page failed:",
        "docs/page.md:4: the number 524k is neither checked, cited nor marked. Fix: bind it to its "
        "computation [[expr = 524k]], cite it [[524k @ paper, table]], or mark it illustrative "
        "[[~524k]]",
    ]

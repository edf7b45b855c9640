"""The `:::` block parser: structure, nesting, opaque code and math, and its structural errors."""

from __future__ import annotations

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.directives import Block, Text, parse_directives


def test_blocks_nest_and_carry_their_lines():
    doc = parse_directives(
        "intro\n\n:::interview 面试常问\n**Q1**\n\n:::answer\nA1\n:::\n:::\nafter\n",
        src="docs/a.md",
        locale=ZH,
    )
    (interview,) = doc.blocks()
    assert (interview.name, interview.arg, interview.line, interview.end_line) == (
        "interview",
        "面试常问",
        3,
        9,
    )
    (answer,) = interview.blocks()
    assert (answer.name, answer.line, answer.end_line) == ("answer", 6, 8)
    assert answer.children == [Text(["A1"], 7)]
    assert isinstance(doc.children[0], Text) and doc.children[0].line == 1
    assert doc.children[-1] == Text(["after", ""], 10)


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_nothing_inside_a_fence_is_a_directive(fence):
    source = f"{fence}markdown\n:::quiz\n:::\n:::nonsense\n{fence}\n"
    doc = parse_directives(source, src="docs/a.md", locale=ZH)
    assert doc.blocks() == []


def test_a_shorter_fence_does_not_close_a_longer_one():
    doc = parse_directives(
        "````\n```\n:::bogus\n```\n````\n:::key 要点\nx\n:::\n", src="d.md", locale=ZH
    )
    assert [b.name for b in doc.blocks()] == ["key"]


def test_nothing_inside_display_math_is_a_directive():
    doc = parse_directives(
        "$$\n:::\n:::bogus\n$$\n\n$$ a $$\n:::key t\nx\n:::\n", src="d.md", locale=ZH
    )
    assert [b.name for b in doc.blocks()] == ["key"]


def test_bindings_and_tokens_in_bodies_are_kept_verbatim():
    body = "单条序列 [[kv_gb = 2.1]] GB，LLMBOOKSTASH123X4Z 与 [[29.9 @ Shazeer 2019]]"
    doc = parse_directives(f":::key 要点\n{body}\n:::\n", src="d.md", locale=ZH)
    assert doc.blocks()[0].children == [Text([body], 2)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "text\n:::unfold 直觉\nbody\n",
            "docs/a.md:2: :::unfold block opened here is never closed"
            " Fix: add a line with a bare ::: where the block ends",
        ),
        (
            "text\n\n:::\n",
            "docs/a.md:3: stray ::: closes no open block Fix: remove it, or open a block above it with :::name",
        ),
        (
            ":::unfold 直觉\nx\n:::\n:::\n",
            "docs/a.md:4: stray ::: closes no open block Fix: remove it, or open a block above it with :::name",
        ),
        (
            "x\n:::sidebar 标题\ny\n:::\n",
            "docs/a.md:2: unknown directive :::sidebar Fix: use one of: answer, background, bibliography, card, chain, demo,"
            " editions, exercise, fold, glossary, hint, insight, interview, key, math, objectives, progress, quiz,"
            " related, shapeflow, showcase, solution, step, tab, tabs, unfold, walkthrough, warning",
        ),
        (
            ":::: key\n",
            "docs/a.md:1: malformed directive line ':::: key' Fix: a directive line is :::name followed by its"
            " title, or a bare ::: to close a block",
        ),
    ],
)
def test_structural_errors_name_file_line_and_fix(source, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="docs/a.md", locale=ZH)
    assert str(caught.value) == expected


def test_an_unclosed_fence_inside_a_block_is_named():
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::fold 代码\n```python\nx = 1\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == (
        "d.md:2: code fence ``` opened here is never closed, so :::fold cannot close"
        " Fix: close the code block with a line ``` before the block's :::"
    )


def test_unclosed_reports_the_innermost_open_block():
    with pytest.raises(AuthorError) as caught:
        parse_directives(
            ":::interview 面试\nQ\n:::answer\nA\n:::\n:::answer\nB\n", src="d.md", locale=ZH
        )
    assert caught.value.line == 6


def test_shared_rules_title_placement_and_children():
    cases = {
        ":::unfold\nx\n:::\n": 'd.md:1: :::unfold needs a title Fix: write it after the name, e.g. ":::unfold 先懂直觉"',
        ":::quiz 标题\nQ\n:::\n": "d.md:1: :::quiz takes nothing after its name, got '标题'"
        " Fix: write the text in the block's body, below the :::quiz line",
        ":::answer\nA\n:::\n": "d.md:1: :::answer belongs inside :::interview Fix: move it into a :::interview block",
        ":::interview 面试\nQ\n:::key 要点\nk\n:::\n:::answer\nA\n:::\n:::\n": "d.md:3: :::key cannot stand inside"
        " :::interview (it holds :::answer) Fix: move :::key out of the :::interview block",
    }
    for source, expected in cases.items():
        with pytest.raises(AuthorError) as caught:
            parse_directives(source, src="d.md", locale=ZH)
        assert str(caught.value) == expected


def test_parse_returns_plain_data():
    doc = parse_directives(":::warning\n注意这里\n:::\n", src="d.md", locale=ZH)
    block = doc.blocks()[0]
    assert isinstance(block, Block) and block.arg == "" and block.opener == ":::warning"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            ":::shapeflow\n\n:::\n",
            "d.md:1: shapeflow block is empty Fix: write one line per flow,"
            " e.g. Q [B, H, S, d] × Kᵀ [B, H, d, S] → scores [B, H, S, S]",
        ),
        (":::related\n:::\n", 'd.md:1: related block is empty Fix: add lines "label | item, item"'),
        (
            ":::progress\n文字\n:::\n:::card 1 卡\nx\n:::\n",
            "d.md:2: progress takes no body Fix: leave the :::progress block empty",
        ),
        (
            ":::step 一\nx\n:::\n",
            "d.md:1: :::step belongs inside :::walkthrough Fix: move it into a :::walkthrough block",
        ),
    ],
)
def test_empty_or_misplaced_blocks(source, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(source, src="d.md", locale=ZH)
    assert str(caught.value) == expected


def test_display_math_is_what_the_math_stage_reads(render) -> None:
    """`$$` in inline code opens no formula: the directive after it is a directive (the parser
    once counted `$$` per line and swallowed the rest of the page as math)."""
    page = render(
        "用 `$$` 包住显示公式。\n\n:::key 要点\n内容\n:::\n\n$$\nx = 1\n$$\n\n:::hint\nh\n:::\n"
    )
    assert 'class="admonition success llmbook-key"' in page
    assert "<summary>提示</summary>" in page and "<math" in page


@pytest.mark.parametrize(
    "line",
    [
        "::: httpx.Client",
        "::: package.module.func",
        "::: mypackage",  # a single name, neither ours nor near one of ours
        "  :::   a._private.Name  ",
    ],
)
def test_api_references_of_mkdocstrings_and_mkautodoc_stay_text(line):
    source = f"# API\n\n{line}\n    options:\n      show_source: false\n\n:::key 要点\nx\n:::\n"
    doc = parse_directives(source, src="docs/a.md", locale=ZH)
    assert [b.name for b in doc.blocks()] == ["key"]
    assert line in doc.children[0].lines


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (
            ":::insigt 标题",
            "docs/a.md:1: unknown directive :::insigt Fix: did you mean :::insight?",
        ),
        ("::: insigt", "docs/a.md:1: unknown directive :::insigt Fix: did you mean :::insight?"),
        (":::httpx.Client", "docs/a.md:1: malformed directive line ':::httpx.Client' Fix: "),
        ("::: httpx.Client 标题", "docs/a.md:1: malformed directive line '::: httpx.Client 标题'"),
    ],
)
def test_a_typo_of_ours_is_still_an_error_with_a_suggestion(line, expected):
    with pytest.raises(AuthorError) as caught:
        parse_directives(f"{line}\nx\n:::\n", src="docs/a.md", locale=ZH)
    assert str(caught.value).startswith(expected)
    if "did you mean" in expected:
        assert str(caught.value).endswith(" Else use one of: " + _NAMES)


_NAMES = (
    "answer, background, bibliography, card, chain, demo, editions, exercise, fold, glossary, hint, "
    "insight, interview, key, math, objectives, progress, quiz, related, shapeflow, showcase, "
    "solution, step, tab, tabs, unfold, walkthrough, warning"
)

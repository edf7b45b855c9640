"""The collect stage: blocks, modes, markers, bindings and their exact lines."""

from __future__ import annotations

import textwrap

import pytest
from llmbook.core.errors import AuthorError
from llmbook.core.lexer import lex
from llmbook.execute.stages.collect import collect_page
from llmbook.execute.stages.front_matter import split_front_matter

PAGE = textwrap.dedent(
    """\
    # Title

    ```python hidden
    x = 1
    ```

    ```python
    print(x)
    ```

    <!--pytest-codeblocks:expected-output-->
    ```
    1
    ```

    ```python norun
    import nowhere
    ```

    <!--pytest.mark.skip-->
    ```python
    raise SystemExit
    ```

    ```text
    [[not = 1]] in a plain block
    ```

    Bound [[x + 1 = 2]], cited [[29.9 @ Shazeer 2019]], code `[[y = 1]]`, math $a = [[x = 1]]$.
    """
)


def test_blocks_modes_and_lines() -> None:
    page = collect_page(lex(PAGE), src="docs/p.md", meta={})
    got = [(b.line, b.lang, b.mode, b.code) for b in page.blocks]
    assert got == [
        (3, "python", "hidden", "x = 1"),
        (7, "python", "run", "print(x)"),
        (12, "", "expected", "1"),
        (16, "python", "norun", "import nowhere"),
        (21, "python", "skip", "raise SystemExit"),
        (25, "text", "other", "[[not = 1]] in a plain block"),
    ]
    assert page.blocks[1].expects == 2
    assert [b.code_line for b in page.blocks if b.runs] == [4, 8]


def test_bindings_outside_code_including_math() -> None:
    page = collect_page(lex(PAGE), src="docs/p.md", meta={})
    got = [(b.line, b.expr, b.written, b.source) for b in page.bindings]
    assert got == [
        (29, "x + 1", "2", None),
        (29, None, "29.9", "Shazeer 2019"),
        (29, "x", "1", None),  # inside $…$: checked here, shown by the math stage
    ]


def test_front_matter_moves_the_first_line() -> None:
    text = "---\nexecute: false\ntitle: t\n---\n\n```python\nx = 1\n```\n"
    meta, body, first = split_front_matter(text, src="docs/p.md")
    assert meta == {"execute": False, "title": "t"} and first == 6
    page = collect_page(lex(body, first), src="docs/p.md", meta=meta)
    assert page.blocks[0].line == 6 and not page.execute and not page.needs_execution()


def test_bad_front_matter_value() -> None:
    with pytest.raises(AuthorError) as error:
        collect_page(lex("x\n"), src="docs/p.md", meta={"execute": "maybe"})
    assert str(error.value) == (
        "docs/p.md:1: front matter `execute: maybe` is not true or false Fix: write `execute: false`"
    )


def test_malformed_binding_names_its_line() -> None:
    with pytest.raises(AuthorError) as error:
        collect_page(lex("a\n\nsee [[just words]] here\n"), src="docs/p.md", meta={})
    assert str(error.value).startswith(
        "docs/p.md:3: [[just words]] is neither a bound number `[[expr = value]]`"
    )


def test_unclosed_fence_and_unknown_marker() -> None:
    with pytest.raises(
        AuthorError, match=r"^docs/p.md:2: code block opened with ``` is never closed"
    ):
        collect_page(lex("a\n```python\nx = 1\n"), src="docs/p.md", meta={})
    with pytest.raises(AuthorError, match=r"^docs/p.md:1: unknown marker <!--pytest.mark.xfail-->"):
        collect_page(lex("<!--pytest.mark.xfail-->\n```python\nx\n```\n"), src="docs/p.md", meta={})


def test_expected_output_needs_a_python_block() -> None:
    text = "<!--pytest-codeblocks:expected-output-->\n```\n1\n```\n"
    with pytest.raises(
        AuthorError, match=r"^docs/p.md:1: <!--pytest-codeblocks:expected-output-->"
    ):
        collect_page(lex(text), src="docs/p.md", meta={})

"""Every node of a page is named by its line in the author's file, whatever stage made it.

The page below starts with four lines of front matter, so its text (as the engine hands it over)
starts on file line 5; every node must say the line an editor shows.
"""

from __future__ import annotations

import pytest
from book_locales import ZH
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError
from llmbook.core.formulas import display_lines, math_spans, render_math
from llmbook.core.lexer import lex
from llmbook.core.stash import engine_stash
from llmbook.directives import Block, Text, parse_structure
from llmbook.execute.numbers.coverage import page_coverage
from llmbook.execute.stages.collect import collect_page
from llmbook.execute.stages.front_matter import split_front_matter

FILE = """---
title: t
numbers: report
---
# 标题

:::key 要点
正文 $x^2$ 与 [[1 + 1 = 2]]。
:::

```python
y = 3
```

$$
a + b
$$

还有 42 个。
"""


def _page():
    meta, body, first = split_front_matter(FILE, src="docs/p.md")
    return collect_page(lex(body, first), src="docs/p.md", meta=meta), body, first


def file_line(text: str) -> int:
    """The 1-based line of `FILE` that holds `text`."""
    return next(n for n, line in enumerate(FILE.split("\n"), start=1) if text in line)


def test_the_text_starts_on_the_line_after_the_front_matter() -> None:
    _, body, first = _page()
    assert first == 5 == file_line("# 标题") and lex(body, first).line(5) == "# 标题"


def test_collected_nodes_carry_file_lines() -> None:
    page, _, _ = _page()
    (block,) = page.blocks
    assert (block.line, block.end_line) == (file_line("```python"), file_line("y = 3") + 1)
    (binding,) = page.bindings
    assert binding.line == file_line("[[1 + 1 = 2]]")


def test_directive_nodes_carry_file_lines() -> None:
    _, body, first = _page()
    doc = parse_structure(lex(body, first), src="docs/p.md")
    (key,) = doc.blocks()
    assert isinstance(key, Block)
    assert (key.line, key.end_line) == (file_line(":::key"), file_line(":::key") + 2)
    assert key.text_lines() == [(file_line("正文"), "正文 $x^2$ 与 [[1 + 1 = 2]]。")]
    assert isinstance(doc.children[0], Text) and doc.children[0].line == first


def test_math_is_located_by_file_line() -> None:
    _, body, first = _page()
    assert display_lines(lex(body, first)) == {file_line("a + b") + d for d in (-1, 0, 1)}
    spans = math_spans(lex(body, first), src="docs/p.md")
    assert spans[file_line("正文")] == [(3, 8)]


def test_coverage_names_file_lines() -> None:
    page, body, first = _page()
    coverage = page_coverage(page, math_spans(lex(body, first)), None, ZH)
    assert [(u.line, u.text) for u in coverage.unaccounted] == [(file_line("42"), "42")]


@pytest.mark.parametrize(
    ("broken", "line", "message"),
    [
        ("a + b", file_line("a + b") - 1, "display math `$$` is never closed"),
        ("正文 $x^2$", file_line("正文"), "the formula `\\frac{` cannot be rendered"),
        (":::key 要点", file_line(":::key"), "unknown directive :::nokey"),
    ],
)
def test_errors_of_every_stage_name_the_file_line(broken: str, line: int, message: str) -> None:
    text = {
        "a + b": FILE.replace("a + b\n$$\n", "a + b\n"),
        "正文 $x^2$": FILE.replace("$x^2$", "$\\frac{$"),
        ":::key 要点": FILE.replace(":::key", ":::nokey"),
    }[broken]
    _, body, first = split_front_matter(text, src="docs/p.md")
    stash, _ = engine_stash()
    with pytest.raises(AuthorError) as error:
        parse_structure(lex(body, first), src="docs/p.md")
        render_math(LineEdits(lex(body, first)), src="docs/p.md", stash=stash)
    assert str(error.value).startswith(f"docs/p.md:{line}: {message}")


def test_two_stages_editing_the_same_text_is_a_bug_not_a_silent_overwrite() -> None:
    edits = LineEdits(lex("abc\ndef", 7))
    edits.replace(7, 0, 2, "X")
    with pytest.raises(RuntimeError, match="line 7: two stages edit the same text"):
        edits.replace(7, 1, 3, "Y")
    with pytest.raises(RuntimeError, match="line 7: two stages edit the same text"):
        edits.replace_line(7, "")
    edits.replace(7, 2, 3, "Z")
    edits.after(8, "T")
    assert edits.lines() == {7: ["XZ"], 8: ["def", "", "T", ""]}

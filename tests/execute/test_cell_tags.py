"""Cell tags, Jupyter Book's vocabulary: the same words on a notebook cell and after a fence's
language remove or collapse a block's code and output, skip it, or expect it to raise."""

from __future__ import annotations

import json

import pytest
from llmbook.core.errors import AuthorError
from llmbook.execute.stages.notebook import executed_notebook, read_notebook
from llmbook.execute.stages.tags import Display, read_tags
from rendering import render_markdown

from .conftest import render
from .test_notebook import notebook

OUT = '<div class="llmbook-output"><span class="llmbook-output-label">输出</span>'


def _shown(run_md, page: str) -> str:
    return render(run_md(page), page)[0]


def test_each_tag_and_our_older_names_read_as_a_display() -> None:
    assert read_tags(["remove-input"]) == read_tags(["hidden"])[:1] + (["remove-input"],)
    assert read_tags(["norun", "thebe-init", "norun"]) == (Display(run="skip"), ["norun"])
    assert read_tags(["hide-cell"])[0] == Display(code="hide", output="hide", cell=True)
    assert read_tags(["remove-input", "remove-output"])[0] == read_tags(["remove-cell"])[0]
    assert read_tags(["hide-cell", "hide-input"])[0].cell  # saying a part twice is no conflict


def test_remove_input_output_and_cell(run_md) -> None:
    page = (
        "```python remove-input\nprint('只见输出')\n```\n\n"
        "```python remove-output\nprint('不见输出')\n```\n\n"
        "```python remove-cell\nx = 5\nprint('全不见')\n```\n\n值 [[x = 5]]。\n"
    )
    html = _shown(run_md, page)
    assert "只见输出')" not in html and f"{OUT}<pre><code>只见输出</code></pre></div>" in html
    assert "```python\nprint('不见输出')\n```" in html and "<code>不见输出" not in html
    assert "全不见" not in html and "remove-" not in html
    assert '<span class="llmbook-num" title="x = 5（构建时计算并核对）">5</span>' in html


def test_hide_input_output_and_cell_collapse_into_details(run_md) -> None:
    page = (
        "```python hide-input\nprint(1)\n```\n\n"
        "```python hide-output\nprint(2)\n```\n\n"
        "```python hide-cell\nprint(3)\n```\n"
    )
    html = _shown(run_md, page)
    assert (
        '<details class="llmbook-hide"><summary>显示代码</summary>\n\n```python\nprint(1)\n```'
        f"\n\n</details>\n\n\n{OUT}<pre><code>1</code></pre></div>"
    ) in html
    assert (
        '```python\nprint(2)\n```\n\n<details class="llmbook-hide"><summary>显示输出</summary>'
        f"{OUT}<pre><code>2</code></pre></div></details>"
    ) in html
    assert (
        '<details class="llmbook-hide"><summary>显示单元格</summary>\n\n```python\nprint(3)\n```'
        f"\n\n{OUT}<pre><code>3</code></pre></div>\n\n\n</details>"
    ) in html


def test_a_collapsed_fence_is_a_details_block_in_the_html(run_md) -> None:
    page = "```python hide-input\nprint(1)\n```\n"
    html = render_markdown(page, plan=run_md(page), extensions=["pymdownx.superfences"])
    assert html.startswith('<details class="llmbook-hide"><summary>显示代码</summary>\n<div')
    assert '</code></pre></div>\n</details>\n<div class="llmbook-output">' in html


def test_an_expected_exception_shows_its_traceback_and_the_page_goes_on(run_md) -> None:
    page = (
        "```python raises-exception\nprint('先打印')\nx = 2\n1 / 0\n```\n\n"
        "```python\nprint(x + 1)\n```\n"
    )
    plan = run_md(page)
    first = plan.result.blocks[0]
    assert first.output == "先打印\n" and plan.result.blocks[1].output == "3\n"
    assert first.error == (
        "ZeroDivisionError",
        "division by zero",
        [
            "Traceback (most recent call last):",
            '  File "docs/page.md", line 4, in <module>',
            "    1 / 0",
            "    ~~^~~",
            "ZeroDivisionError: division by zero",
        ],
    )
    html = render(plan, page)[0]
    assert (
        f"{OUT}<pre><code>先打印\nTraceback (most recent call last):\n"
        "  File &quot;docs/page.md&quot;, line 4, in &lt;module&gt;\n    1 / 0\n    ~~^~~\n"
        "ZeroDivisionError: division by zero</code></pre></div>"
    ) in html
    assert "\x1b[" not in html


def test_an_expected_syntax_error_is_shown_as_jupyter_shows_it(run_md) -> None:
    # The handbook's deliberate mistake: a block that does not parse runs none of its lines.
    page = (
        "# 页\n\n```python raises-exception\nx = [[1, 2]]\nx[(:, 1)]\n```\n\n"
        "```python\nprint('下一块')\n```\n"
    )
    plan = run_md(page)
    first = plan.result.blocks[0]
    assert first.output == "" and plan.result.blocks[1].output == "下一块\n"
    assert first.error == (
        "SyntaxError",
        "invalid syntax (docs/page.md, line 5)",
        [
            '  File "docs/page.md", line 5',
            "    x[(:, 1)]",
            "       ^",
            "SyntaxError: invalid syntax",
        ],
    )
    html = render(plan, page)[0]
    assert (
        f"{OUT}<pre><code>  File &quot;docs/page.md&quot;, line 5\n    x[(:, 1)]\n       ^\n"
        f"SyntaxError: invalid syntax</code></pre></div>"
    ) in html
    assert f"{OUT}<pre><code>下一块</code></pre></div>" in html


def test_a_notebook_cell_that_does_not_parse_on_purpose(run_md) -> None:
    nb = notebook(
        ("code", "x[(:, 1)]"),
        ("code", "if True:\nprint(1)"),
        ("code", "print('之后')"),
        tags={0: ["raises-exception"], 1: ["raises-exception"]},
    )
    plan = run_md(nb, src="docs/e.ipynb")
    assert plan.result.blocks[0].error == (
        "SyntaxError",
        "invalid syntax (docs/e.ipynb, cell 1, line 1)",
        [
            '  File "docs/e.ipynb", cell 1, line 1',
            "    x[(:, 1)]",
            "       ^",
            "SyntaxError: invalid syntax",
        ],
    )
    # The message's own line is the cell's, as in Jupyter.
    message = "expected an indented block after 'if' statement on line 1"
    assert plan.result.blocks[1].error == (
        "IndentationError",
        f"{message} (docs/e.ipynb, cell 2, line 2)",
        [
            '  File "docs/e.ipynb", cell 2, line 2',
            "    print(1)",
            "    ^^^^^",
            f"IndentationError: {message}",
        ],
    )
    assert plan.result.blocks[2].output == "之后\n"


def test_a_syntax_error_without_the_tag_still_fails_the_build(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md("# 页\n\n```python\nx = [[1, 2]]\nx[(:, 1)]\n```\n")
    assert str(error.value) == (
        "docs/page.md:5: SyntaxError: invalid syntax Fix: correct the code; a block that only "
        "quotes code can be marked `python norun`, one that shows an error on purpose "
        "`python raises-exception` (a notebook cell: the same tags), or the whole page "
        "`execute: false` in its front matter; to show every raising block's error as Jupyter "
        "does, set `execute_allow_errors: true` (the page's front matter, a notebook's `llmbook` "
        "metadata, or the llmbook options in mkdocs.yml)"
    )


def test_skip_execution_shows_the_code_and_does_not_run_it(run_md) -> None:
    page = "```python skip-execution\nraise SystemExit\n```\n"
    plan = run_md(page)
    assert plan.result is None or plan.result.blocks == {}
    html = render(plan, page)[0]
    assert html.startswith("```python\nraise SystemExit\n```\n\n")
    assert '<p class="llmbook-norun">此代码仅作展示，构建时未运行</p>' in html


def test_contradicting_tags_on_a_fence_name_the_line(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md("# 页\n\n```python remove-input hide-input\nx = 1\n```\n")
    assert str(error.value) == (
        "docs/page.md:3: the tags `remove-input` and `hide-input` contradict each other: "
        "the code cannot be both removed and collapsed Fix: keep only one of the two tags"
    )


def test_contradicting_tags_on_a_cell_name_the_notebook_and_cell(run_md) -> None:
    nb = notebook(
        ("markdown", "# 笔记本"), ("code", "1 / 0"), tags={1: ["norun", "raises-exception"]}
    )
    with pytest.raises(AuthorError) as error:
        run_md(nb, src="docs/t.ipynb")
    assert str(error.value) == (
        "docs/t.ipynb:cell 2: the tags `norun` and `raises-exception` contradict each other: "
        "the cell cannot be both skipped and expected to raise "
        "Fix: keep only one of the two tags"
    )


def test_cell_tags_and_jupyters_collapsed_state_become_the_fence_words() -> None:
    nb = json.loads(
        notebook(("code", "a = 1"), ("code", "b = 2"), tags={0: ["remove-output", "my-own-tag"]})
    )
    nb["cells"][0]["metadata"]["jupyter"] = {"source_hidden": True, "outputs_hidden": True}
    nb["cells"][1]["metadata"] = {"jupyter": {"outputs_hidden": True}}
    markdown = read_notebook(json.dumps(nb), src="docs/t.ipynb").markdown
    # The tag says what the output does; the collapsed source becomes hide-input.
    assert markdown.split("\n")[0] == "```python remove-output hide-input"
    assert "```python hide-output\nb = 2\n```" in markdown


def test_a_notebook_cell_that_raises_on_purpose(run_md) -> None:
    nb = notebook(
        ("code", "x = 1\nraise ValueError('故意的')"),
        ("code", "print(x)"),
        tags={0: ["raises-exception", "hide-output"]},
    )
    plan = run_md(nb, src="docs/e.ipynb")
    assert plan.result.blocks[0].error[2][1:] == [
        '  File "docs/e.ipynb", cell 1, line 2, in <module>',
        "    raise ValueError('故意的')",
        "ValueError: 故意的",
    ]
    assert plan.result.blocks[1].output == "1\n"


def test_the_download_keeps_the_tags_and_the_expected_error() -> None:
    import nbformat

    nb = read_notebook(
        notebook(("code", "1 / 0"), ("code", "print(2)"), tags={0: ["raises-exception"]}),
        src="docs/e.ipynb",
    )
    lines = ["Traceback (most recent call last):", "ZeroDivisionError: division by zero"]
    error = ("ZeroDivisionError", "division by zero", lines)
    text = executed_notebook(nb, {0: ("", [], error), 1: ("2\n", [], None)})
    nbformat.validate(nbformat.reads(text, as_version=4))
    cells = json.loads(text)["cells"]
    assert cells[0]["metadata"]["tags"] == ["raises-exception"]
    assert cells[0]["outputs"] == [
        {
            "output_type": "error",
            "ename": "ZeroDivisionError",
            "evalue": "division by zero",
            "traceback": lines,
        }
    ]
    assert [c["execution_count"] for c in cells] == [1, 2]

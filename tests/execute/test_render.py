"""The render stage: what `Plan.apply` writes into the page."""

from __future__ import annotations

import re
import textwrap

from book_locales import ZH
from llmbook.core.bindings import BINDING_RE
from llmbook.core.edits import LineEdits
from llmbook.core.formulas import math_spans, render_math
from llmbook.core.lexer import lex
from llmbook.core.stash import engine_stash

from .conftest import render

PAGE = """\
# 页

```python hidden
import math
half = math.sqrt(0.5)
```

```python
print(f"{half:.3f}")
```

```python norun
import not_installed
```

<!--pytest.mark.skip-->
```python
raise SystemExit
```

写作 [[half = 0.707]]，论文值 [[29.9 @ Shazeer 2019]]，公式 $h = [[half = 0.707]]$，代码 `[[half = 0.7]]`。
"""


def test_hidden_block_removed_output_under_fence(run_md) -> None:
    plan = run_md(PAGE)
    html, _ = render(plan, PAGE)
    assert "import math" not in html and "python hidden" not in html
    assert (
        '```python\nprint(f"{half:.3f}")\n```\n\n<div class="llmbook-output">'
        '<span class="llmbook-output-label">输出</span><pre><code>0.707</code></pre></div>'
    ) in html


def test_blocks_that_did_not_run_are_labelled(run_md) -> None:
    html, _ = render(run_md(PAGE), PAGE)
    assert "```python\nimport not_installed\n```\n\n" in html
    assert '<p class="llmbook-norun">此代码仅作展示，构建时未运行</p>' in html
    assert '<p class="llmbook-norun">此代码已标记跳过（pytest.mark.skip），构建时未运行</p>' in html
    assert "python norun" not in html


def test_numbers_in_prose_and_cited_sources(run_md) -> None:
    html, _ = render(run_md(PAGE), PAGE)
    assert (
        '写作 <span class="llmbook-num" title="half = 0.70710678（构建时计算并核对）">0.707</span>，'
        '论文值 <span class="llmbook-num llmbook-cited" title="引用值，未经计算：Shazeer 2019">29.9</span>'
        '<span class="llmbook-source">（Shazeer 2019）</span>'
    ) in html
    # Inline code shows the syntax literally.
    assert "`[[half = 0.7]]`" in html
    assert html.rstrip().endswith(
        '<p class="llmbook-numcount">本页 2 个数字由构建时执行的代码核对，1 个引自文献。</p>'
    )


def test_numbers_leave_bindings_in_math_to_the_math_stage(run_md) -> None:
    plan = run_md(PAGE)
    page = textwrap.dedent(PAGE)
    stash, restore = engine_stash()
    # Numbers go in where collect found them; a binding inside a formula stays for the math
    # stage, which writes its written value into the formula.
    edits = LineEdits(lex(page))
    plan.put_numbers(edits, stash=stash, math=math_spans(lex(page)), locale=ZH)
    out = restore(edits.markdown())
    assert "公式 $h = [[half = 0.707]]$" in out
    assert len(re.findall('class="llmbook-num"', out)) == 1  # only the prose one became a span
    assert len(re.findall('class="llmbook-num llmbook-cited"', out)) == 1
    assert "代码 `[[half = 0.7]]`" in out  # inline code shows it as written
    render_math(edits, src="docs/page.md", stash=stash)
    assert not BINDING_RE.search(restore(edits.markdown()).replace("`[[half = 0.7]]`", ""))


def test_drifted_number_is_marked_not_silent(run_md) -> None:
    page = PAGE.replace("写作 [[half = 0.707]]", "写作 [[half = 0.708]]")
    html, _ = render(run_md(page), page)
    assert (
        '<span class="llmbook-num llmbook-num-drift" title="与计算不符：docs/page.md:21: written 0.708, computed 0.70710678 (rounds to 0.707)">0.708</span>'
        in html
    )


def test_outputs_keep_the_indentation_of_their_fence(run_md) -> None:
    page = "1. 第一步\n\n    ```python\n    print('<b>')\n    ```\n"
    html, _ = render(run_md(page), page)
    assert '    ```\n\n    <div class="llmbook-output">' in html
    assert "&lt;b&gt;" in html  # output is escaped


def test_a_page_is_lexed_and_parsed_once(run_md, monkeypatch) -> None:
    """The load stage lexes the page; collect, coverage, the directive parser, the math stage and
    the renderer are handed that model; the renderer walks the tree the check stage parsed."""
    import llmbook.directives.tree
    from llmbook.core import lexer
    from rendering import render_markdown

    parsed, lexed = [], []
    parse_tree = llmbook.directives.tree.parse_tree
    monkeypatch.setattr(
        llmbook.directives.tree,
        "parse_tree",
        lambda *a, **k: parsed.append(1) or parse_tree(*a, **k),
    )
    fences = lexer.fences  # `lex` finds fences twice (outside and inside blockquotes)
    monkeypatch.setattr(lexer, "fences", lambda *a, **k: lexed.append(1) or fences(*a, **k))
    page = textwrap.dedent(PAGE) + "\n:::key 要点\n公式 $y = 2$。\n:::\n"
    plan = run_md(page)
    assert len(lexed) == 2 and len(parsed) == 1
    html = render_markdown(page, plan=plan, extensions=["pymdownx.superfences"])
    assert len(lexed) == 2, "the renderer lexed the page again"
    assert len(parsed) == 1, "the renderer parsed the page again"
    assert "llmbook-key" in html and "<math" in html and 'class="llmbook-num"' in html

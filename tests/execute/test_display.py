"""IPython's display protocol in page code: rich outputs in order with printed text, a notebook
cell's last expression as Out, the cache and the executed notebook keeping them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.core.store import Store
from llmbook.execute.shell.display import Display
from llmbook.execute.shell.display_html import display_html
from llmbook.execute.stages.cache import PageCache, result_digest
from llmbook.execute.stages.notebook import executed_notebook, read_notebook
from llmbook.execute.stages.run import BlockResult, RunResult

from .conftest import render
from .test_notebook import notebook

PAGE = """\
```python
import io
import matplotlib.pyplot as plt
from IPython.display import JSON, SVG, Image, Markdown, display

class Table:
    def _repr_html_(self):
        return "<table><tr><td>1</td></tr></table>"

print("before")
display(Table())
print("between")
display(SVG('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>'))
fig = plt.figure()
fig.gca().plot([0, 1])
png = io.BytesIO()
fig.savefig(png, format="png")
plt.close(fig)
display(Image(data=png.getvalue()))
display(Markdown("**粗体**"), JSON({"k": [1, 2]}))
print("after")
```
"""


def test_displays_come_in_order_with_printed_text(run_md) -> None:
    plan = run_md(PAGE)
    run = plan.result.blocks[0]
    assert run.output == "before\nbetween\nafter\n"
    kinds = [next(m for m in d.data if m != "text/plain") for d in run.displays]
    assert kinds == ["text/html", "image/svg+xml", "image/png", "text/markdown", "application/json"]
    assert [d.at for d in run.displays] == [7, 15, 15, 15, 15]
    html, _ = render(plan, PAGE)
    order = [
        "<code>before</code>",
        'llmbook-display--html"><table>',
        "<code>between</code>",
        "llmbook-display--svg",
        '.png" alt="代码输出的图像" loading="lazy">',  # a file of the site, not a data: URI
        "<strong>粗体</strong>",
        "llmbook-display--json",
        "<code>after</code>",
    ]
    places = [html.index(part) for part in order]
    assert places == sorted(places)


def test_a_markdown_page_does_not_show_its_last_expression(run_md) -> None:
    page = "```python\nx = 41\nx + 1\n```\n"
    assert run_md(page).result.blocks[0].displays == []
    shown = run_md(page, execute_show_last=True).result.blocks[0].displays
    assert [d.data for d in shown] == [{"text/plain": "42"}]


def test_a_notebook_cell_shows_its_last_expression_as_out(run_md) -> None:
    nb = notebook(("code", "x = 41\nx + 1"), ("code", "print(x)\nx;"), ("code", "object()"))
    plan = run_md(nb, src="docs/nb.ipynb")
    shown = [b.displays for b in plan.result.blocks.values()]
    assert [[(d.kind, d.data) for d in s] for s in shown] == [
        [("execute_result", {"text/plain": "42"})],
        [],  # a trailing `;` shows nothing, as in Jupyter
        [("execute_result", {"text/plain": "<object>"})],  # no address: the same every build
    ]


def test_a_semicolon_before_a_comment_still_hides_the_last_expression(run_md) -> None:
    # IPython reads the last token, comments and blank lines aside; a `;` inside a string is text
    cells = [("code", "41 + 1;  # hidden\n\n# the end"), ("code", "'a;'"), ("code", "1 # ;")]
    plan = run_md(notebook(*cells), src="docs/nb.ipynb")
    shown = [[d.data for d in b.displays] for b in plan.result.blocks.values()]
    assert shown == [[], [{"text/plain": "'a;'"}], [{"text/plain": "1"}]]


def test_a_failing_repr_names_the_file_and_line(run_md) -> None:
    page = """\
    ```python
    class Bad:
        def _repr_html_(self):
            raise ValueError("no table")
    from IPython.display import display
    display(Bad())
    ```
    """
    with pytest.raises(AuthorError) as error:
        run_md(page)
    assert str(error.value).startswith("docs/page.md:")
    assert "ValueError: no table" in str(error.value)
    assert ":4:" in str(error.value) or "line 6" in str(error.value)


SHOWN = Display(3, {"text/html": "<b>x</b>", "text/plain": "x"}, {}, "display_data")


def test_displays_round_trip_through_the_cache(tmp_path: Path) -> None:
    cache = PageCache(Store(tmp_path))
    png = Display(0, {"image/png": "iVBOR", "text/plain": "p"}, {"image/png": {"width": 4}})
    result = RunResult({0: BlockResult("ab\ncd\n", displays=[SHOWN, png])}, [], {})
    cache.store("docs/p.md", "k", result)
    back = cache.load("docs/p.md", "k")
    assert back.blocks[0].displays == [SHOWN, png]
    assert result_digest(back) == result_digest(result)
    assert result_digest(RunResult({0: BlockResult("ab\ncd\n")})) != result_digest(result)


def test_the_download_holds_display_and_execute_result_outputs() -> None:
    import nbformat

    nb = read_notebook(notebook(("code", "print('a')\n1")), src="docs/nb.ipynb")
    displays = [
        [2, SHOWN.data, {}, "display_data"],
        [4, {"application/json": {"k": 1}, "text/plain": "{'k': 1}"}, {}, "display_data"],
        [4, {"text/plain": "1"}, {}, "execute_result"],
    ]
    text = executed_notebook(nb, {0: ("a\nb\n", [], None, displays)})
    nbformat.validate(nbformat.reads(text, as_version=4))
    outputs = json.loads(text)["cells"][0]["outputs"]
    assert [o["output_type"] for o in outputs] == [
        "stream",
        "display_data",
        "stream",
        "display_data",
        "execute_result",
    ]
    assert outputs[4]["execution_count"] == 1 and outputs[3]["data"]["application/json"] == {"k": 1}


def test_the_richest_type_wins_and_plain_text_is_the_last_resort() -> None:
    both = Display(0, {"text/plain": "p", "text/latex": "$x$", "image/png": "AA"})
    assert "llmbook-display--latex" in display_html(both, None, ZH)
    assert "llmbook-output" in display_html(Display(0, {"text/plain": "<p>"}), None, ZH)
    assert "&lt;p&gt;" in display_html(Display(0, {"text/plain": "<p>"}), None, ZH)


def test_a_widget_shows_its_text_and_says_why() -> None:
    widget = {
        "application/vnd.jupyter.widget-view+json": {"model_id": "1"},
        "text/plain": "IntSlider(value=3)",
    }
    html = display_html(Display(0, widget), None, ZH)
    assert "IntSlider(value=3)" in html and "llmbook-widget-note" in html and "内核" in html
    assert "llmbook-widget-note" not in display_html(Display(0, {"text/plain": "x"}), None, ZH)


def test_latex_is_typeset_and_what_cannot_be_stays_source() -> None:
    html = display_html(
        Display(0, {"text/latex": r"Energy $E = mc^2$ and $$\frac{1}{2}$$"}), None, ZH
    )
    assert html.startswith('<div class="llmbook-display llmbook-display--latex">Energy <span')
    assert "<msup><mi>c</mi><mn>2</mn></msup>" in html and "llmbook-math--display" in html
    bad = display_html(Display(0, {"text/latex": r"$$\notacommand{x$$"}), None, ZH)
    assert r'<code class="language-latex">$$\notacommand{x$$</code>' in bad


def test_stderr_is_a_box_of_its_own_without_terminal_colours() -> None:
    stream = Display(0, {"text/plain": "\x1b[31mWarning\x1b[0m: x\n"}, {"name": "stderr"}, "stream")
    assert display_html(stream, None, ZH) == (
        '<div class="llmbook-output llmbook-output--stderr"><span class="llmbook-output-label">'
        "标准错误</span><pre><code>Warning: x</code></pre></div>"
    )


def test_images_become_files_when_the_site_keeps_them() -> None:
    png = Display(0, {"image/png": "iVBORw0KGgo=\n", "text/plain": "<Figure>"})
    linked = []

    def file_url(content: bytes, suffix: str) -> str:
        linked.append((content, suffix))
        return "../assets/llmbook/figures/x.png"

    html = display_html(png, file_url, ZH)
    assert linked == [(b"\x89PNG\r\n\x1a\n", "png")]
    assert '<img src="../assets/llmbook/figures/x.png" alt="&lt;Figure&gt;"' in html
    assert 'src="data:image/png;base64,iVBORw0KGgo="' in display_html(
        png, None, ZH
    )  # no site: inline

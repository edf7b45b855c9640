"""Habits of Jupyter users a notebook page keeps: files beside the notebook opened by relative
paths (writes still land in the scratch folder), figures without a title, raw cells, and a
notebook for another language refused by name."""

from __future__ import annotations

import json

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.execute.sandbox.guards import Guards
from llmbook.execute.shell.figures import described

from .test_notebook import notebook


@pytest.mark.skipif(
    not Guards.available().landlock, reason="needs Landlock (the project read-only)"
)
def test_a_notebook_opens_what_lies_beside_it_and_writes_only_its_scratch(run_md, tmp_path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "data.txt").write_text("beside\n", encoding="utf-8")
    nb = notebook(
        ("code", "print(open('data.txt').read().strip())"),
        ("code", "open('new.txt', 'w').write('x')\nprint(open('new.txt').read())"),
        ("code", "open('data.txt', 'w')"),
    )
    with pytest.raises(AuthorError) as error:
        run_md(nb, src="docs/nb.ipynb")
    assert "cell 3, line 1: PermissionError" in str(error.value)  # the author's file is safe
    assert (tmp_path / "docs" / "data.txt").read_text(encoding="utf-8") == "beside\n"
    assert not (tmp_path / "docs" / "new.txt").exists()
    plan = run_md(
        notebook(
            *[
                ("code", c)
                for c in (
                    "print(open('data.txt').read().strip())",
                    "open('new.txt', 'w').write('x')\nprint(open('new.txt').read())",
                )
            ]
        ),
        src="docs/nb.ipynb",
    )
    assert [b.output for b in plan.result.blocks.values()] == ["beside\n", "x\n"]


def test_a_notebook_figure_without_a_title_is_described_by_its_cell(run_md) -> None:
    code = "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2])\nax.set_xlabel('步数')"
    plan = run_md(notebook(("markdown", "# 图"), ("code", code)), src="docs/nb.ipynb")
    (figure,) = plan.result.blocks[0].figures
    # the result keeps the cell and the axes; the page describes it in its words when it renders
    assert (figure.alt, figure.cell, figure.axes) == ("", 2, (("x", "步数"),))
    shown = described(figure, ZH)
    assert shown.alt == "第 2 个单元格画的图；x 轴：步数"
    assert 'aria-label="第 2 个单元格画的图；x 轴：步数"' in shown.svg
    with pytest.raises(AuthorError) as error:  # a Markdown page still needs its own alt text
        run_md(f"```python\n{code}\n```\n")
    assert "a figure of the python block at line 1 needs alt text" in str(error.value)


def test_raw_cells_show_as_nbconverts_html_shows_them(run_md) -> None:
    data = json.loads(
        notebook(("raw", "<b>for html</b>"), ("raw", "\\LaTeX only"), ("code", "x = 1"))
    )
    data["cells"][1]["metadata"] = {"raw_mimetype": "text/latex"}
    plan = run_md(json.dumps(data), src="docs/nb.ipynb")
    assert '<div class="llmbook-raw" markdown="0">\n<b>for html</b>\n</div>' in plan.page.text
    assert "LaTeX only" not in plan.page.text


def test_a_notebook_in_another_language_is_refused_by_name(run_md) -> None:
    data = json.loads(notebook(("code", "println(1)")))
    data["metadata"]["kernelspec"] = {
        "name": "julia-1.9",
        "display_name": "Julia",
        "language": "julia",
    }
    with pytest.raises(AuthorError) as error:
        run_md(json.dumps(data), src="docs/jl.ipynb")
    assert str(error.value) == (
        "docs/jl.ipynb:cell 1: the notebook's kernel runs julia, and llmbook runs only Python "
        'cells Fix: show it without running: `"llmbook": {"execute": false}` in its metadata, '
        "or leave it out of `execute_pages` in mkdocs.yml"
    )
    data["metadata"]["llmbook"] = {"execute": False}
    plan = run_md(json.dumps(data), src="docs/jl.ipynb")
    assert "```julia" in plan.page.text and plan.result is None  # shown, not run


@pytest.mark.skipif(
    not Guards.available().landlock, reason="needs Landlock (the project read-only)"
)
def test_a_notebook_in_a_subfolder_opens_what_lies_above_it_as_in_jupyter(run_md, tmp_path) -> None:
    """Jupyter runs a notebook in its own folder, so `../images/logo.png` is the project's (as
    nbsphinx's documentation notebooks open it); writes there still land in the scratch."""
    (tmp_path / "docs" / "images").mkdir(parents=True)
    (tmp_path / "docs" / "images" / "logo.txt").write_text("above\n", encoding="utf-8")
    code = (
        "print(open('../images/logo.txt').read().strip())",
        "open('../new.txt', 'w').write('x')\nprint(open('../new.txt').read())",
    )
    plan = run_md(notebook(*[("code", c) for c in code]), src="docs/sub/nb.ipynb")
    assert [b.output for b in plan.result.blocks.values()] == ["above\n", "x\n"]
    assert not (tmp_path / "docs" / "new.txt").exists()


def test_a_page_chooses_multiprocessings_start_method_as_in_a_fresh_kernel(run_md) -> None:
    """A kernel has chosen none, so `set_start_method("fork")` works (emcee's tutorial on
    parallel sampling starts so); the page process must not carry the one it was started by."""
    code = "import multiprocessing\nmultiprocessing.set_start_method('fork')\n"
    code += "print(multiprocessing.get_start_method())"
    plan = run_md(notebook(("code", code)), src="docs/nb.ipynb")
    assert [b.output for b in plan.result.blocks.values()] == ["fork\n"]


def test_a_figure_shown_again_by_its_value_or_display_is_drawn_again(run_md) -> None:
    """As Jupyter's inline backend: `fig` or `display(fig)` in a later cell shows the figure
    again (nbsphinx's documentation does both), though the cell that drew it already showed it."""
    plan = run_md(
        notebook(
            ("code", "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2]);"),
            ("code", "fig"),
            ("code", "display(fig)"),
            ("code", "x = fig"),
        ),
        src="docs/nb.ipynb",
    )
    assert [len(b.figures) for b in plan.result.blocks.values()] == [1, 1, 1, 0]
    assert [b.displays for b in plan.result.blocks.values()][2] == []  # no `<Figure …>` text

"""A block runs as IPython runs a notebook's cell: what Jupyter accepts in a cell that plain
Python does not (a late `from __future__`, pasted prompts, automagic), its input history, and
modules the page writes where it runs."""

from __future__ import annotations

from .test_notebook import notebook


def _outputs(run_md, *cells: str) -> list[str]:
    nb = notebook(*[("code", cell) for cell in cells])
    plan = run_md(nb, src="docs/nb.ipynb")
    return [plan.result.blocks[pos].output for pos in range(len(cells))]


def test_a_future_import_after_other_statements_runs(run_md) -> None:
    cell = "x = 1\nfrom __future__ import division\nprint(x / 2)"
    assert _outputs(run_md, cell) == ["0.5\n"]


def test_pasted_prompts_are_stripped(run_md) -> None:
    classic = ">>> a = 2\n>>> print(a * 3)"
    ipython = "In [1]: b = 4\n\nIn [2]: print(b + 1)"
    assert _outputs(run_md, classic, ipython) == ["6\n", "5\n"]


def test_a_line_magic_without_its_percent_runs_where_python_cannot(run_md) -> None:
    start = "import os\nstart = os.getcwd()"
    magic = "cd ..\nprint(os.getcwd() == os.path.dirname(start))"
    assert _outputs(run_md, start, magic)[1].endswith("True\n")


def test_the_input_history_is_a_kernels(run_md) -> None:
    cells = ("a = 1", "print(repr(_i))", "print(repr(In[1]), repr(_i1), repr(_ii))")
    assert _outputs(run_md, *cells)[1:] == ["'a = 1'\n", "'a = 1' 'a = 1' 'a = 1'\n"]


def test_a_module_the_page_writes_can_be_imported(run_md) -> None:
    write = "%%writefile page_module.py\nVALUE = 42"
    assert _outputs(run_md, write, "import page_module\nprint(page_module.VALUE)")[1] == "42\n"


def test_a_cell_that_does_not_parse_takes_its_execution_count(run_md) -> None:
    cells = ("1 + 1", "collections.", "2 + 2", "print(sorted(Out))")
    nb = notebook(*[("code", cell) for cell in cells], tags={1: ["raises-exception"]})
    assert run_md(nb, src="docs/nb.ipynb").result.blocks[3].output == "[1, 3]\n"

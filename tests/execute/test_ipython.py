"""IPython's shell in page code, no kernel: magics, `!cmd`, `get_ipython()`, `_`/`Out`,
`clear_output`, display handles and stderr as Jupyter keeps them (reference: what a Jupyter
kernel stores for the same cells, written out by hand below)."""

from __future__ import annotations

import pytest
from llmbook.core.errors import AuthorError
from llmbook.execute.shell.shell import transform_magics

from .test_notebook import notebook


def _outputs(plan, pos: int = 0) -> list[tuple[str, object]]:  # noqa: ANN001
    """A block's outputs in order: ("stdout", text) and (kind, data) pieces, as a notebook."""
    run = plan.result.blocks[pos]
    pieces, start = [], 0
    for shown in run.displays:
        if run.output[start : shown.at]:
            pieces.append(("stdout", run.output[start : shown.at]))
        start = shown.at
        name = shown.metadata.get("name") if shown.kind == "stream" else shown.kind
        pieces.append((name, shown.data.get("text/plain") if name == "stderr" else shown.data))
    if run.output[start:]:
        pieces.append(("stdout", run.output[start:]))
    return pieces


def test_magics_become_get_ipython_calls_line_for_line() -> None:
    code = "\n\nx = 1\n%time y = x\nfiles = !ls\n!echo hi\nx?\n"
    python = transform_magics(code)
    assert python.splitlines() == [
        "",
        "",
        "x = 1",
        "get_ipython().run_line_magic('time', 'y = x')",
        "files = get_ipython().getoutput('ls')",
        "get_ipython().system('echo hi')",
        "get_ipython().run_line_magic('pinfo', 'x')",
    ]
    plain = "a = {'%': 1}\nb = a != 2  # why\n"
    assert transform_magics(plain) is plain  # no IPython syntax: not even tokenized
    assert transform_magics(plain.replace("why", "why?")) == plain.replace("why", "why?")
    cell = "%%capture out\nprint(1)\nprint(2)\n"
    assert transform_magics(cell).count("\n") == cell.count("\n")  # later lines keep their place


def test_line_magics_shell_commands_and_get_ipython(run_md) -> None:
    page = """\
    ```python
    %matplotlib inline
    %config InlineBackend.figure_format = "svg"
    words = !printf 'a\\nb\\n'
    print(list(words), get_ipython().__class__.__name__)
    !echo shell; echo oops 1>&2
    %time total = sum(range(10))
    print(total, _exit_code)
    ```
    """
    pieces = _outputs(run_md(page))
    text = "".join(t for kind, t in pieces if kind == "stdout")
    assert text.startswith("['a', 'b'] PageShell\nshell\n")
    assert "CPU times:" in text and "Wall time:" in text  # %time prints as in Jupyter
    assert text.endswith("45 0\n")
    assert ("stderr", "oops\n") in pieces  # the command's stderr, apart from its stdout


def test_cell_magics_capture_and_time(run_md) -> None:
    page = """\
    ```python
    %%capture captured
    print("hidden")
    ```

    ```python
    print(captured.stdout.strip())
    ```
    """
    plan = run_md(page)
    assert plan.result.blocks[0].output == ""
    assert plan.result.blocks[1].output == "hidden\n"


def test_a_failing_magic_fails_its_block_with_file_and_line(run_md) -> None:
    page = """\
    ```python
    x = 1
    %no_such_magic
    ```
    """
    with pytest.raises(AuthorError) as error:
        run_md(page)
    message = str(error.value)
    assert message.startswith("docs/page.md:3:")
    assert "UsageError: Line magic function `%no_such_magic` not found." in message


def test_underscore_and_out_follow_the_last_expressions(run_md) -> None:
    nb = notebook(("code", "6 * 7"), ("code", "'x'"), ("code", "print(_, __, Out[1], _1)"))
    plan = run_md(nb, src="docs/nb.ipynb")
    assert plan.result.blocks[2].output == "x 42 42 42\n"


def test_clear_output_drops_what_came_before(run_md) -> None:
    page = """\
    ```python
    from IPython.display import clear_output, display
    print("first")
    display("a")
    clear_output()
    print("second")
    clear_output(wait=True)
    print("third")
    ```
    """
    assert _outputs(run_md(page)) == [("stdout", "third\n")]


def test_display_handles_update_in_place_even_from_a_later_block(run_md) -> None:
    page = """\
    ```python
    from IPython.display import display, update_display
    print("start")
    handle = display("old", display_id=True)
    display("beside", display_id="two")
    print("end")
    ```

    ```python
    handle.update("new")
    update_display("changed", display_id="two")
    update_display("nowhere", display_id="unknown")
    print("updated")
    ```
    """
    plan = run_md(page)
    assert _outputs(plan) == [
        ("stdout", "start\n"),
        ("display_data", {"text/plain": "'new'"}),
        ("display_data", {"text/plain": "'changed'"}),
        ("stdout", "end\n"),
    ]
    assert _outputs(plan, 1) == [("stdout", "updated\n")]


def test_stderr_and_warnings_are_a_stream_of_their_own(run_md) -> None:
    page = """\
    ```python
    import sys, warnings
    print("out 1")
    print("err 1", file=sys.stderr)
    print("err 2", file=sys.stderr)
    print("out 2")
    warnings.warn("careful")
    ```
    """
    pieces = _outputs(run_md(page))
    assert pieces[:3] == [
        ("stdout", "out 1\n"),
        ("stderr", "err 1\nerr 2\n"),
        ("stdout", "out 2\n"),
    ]
    assert pieces[3][0] == "stderr" and "UserWarning: careful" in pieces[3][1]


def test_without_ipython_blocks_are_plain_python(run_md) -> None:
    page = "```python\nx = 41\n%time y = x\n```\n"
    with pytest.raises(AuthorError) as error:
        run_md(page, execute_ipython=False)
    assert str(error.value).startswith("docs/page.md:3: SyntaxError: invalid syntax")
    plain = (
        "```python\nimport sys\nprint('get_ipython' in dir(__builtins__), file=sys.stderr)\n```\n"
    )
    run = run_md(plain, execute_ipython=False).result.blocks[0]
    assert [(d.kind, d.data) for d in run.displays] == [("stream", {"text/plain": "False\n"})]


def test_native_output_is_the_blocks_too(run_md) -> None:
    page = """\
    ```python
    import ctypes, os
    print("python")
    os.system("echo from-a-child; echo child-err 1>&2")
    ctypes.CDLL(None).printf(b"from-c\\n")
    ```
    """
    pieces = _outputs(run_md(page))
    text = "".join(t for kind, t in pieces if kind == "stdout")
    assert text == "python\nfrom-a-child\nfrom-c\n"  # native output after Python's own
    assert ("stderr", "child-err\n") in pieces


def test_reading_input_fails_saying_a_build_has_no_one_to_type(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md("```python\nname = input('name? ')\n```\n")
    assert str(error.value).startswith("docs/page.md:2: EOFError")
    assert str(error.value).endswith(
        "Fix: a page cannot read input (input(), stdin): a build has no one to type; write the "
        "value into the code"
    )

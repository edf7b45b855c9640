"""Run stage, inside a page's worker process: its blocks and bound expressions, in order.

Each block is compiled under the page's own path with its code placed at its Markdown lines, so a
traceback names `docs/…/page.md` and the line that raised. Every run starts from the same seeds.
Time limits are not kept here: the parent kills the whole process (see `engine.py`), which also
stops native code that never returns to the interpreter.
"""

from __future__ import annotations

import ast
import builtins
import io
import linecache
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field

from llmbook.core.errors import AuthorError, quoted, quoted_lines
from llmbook.execute.numbers.precision import to_plain
from llmbook.execute.shell.display import (
    Display,
    Displays,
    display_context,
    ends_quiet,
    split_last,
)
from llmbook.execute.shell.figures import Figure, figure_context, take_figures
from llmbook.execute.shell.fonts import MissingGlyph
from llmbook.execute.shell.shell import automagic, remember_input, transform_magics
from llmbook.execute.shell.streams import captured
from llmbook.execute.stages.block_errors import (
    FIX_BLOCK,
    Raised,
    RaisingBlocks,
    block_error,
    expected_error,
    expected_syntax_error,
)
from llmbook.execute.stages.collect import CodeBlock, PageSource
from llmbook.execute.stages.page_process import located_warnings, set_threads, torch_module
from llmbook.execute.stages.provenance import Record

__all__ = ["BlockResult", "RunResult", "run_blocks", "steps"]


@dataclass
class BlockResult:
    output: str
    figures: list[Figure] = field(default_factory=list)
    cut: int = 0  # characters of output dropped past the output limit
    # the block's exception, shown as Jupyter shows it: (name, value, traceback lines)
    error: tuple[str, str, list[str]] | None = None
    displays: list[Display] = field(default_factory=list)  # IPython's display(), in order


@dataclass
class RunResult:
    """Outputs per block position in `PageSource.blocks`, values per bound binding in page order."""

    blocks: dict[int, BlockResult] = field(default_factory=dict)
    values: list[object] = field(default_factory=list)
    # {file under the project root: content hash} of what the page opened or imported (deps.py)
    used: dict[str, str] = field(default_factory=dict)
    # what raised while the page ran on, in page order (block_errors.py): the executor reports
    # each as an error, or as a warning under `execute_allow_errors`
    raised: list[Raised] = field(default_factory=list)
    # what computed them: versions, platform, when and how long (provenance.py)
    record: Record | None = None


def steps(page: PageSource) -> list[tuple[int, int, int]]:
    """(line, kind, position) in page order: kind 0 runs blocks[position], 1 evaluates bound[position]."""
    found = [(b.line, 0, pos) for pos, b in enumerate(page.blocks) if b.runs]
    found += [(b.line, 1, pos) for pos, b in enumerate(page.bound)]
    return sorted(found)


def run_blocks(
    page: PageSource,
    *,
    seed: int,
    preamble: str = "",
    path: str | None = None,
    output_limit: int = 100_000,
    show_last: bool = False,
    ipython: bool = True,
    native_output: bool = False,
    threads: int = 1,
    on_step: Callable[[int, int, int], None] = lambda line, kind, pos: None,
    on_raised: Callable[[Raised], None] = lambda raised: None,
) -> RunResult:
    """Execute the page to its end: a block that raises shows its error and the page runs on,
    each failure kept in `raised` (file, line, exception, last frames).

    `preamble` (the `execute_preamble` option) runs first in the page's namespace; `path` is the
    page's file, its `__file__`. `on_step(line, kind, position)` is called before each step, so
    the parent knows what ran last; `on_raised(raised)` as each failure is found. With `show_last` (always on a notebook), a block's last bare
    expression is displayed, as Jupyter's `Out`. With `ipython`, blocks run in IPython's shell
    (magics, `display()`); without, as plain Python. With `native_output` (a page's own
    process), what file descriptors 1 and 2 receive is the blocks' output too. `threads`
    (`execute_threads`): torch's and OpenMP's threads.
    """
    namespace = _fresh_namespace(page, seed, preamble, path)
    result = RunResult(values=[None] * len(page.bound))
    set_threads(threads)
    linecache.cache[page.src] = (
        0,
        None,
        [""] * (page.first - 1) + [t + "\n" for t in page.lines],
        page.src,
    )
    last = show_last or page.cells is not None
    raising = RaisingBlocks(page, on_raised)
    with (
        figure_context(),
        display_context(namespace, shell=ipython) as displays,
        located_warnings(page),
    ):
        for line, kind, pos in steps(page):
            on_step(line, kind, pos)
            if kind == 0:
                block = page.blocks[pos]
                run = _run_block(
                    page, block, namespace, output_limit, displays, last, native_output, raising
                )
                result.blocks[pos] = run
                continue
            binding = page.bound[pos]
            try:
                result.values[pos] = _evaluate(page, binding, namespace)
            except AuthorError as error:  # a number not computed: an error whatever is allowed
                raising.add(binding.line, binding.expr, error, allowable=False)
    result.raised = raising.found
    return result


def _fresh_namespace(
    page: PageSource, seed: int, preamble: str, path: str | None
) -> dict[str, object]:
    import random

    import numpy

    namespace: dict[str, object] = {"__name__": "__main__", "__builtins__": builtins}
    if path is not None:
        namespace["__file__"] = path
    try:
        with redirect_stdout(io.StringIO()):
            exec(compile(preamble, "<execute_preamble>", "exec"), namespace)
    except (Exception, SystemExit) as error:
        first = [line for line, _, _ in steps(page)] or [1]
        raise page.error(
            first[0],
            f"the code every page starts with (`execute_preamble`) raised "
            f"{type(error).__name__}: {quoted_lines(str(error))}",
            "correct `execute_preamble` in the llmbook options of mkdocs.yml",
        ) from None
    # The seeds after the preamble: every page starts from the same random state, whatever it did.
    random.seed(seed)
    numpy.random.seed(seed)
    torch = torch_module()
    if torch is not None:
        torch.manual_seed(seed)
    return namespace


def _run_block(
    page: PageSource,
    block: CodeBlock,
    namespace: dict,
    output_limit: int,
    displays: Displays,
    show_last: bool,
    native: bool,
    raising: RaisingBlocks,
) -> BlockResult:
    """Run one block; its exception is shown as Jupyter shows it and, unless it is tagged
    `raises-exception`, kept in `raising` for the build's report."""
    # `%magic`, `!cmd`: get_ipython() calls
    source = transform_magics(block.code) if displays.shell is not None else block.code
    try:
        code, tail = _compiled(page, block, source, show_last, displays.shell)
    except SyntaxError as error:  # IndentationError too: none of the block ran
        displays.count_unparsed()
        if not block.raises:
            problem = f"{type(error).__name__}: {error.msg}"
            line = error.lineno or block.code_line
            raising.add(block.line, source, page.error(line, problem, FIX_BLOCK))
        return BlockResult("", error=expected_syntax_error(page, error))
    except AuthorError as error:
        raising.add(block.line, source, error, allowable=False)
        return BlockResult("")
    shown_error = None
    try:
        with captured(displays, output_limit, native=native) as buffer:
            if displays.shell is not None:
                remember_input(displays.shell, displays.count, source, block.code)
            exec(code, namespace)
            if tail is not None:
                displays.show_result(eval(tail, namespace))
    except (Exception, SystemExit) as error:
        shown_error = expected_error(page, error)
        if not block.raises:
            raising.add(block.line, source, block_error(page, block, error))
    try:
        figures = _figures(page, block)
    except AuthorError as error:
        if block.raises or shown_error is None:  # else the block's error says it (a glyph's)
            raising.add(block.line, source, error, allowable=False)
        figures = []
    cleared, shown = displays.take()  # `clear_output` took the first `cleared` characters
    return BlockResult(buffer.getvalue()[cleared:], figures, buffer.cut, shown_error, shown)


def _compiled(
    page: PageSource, block: CodeBlock, source: str, show_last: bool, shell: object
) -> tuple:
    """(the block's code, its last expression's or None), placed at the block's lines;
    SyntaxError as Python raises it, AuthorError for a NUL byte. As IPython runs a cell, a
    line magic without its `%` is called (automagic), and `from __future__` may come late."""
    try:
        tree = _parsed(page, block, source, shell)
    except ValueError:  # Python 3.11's word for a NUL byte in source code
        line = block.code_line + block.code[: block.code.find("\0")].count("\n")
        raise page.error(
            line, "the code contains a NUL byte (\\0)", "delete the invisible character"
        ) from None
    # IPython runs a cell statement by statement: a `from __future__` import after others is
    # the first of its own. Here it goes first, where Python takes it.
    tree.body.sort(key=lambda node: not _future_import(node))
    # Jupyter's way: a last expression ending in `;` shows nothing.
    shown = show_last and not ends_quiet(block.code)
    body, last = split_last(tree) if shown else (tree, None)
    tail = compile(last, page.src, "eval") if last is not None else None
    return compile(body, page.src, "exec"), tail


def _parsed(page: PageSource, block: CodeBlock, source: str, shell: object) -> ast.Module:
    padding = "\n" * (block.code_line - 1)
    try:
        return ast.parse(padding + source, page.src)
    except SyntaxError as error:
        if shell is None:
            raise
        try:  # IPython's automagic: `ls data`, `cd ..`
            return ast.parse(padding + automagic(shell, source), page.src)
        except SyntaxError:
            raise error from None


def _future_import(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and node.module == "__future__"


def _figures(page: PageSource, block: CodeBlock) -> list[Figure]:
    """The figures the block drew; AuthorError for one without alt text, or a missing glyph."""
    try:
        # A notebook's figure without a title is described by its cell (Jupyter asks no alt text).
        cell = page.cell_of(block.line) + 1 if page.cells else None
        # described in the page's language when it renders (figures.described)
        figures = take_figures(f"{page.src}:{block.line}", cell)
    except MissingGlyph as error:
        where = f"a figure of the python block at line {block.line}"
        raise page.error(block.line, f"{where}: {error}", MissingGlyph.FIX) from None
    if isinstance(figures, str):
        raise page.error(
            block.line,
            f"{figures}: a figure of the python block at line {block.line} needs alt text",
            'give it a label, fig.set_label("…"), or a title, ax.set_title("…")',
        )
    return figures


def _evaluate(page: PageSource, binding: object, namespace: dict) -> object:
    where = f"[[{quoted(binding.body)}]]"
    try:
        code = compile("\n" * (binding.line - 1) + binding.expr, page.src, "eval")
        with redirect_stdout(io.StringIO()):
            value = eval(code, namespace)
    except NameError as error:
        raise page.error(
            binding.line,
            f"{where}: {quoted(str(error))}",
            f"define `{quoted(str(error.name))}` in a python block above line {binding.line} "
            "(a `python hidden` block keeps it off the page)",
        ) from None
    except Exception as error:
        raise page.error(
            binding.line,
            f"{where}: the expression raised {type(error).__name__}: {quoted_lines(str(error))}",
            "correct the expression (it runs in the page's namespace)",
        ) from None
    try:
        return to_plain(value)
    except TypeError as error:
        raise page.error(
            binding.line,
            f"{where}: the expression gave {error} ({quoted(str(value), 60)!r}), not a number",
            "bind an expression that yields a number, a tensor or a list of numbers",
        ) from None

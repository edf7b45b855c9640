"""Run stage, inside a page's worker process: its blocks and bound expressions, in order.

Each block is compiled under the page's own path with its code placed at its Markdown lines, so a
traceback names `docs/…/page.md` and the line that raised. Every run starts from the same seeds.
Time limits are not kept here: the parent kills the whole process (see `engine.py`), which also
stops native code that never returns to the interpreter.
"""

from __future__ import annotations

import ast
import builtins
import errno
import io
import linecache
import os
import re
import traceback
from collections.abc import Callable
from contextlib import redirect_stdout
from dataclasses import dataclass, field

from llmbook.errors import AuthorError, describe_line, quoted, quoted_lines
from llmbook.execute.collect import CodeBlock, PageSource
from llmbook.execute.display import Display, Displays, display_context, split_last
from llmbook.execute.figures import Figure, figure_context, take_figures
from llmbook.execute.fonts import MissingGlyph
from llmbook.execute.numbers import to_plain
from llmbook.execute.shell import transform_magics
from llmbook.execute.streams import captured

__all__ = ["BlockResult", "RunResult", "run_blocks", "steps"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_FIX_WRITE = (
    "a page may write only in its working directory (a fresh folder, removed after the page), "
    "the temp directory and the user's cache directory, never in the project or the site"
)
_FIX_READ = (
    "page code reads the home folder only in the project, Python's packages and the cache "
    "folder: list the file or folder under the llmbook option `execute_read` in mkdocs.yml to "
    "let pages read it"
)
_FIX_NETWORK = (
    "page code has no network by default: give the page `execute_network: true` in its front "
    "matter and set the llmbook option `execute_network: pages` in mkdocs.yml"
)
_FIX_BLOCK = (
    "correct the code; a block that only quotes code can be marked `python norun`, one that "
    "shows an error on purpose `python raises-exception` (a notebook cell: the same tags), or "
    "the whole page `execute: false` in its front matter"
)


@dataclass
class BlockResult:
    output: str
    figures: list[Figure] = field(default_factory=list)
    cut: int = 0  # characters of output dropped past the output limit
    # a `raises-exception` block's exception: (name, value, traceback lines)
    error: tuple[str, str, list[str]] | None = None
    displays: list[Display] = field(default_factory=list)  # IPython's display(), in order


@dataclass
class RunResult:
    """Outputs per block position in `PageSource.blocks`, values per bound binding in page order."""

    blocks: dict[int, BlockResult] = field(default_factory=dict)
    values: list[object] = field(default_factory=list)
    # {file under the project root: content hash} of what the page opened or imported (deps.py)
    used: dict[str, str] = field(default_factory=dict)


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
    on_step: Callable[[int, int, int], None] = lambda line, kind, pos: None,
) -> RunResult:
    """Execute the page; AuthorError (file, line, exception, last frames) on the first failure.

    `preamble` (the `execute_preamble` option) runs first in the page's namespace; `path` is the
    page's file, its `__file__`. `on_step(line, kind, position)` is called before each step, so
    the parent knows what ran last. With `show_last` (always on a notebook), a block's last bare
    expression is displayed, as Jupyter's `Out`. With `ipython`, blocks run in IPython's shell
    (magics, `display()`); without, as plain Python. With `native_output` (a page's own
    process), what file descriptors 1 and 2 receive is the blocks' output too.
    """
    namespace = _fresh_namespace(page, seed, preamble, path)
    result = RunResult(values=[None] * len(page.bound))
    torch = _torch()
    if torch is not None:
        # One thread: reductions then sum in one order on every machine (byte-identical pages),
        # and the chapters' tiny tensors run faster without a thread pool fighting other processes.
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
    linecache.cache[page.src] = (
        0,
        None,
        [""] * (page.first - 1) + [t + "\n" for t in page.lines],
        page.src,
    )
    last = show_last or page.cells is not None
    with figure_context(), display_context(namespace, shell=ipython) as displays:
        for line, kind, pos in steps(page):
            on_step(line, kind, pos)
            if kind == 0:
                block = page.blocks[pos]
                run = _run_block(
                    page, block, namespace, output_limit, displays, last, native_output
                )
                result.blocks[pos] = run
            else:
                result.values[pos] = _evaluate(page, page.bound[pos], namespace)
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
        raise AuthorError(
            page.src,
            first[0],
            f"the code every page starts with (`execute_preamble`) raised "
            f"{type(error).__name__}: {quoted_lines(str(error))}",
            "correct `execute_preamble` in the llmbook options of mkdocs.yml",
        ) from None
    # The seeds after the preamble: every page starts from the same random state, whatever it did.
    random.seed(seed)
    numpy.random.seed(seed)
    torch = _torch()
    if torch is not None:
        torch.manual_seed(seed)
    return namespace


def _torch():  # noqa: ANN202 (the torch module, or None)
    """torch where it is installed (a book that computes with it), else None: the plugin runs
    pure-Python and NumPy pages without it, and never imports it when it is absent."""
    from importlib.util import find_spec

    if find_spec("torch") is None:
        return None
    import torch

    return torch


def _run_block(
    page: PageSource,
    block: CodeBlock,
    namespace: dict,
    output_limit: int,
    displays: Displays,
    show_last: bool,
    native: bool,
) -> BlockResult:
    try:
        # `%magic`, `!cmd`: get_ipython() calls
        code = transform_magics(block.code) if displays.shell is not None else block.code
        tree = ast.parse("\n" * (block.code_line - 1) + code, page.src)
        # Jupyter's way: a last expression ending in `;` shows nothing.
        shown = show_last and not block.code.rstrip().endswith(";")
        body, last = split_last(tree) if shown else (tree, None)
        code = compile(body, page.src, "exec")
        tail = compile(last, page.src, "eval") if last is not None else None
    except SyntaxError as error:  # IndentationError too
        if block.raises:  # shown as Jupyter shows it; none of the block ran
            return BlockResult("", error=_expected_syntax_error(page, error))
        raise AuthorError(
            page.src, error.lineno or block.code_line, f"SyntaxError: {error.msg}", _FIX_BLOCK
        ) from None
    except ValueError:  # Python 3.11's word for a NUL byte in source code
        line = block.code_line + block.code[: block.code.find("\0")].count("\n")
        raise AuthorError(
            page.src, line, "the code contains a NUL byte (\\0)", "delete the invisible character"
        ) from None
    raised = None
    try:
        with captured(displays, output_limit, native=native) as buffer:
            exec(code, namespace)
            if tail is not None:
                displays.show_result(eval(tail, namespace))
    except (Exception, SystemExit) as error:
        if not block.raises:
            raise _block_error(page, block, error) from None
        raised = _expected_error(page, error)
    try:
        # A notebook's figure without a title is described by its cell (Jupyter asks no alt text).
        cell = page.cell_of(block.line) + 1 if page.cells else None
        # described in the page's language when it renders (figures.described)
        figures = take_figures(f"{page.src}:{block.line}", cell)
    except MissingGlyph as error:
        where = f"a figure of the python block at line {block.line}"
        raise AuthorError(page.src, block.line, f"{where}: {error}", MissingGlyph.FIX) from None
    if isinstance(figures, str):
        raise AuthorError(
            page.src,
            block.line,
            f"{figures}: a figure of the python block at line {block.line} needs alt text",
            'give it a label, fig.set_label("…"), or a title, ax.set_title("…")',
        )
    cleared, shown = displays.take()  # `clear_output` took the first `cleared` characters
    return BlockResult(buffer.getvalue()[cleared:], figures, buffer.cut, raised, shown)


def _expected_error(page: PageSource, error: BaseException) -> tuple[str, str, list[str]]:
    """A `raises-exception` block's exception as Jupyter keeps it: name, value and the
    traceback's lines (plain text, the page's frames named by cell and line)."""
    frames = "".join(traceback.format_list(_frames(error)[-8:])).rstrip("\n").split("\n")
    last = traceback.format_exception_only(type(error), error)
    lines = ["Traceback (most recent call last):", *frames, *"".join(last).rstrip("\n").split("\n")]
    return type(error).__name__, str(error), [_cell_lines(page, line) for line in lines]


def _expected_syntax_error(page: PageSource, error: SyntaxError) -> tuple[str, str, list[str]]:
    """A `raises-exception` block that does not parse, as Jupyter keeps it: no traceback, the
    file and line, the line's code, the caret and the message, every line named as the author
    sees it (a notebook's `on line 2` is the cell's line, as it is in Jupyter)."""
    where = describe_line(page.src, error.lineno) if error.lineno else None
    error.msg = re.sub(
        r"\bon line (\d+)",
        lambda m: "on " + re.sub(r".*, ", "", describe_line(page.src, int(m.group(1)))),
        error.msg or "",
    )
    lines = "".join(traceback.format_exception_only(type(error), error)).rstrip("\n").split("\n")
    value = f"{error.msg} ({page.src}, {where})" if where else error.msg
    return type(error).__name__, value, [_cell_lines(page, line) for line in lines]


def _cell_lines(page: PageSource, text: str) -> str:
    """Frames of the page name its lines as the author sees them (a notebook's cell and line)."""
    return re.sub(
        rf'File "{re.escape(page.src)}", line (\d+)',
        lambda m: f'File "{page.src}", {describe_line(page.src, int(m.group(1)))}',
        text,
    )


def _frames(error: BaseException) -> list[traceback.FrameSummary]:
    """The traceback without the executor's own frames."""
    return [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not os.path.abspath(f.filename).startswith(_HERE + os.sep)
    ]


def _readable(path: str | bytes | int) -> bool:
    """Whether this process may read `path` (a denied write names a file it may still read)."""
    try:
        os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC))
    except PermissionError:
        return False
    except (OSError, TypeError, ValueError):
        pass  # missing (a file it meant to make) or no path: a write
    return True


def _block_error(page: PageSource, block: CodeBlock, error: BaseException) -> AuthorError:
    frames = _frames(error)
    own = [f for f in frames if f.filename == page.src]
    line = own[-1].lineno if own else block.code_line
    at = f"python block at {describe_line(page.src, block.line)}"
    head = f"{type(error).__name__}: {quoted_lines(str(error))} ({at})"
    fix = _FIX_BLOCK
    if isinstance(error, MemoryError):
        head = f"MemoryError: out of memory ({at})"
        fix = "use less memory, or raise `execute_memory_mb` (the page process's cap) in mkdocs.yml"
    elif isinstance(error, PermissionError) and error.filename is None:
        fix = _FIX_NETWORK  # a socket's connect or bind (a denied file names its path)
    elif isinstance(error, PermissionError):
        fix = _FIX_WRITE if _readable(error.filename) else _FIX_READ
    elif isinstance(error, EOFError):
        fix = "a page cannot read input (input(), stdin): a build has no one to type; write the value into the code"
    elif isinstance(error, OSError) and error.errno == errno.EFBIG:
        fix = "write a smaller file, or raise `execute_file_size_mb` in mkdocs.yml"
    shown = quoted_lines(_cell_lines(page, "".join(traceback.format_list(frames[-4:]))))
    return AuthorError(page.src, line or block.code_line, f"{head}\n{shown}", fix)


def _evaluate(page: PageSource, binding: object, namespace: dict) -> object:
    where = f"[[{quoted(binding.body)}]]"
    try:
        code = compile("\n" * (binding.line - 1) + binding.expr, page.src, "eval")
        with redirect_stdout(io.StringIO()):
            value = eval(code, namespace)
    except NameError as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: {quoted(str(error))}",
            f"define `{quoted(str(error.name))}` in a python block above line {binding.line} "
            "(a `python hidden` block keeps it off the page)",
        ) from None
    except Exception as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: the expression raised {type(error).__name__}: {quoted_lines(str(error))}",
            "correct the expression (it runs in the page's namespace)",
        ) from None
    try:
        return to_plain(value)
    except TypeError as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: the expression gave {error} ({quoted(str(value), 60)!r}), not a number",
            "bind an expression that yields a number, a tensor or a list of numbers",
        ) from None

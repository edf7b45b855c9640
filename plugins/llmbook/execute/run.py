"""Run stage: a page's blocks and bound expressions, in order, in one namespace.

Each block is compiled under the page's own path with its code placed at its Markdown lines, so a
traceback names `docs/…/page.md` and the line that raised. Every run starts from the same seeds.
"""

from __future__ import annotations

import builtins
import io
import linecache
import os
import traceback
from contextlib import redirect_stdout
from dataclasses import dataclass, field

from llmbook.errors import AuthorError
from llmbook.execute.collect import Block, PageSource
from llmbook.execute.deadline import BlockTimeout, deadline
from llmbook.execute.figures import Figure, figure_context, take_figures
from llmbook.execute.numbers import to_plain

__all__ = ["BlockResult", "RunResult", "run_page"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_FIX_BLOCK = (
    "correct the code; a block that only quotes code can be marked `python norun` "
    "(or the whole page `execute: false` in its front matter)"
)


@dataclass
class BlockResult:
    output: str
    figures: list[Figure] = field(default_factory=list)


@dataclass
class RunResult:
    """Outputs per block position in `PageSource.blocks`, values per bound binding in page order."""

    blocks: dict[int, BlockResult] = field(default_factory=dict)
    values: list[object] = field(default_factory=list)


def run_page(page: PageSource, *, seed: int, timeout: float) -> RunResult:
    """Execute the page; AuthorError (file, line, exception, last frames) on the first failure."""
    import torch  # imported once per process: every later page finds it in sys.modules

    events = [(b.index, 0, pos) for pos, b in enumerate(page.blocks) if b.runs]
    events += [(b.line - page.offset - 1, 1, pos) for pos, b in enumerate(page.bound)]
    namespace = _fresh_namespace(seed)
    result = RunResult(values=[None] * len(page.bound))
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    # One thread: reductions then sum in one order on every machine (byte-identical pages), and
    # the chapters' tiny tensors run faster without a thread pool fighting other processes.
    threads = torch.get_num_threads()
    linecache.cache[page.src] = (
        0,
        None,
        [""] * page.offset + [t + "\n" for t in page.lines],
        page.src,
    )
    try:
        torch.use_deterministic_algorithms(True)
        torch.set_num_threads(1)
        with figure_context():
            for _, kind, pos in sorted(events):
                if kind == 0:
                    result.blocks[pos] = _run_block(page, page.blocks[pos], namespace, timeout)
                else:
                    result.values[pos] = _evaluate(page, page.bound[pos], namespace, timeout)
    finally:
        torch.use_deterministic_algorithms(was_deterministic)
        torch.set_num_threads(threads)
        linecache.cache.pop(page.src, None)
    return result


def _fresh_namespace(seed: int) -> dict[str, object]:
    import random

    import numpy
    import torch

    import llmkit

    random.seed(seed)
    numpy.random.seed(seed)
    torch.manual_seed(seed)
    namespace: dict[str, object] = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "llmkit": llmkit,
    }
    # The calculators are at hand in bindings: [[kv_cache_bytes(32, 32, 128, 4096) / 1e9 = 2.1]].
    for name in getattr(llmkit, "__all__", ()):
        namespace[name] = getattr(llmkit, name)
    return namespace


def _run_block(page: PageSource, block: Block, namespace: dict, timeout: float) -> BlockResult:
    try:
        code = compile("\n" * (block.code_line - 1) + block.code, page.src, "exec")
    except SyntaxError as error:
        raise AuthorError(
            page.src, error.lineno or block.code_line, f"SyntaxError: {error.msg}", _FIX_BLOCK
        ) from None
    buffer = io.StringIO()
    try:
        with redirect_stdout(buffer), deadline(timeout):
            exec(code, namespace)
    except (Exception, SystemExit, BlockTimeout) as error:
        raise _block_error(page, block, error, timeout) from None
    figures = take_figures(f"{page.src}:{block.line}")
    if isinstance(figures, str):
        raise AuthorError(
            page.src,
            block.line,
            f"{figures}: a figure of the python block at line {block.line} needs alt text",
            'give it a label, fig.set_label("…"), or a title, ax.set_title("…")',
        )
    return BlockResult(buffer.getvalue(), figures)


def _frames(error: BaseException) -> list[traceback.FrameSummary]:
    """The traceback without the executor's own frames."""
    return [
        f
        for f in traceback.extract_tb(error.__traceback__)
        if not os.path.abspath(f.filename).startswith(_HERE + os.sep)
    ]


def _block_error(
    page: PageSource, block: Block, error: BaseException, timeout: float
) -> AuthorError:
    frames = _frames(error)
    own = [f for f in frames if f.filename == page.src]
    line = own[-1].lineno if own else block.code_line
    if isinstance(error, BlockTimeout):
        head = f"the python block at line {block.line} ran longer than {timeout:g} s"
        fix = "make it faster, or raise `execute_timeout` (seconds) in mkdocs.yml"
    else:
        head = f"{type(error).__name__}: {error} (python block at line {block.line})"
        fix = _FIX_BLOCK
    shown = "".join(traceback.format_list(frames[-4:]))
    return AuthorError(page.src, line or block.code_line, f"{head}\n{shown}", fix)


def _evaluate(page: PageSource, binding: object, namespace: dict, timeout: float) -> object:
    where = f"[[{binding.body}]]"
    try:
        code = compile("\n" * (binding.line - 1) + binding.expr, page.src, "eval")
        with redirect_stdout(io.StringIO()), deadline(timeout):
            value = eval(code, namespace)
    except NameError as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: {error}",
            f"define `{error.name}` in a python block above line {binding.line} "
            "(a `python hidden` block keeps it off the page)",
        ) from None
    except (Exception, BlockTimeout) as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: the expression raised {type(error).__name__}: {error}",
            "correct the expression (it runs in the page's namespace)",
        ) from None
    try:
        return to_plain(value)
    except TypeError as error:
        raise AuthorError(
            page.src,
            binding.line,
            f"{where}: the expression gave {error} ({str(value)[:60]!r}), not a number",
            "bind an expression that yields a number, a tensor or a list of numbers",
        ) from None

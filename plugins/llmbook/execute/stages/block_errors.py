"""What a block that raised becomes: the error Jupyter shows in its cell, and the author error
that names it (file, cell and line, the page's own frames, how to fix it).

A block not tagged `raises-exception` that raises does not stop its page: the page runs on, as
Jupyter runs on with `--allow-errors`, so one build names every raising block (`Raised`); each
later one is marked when it uses a name an earlier raising block was to define, as it may
follow from that failure. Whether they fail the build or are warnings is the executor's choice
(`execute_allow_errors`)."""

from __future__ import annotations

import ast
import errno
import os
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from llmbook.core.errors import AuthorError, quoted_lines
from llmbook.execute.stages.collect import CodeBlock, PageSource

__all__ = [
    "FIX_BLOCK",
    "Raised",
    "RaisingBlocks",
    "block_error",
    "expected_error",
    "expected_syntax_error",
]

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # execute/
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
FIX_BLOCK = (
    "correct the code; a block that only quotes code can be marked `python norun`, one that "
    "shows an error on purpose `python raises-exception` (a notebook cell: the same tags), or "
    "the whole page `execute: false` in its front matter; to show every raising block's error "
    "as Jupyter does, set `execute_allow_errors: true` (the page's front matter, a notebook's "
    "`llmbook` metadata, or the llmbook options in mkdocs.yml)"
)


@dataclass(frozen=True)
class Raised:
    """A block (or a bound number) that raised while its page ran on: the error the build
    reports at `line`. `allowable`: a block's own exception, which `execute_allow_errors` turns
    into a warning; a number that cannot be computed, or a figure without alt text, is not."""

    line: int
    problem: str
    fix: str
    allowable: bool = True

    def error(self, page: PageSource) -> AuthorError:
        return page.error(self.line, self.problem, self.fix)


class RaisingBlocks:
    """The page's raising blocks in order; each later one is marked when it uses a name that
    an earlier one was to define (its failure may follow from that one)."""

    def __init__(self, page: PageSource, on_raised: Callable[[Raised], None]) -> None:
        self.page = page
        self.on_raised = on_raised  # told at once: a page killed later keeps what it found
        self.found: list[Raised] = []
        self._defined: list[tuple[int, frozenset[str]]] = []  # (block line, names it binds)

    def add(self, line: int, code: str, error: AuthorError, *, allowable: bool = True) -> None:
        """`line`: the block's (or the number's) line; `code`: what ran there."""
        tree = _parsed(code)
        used = _used_names(tree)
        problem = error.problem
        for earlier, names in reversed(self._defined):
            shared = sorted(names & used)
            if shared:
                where = self.page.lexed.describe(earlier)
                named = ", ".join(f"`{n}`" for n in shared[:3])
                problem += (
                    f"\n(it may follow from the error of the python block at {where}, which "
                    f"was to define {named})"
                )
                break
        self.found.append(Raised(error.line, problem, error.fix or "", allowable))
        self.on_raised(self.found[-1])
        self._defined.append((line, _bound_names(tree, code)))


def _parsed(code: str) -> ast.AST | None:
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError):
        return None


def _used_names(tree: ast.AST | None) -> frozenset[str]:
    if tree is None:
        return frozenset()
    return frozenset(
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
    )


def _bound_names(tree: ast.AST | None, code: str) -> frozenset[str]:
    """Names the code binds at any depth (assignments, defs, classes, imports); for code that
    does not parse, the names its lines begin by assigning."""
    if tree is None:
        return frozenset(re.findall(r"^([A-Za-z_]\w*)\s*=(?!=)", code, re.MULTILINE))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(names)


def expected_error(page: PageSource, error: BaseException) -> tuple[str, str, list[str]]:
    """A `raises-exception` block's exception as Jupyter keeps it: name, value and the
    traceback's lines (plain text, the page's frames named by cell and line)."""
    frames = "".join(traceback.format_list(_frames(error)[-8:])).rstrip("\n").split("\n")
    last = traceback.format_exception_only(type(error), error)
    lines = ["Traceback (most recent call last):", *frames, *"".join(last).rstrip("\n").split("\n")]
    return type(error).__name__, str(error), [_cell_lines(page, line) for line in lines]


def expected_syntax_error(page: PageSource, error: SyntaxError) -> tuple[str, str, list[str]]:
    """A `raises-exception` block that does not parse, as Jupyter keeps it: no traceback, the
    file and line, the line's code, the caret and the message, every line named as the author
    sees it (a notebook's `on line 2` is the cell's line, as it is in Jupyter)."""
    where = page.lexed.describe(error.lineno) if error.lineno else None
    error.msg = re.sub(
        r"\bon line (\d+)",
        lambda m: "on " + re.sub(r".*, ", "", page.lexed.describe(int(m.group(1)))),
        error.msg or "",
    )
    lines = "".join(traceback.format_exception_only(type(error), error)).rstrip("\n").split("\n")
    value = f"{error.msg} ({page.src}, {where})" if where else error.msg
    return type(error).__name__, value, [_cell_lines(page, line) for line in lines]


def _cell_lines(page: PageSource, text: str) -> str:
    """Frames of the page name its lines as the author sees them (a notebook's cell and line)."""
    return re.sub(
        rf'File "{re.escape(page.src)}", line (\d+)',
        lambda m: f'File "{page.src}", {page.lexed.describe(int(m.group(1)))}',
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


def block_error(page: PageSource, block: CodeBlock, error: BaseException) -> AuthorError:
    frames = _frames(error)
    own = [f for f in frames if f.filename == page.src]
    line = own[-1].lineno if own else block.code_line
    at = f"python block at {page.lexed.describe(block.line)}"
    head = f"{type(error).__name__}: {quoted_lines(str(error))} ({at})"
    fix = FIX_BLOCK
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
    return page.error(line or block.code_line, f"{head}\n{shown}", fix)

"""How a Zensical build stops on llmbook's errors: as MkDocs stops, with the report's text once
on stderr (`docs/x.md:LINE: … Fix: …`), no Python traceback, and exit status 1.

Why the extension ends the process itself. Zensical (0.0.73) builds in its Rust core, which calls
Python-Markdown for each page. An exception an extension raises goes back to Rust, which keeps
rendering the other pages, prints its own summary ("No issues found": it counts only its own
issues), then raises `RuntimeError("Python error: <error>\\n<its traceback>")` out of
`zensical.build()`, which Python prints as a second traceback: the report buried in some 55 lines.
Zensical documents no way for an extension to hand it a message (no error type of its own, no
logger it collects), and any exception raised, SystemExit included, takes that path; a hook where
Python prints the RuntimeError (`sys.excepthook`) would come after Rust's summary. So under
`zensical build` the first page that meets an error prints the error's text, flushes stdout and
stderr, runs the interpreter's exit functions (llmbook's: the page processes' forkserver ended)
and ends the process with status 1 (`os._exit`: from Zensical's rendering thread, before Rust
prints anything more). Pages may render on several threads: a lock that is never released makes
the report print once; a second page failing meanwhile waits for the exit.

Under `zensical serve` nothing changes: a page's errors show on it (the live preview), and an
error that stops the preview's start is Zensical's to print.

A bug of llmbook's (any exception but the core's own errors) keeps its "internal error" form: one
line naming the page, with its traceback written to a file in the cache folder (core/crash.py).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from markdown import Markdown

# Its own helpers: where a page's file is, which config the build reads, whether it serves.
from llmbook.adapters.zensical.adapter import _config_file, _serving, _src, page_context
from llmbook.core.crash import internal_error
from llmbook.core.errors import LLMBookError

__all__ = ["BUILDING", "guarded", "stopped"]

T = TypeVar("T")

# The stage an internal error met outside the page pipeline names (core/crash.py).
BUILDING = "building the site with Zensical"
_EXITING = threading.Lock()  # taken by the one page whose error ends the build; never released


def guarded(run: Callable[..., T], md: Markdown) -> Callable[..., T]:
    """`run` (a processor's, of the extension rendering a page with `md`) whose errors end
    `zensical build` as `stopped` says, a bug of llmbook's as its internal error; under
    `zensical serve` they reach Zensical as they are."""

    def call(*args: Any, **kwargs: Any) -> T:
        try:
            return run(*args, **kwargs)
        except Exception as error:
            if _serving():
                raise
            if not isinstance(error, LLMBookError):
                src, root, folder = _where(md)
                error = internal_error(src, BUILDING, error, root=root, folder=folder)
            stopped(error)

    return call


def stopped(error: LLMBookError) -> NoReturn:
    """End the build on `error`: its text once on stderr, exit status 1, nothing after it."""
    _EXITING.acquire()  # a page failing on another thread waits here for the exit
    try:
        sys.stdout.flush()
        sys.stderr.write(f"{error}\n")
        sys.stderr.flush()
        # What the interpreter runs at its exit (CPython's and PyPy's function), which
        # `os._exit` skips: llmbook's forkserver and its page processes are ended.
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(1)


def _where(md: Markdown) -> tuple[str, Path, str]:
    """The page Zensical renders (`docs/x.md`), the project's folder, and the cache folder as
    the llmbook options name it: where an internal error's traceback goes."""
    context = page_context(md)
    config: dict[str, Any] = context.config if context is not None else {}
    root = Path(config.get("root_dir") or Path.cwd()).resolve()
    src = "mkdocs.yml"
    if context is not None:
        src = _src(root / config.get("docs_dir", "docs") / context.page.path, root)
    folder = ".llmbook-cache"
    try:
        from llmbook.adapters.config import load_options

        folder = str(load_options(_config_file(root))["cache_dir"])
    except Exception:  # noqa: BLE001, S110 (the default folder: the options are what failed)
        pass
    return src, root, folder

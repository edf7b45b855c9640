"""The page server: multiprocessing's forkserver, which preloads torch once so that a page's
process is a fork of it (milliseconds), started with the page environment and ended with the
build."""

from __future__ import annotations

import atexit
import multiprocessing
import os
import signal
import threading

from llmbook.execute.sandbox.environment import page_environment
from llmbook.execute.sandbox.sandbox import end_descendants

__all__ = ["page_context"]


def page_context() -> multiprocessing.context.BaseContext:
    """The multiprocessing context pages start from, its server running."""
    context = _context()
    _start_clean(context)
    return context


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["llmbook.execute.stages.worker"])
        return context
    return multiprocessing.get_context("spawn")  # Windows; macOS has forkserver


_FORKSERVER_LOCK = threading.Lock()


def _start_clean(context: multiprocessing.context.BaseContext) -> None:
    """Start the forkserver (once per process) with the page environment, not the build's: a
    page forked from it finds no secret even in the environment block it inherits
    (`/proc/self/environ`), which clearing `os.environ` alone would leave there."""
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    with _FORKSERVER_LOCK:
        build_env = dict(os.environ)
        os.environ.clear()
        os.environ.update(page_environment(build_env))
        try:
            forkserver.ensure_running()
        finally:
            os.environ.clear()
            os.environ.update(build_env)
        global _ENDS_AT_EXIT
        if not _ENDS_AT_EXIT:
            atexit.register(_end_forkserver)
            _ENDS_AT_EXIT = True


_ENDS_AT_EXIT = False


def _end_forkserver() -> None:
    """End the forkserver with the build, and whatever it still runs: left to see its parent
    gone, it outlives the build by seconds when it is still importing its preload (a build that
    ended early, on a page's error or time-out)."""
    from multiprocessing import forkserver

    pid = getattr(forkserver._forkserver, "_forkserver_pid", None)
    if not pid:
        return
    end_descendants(pid)
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass

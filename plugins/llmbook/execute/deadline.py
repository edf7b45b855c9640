"""A time limit for one block, in any thread (`mkdocs serve` builds outside the main thread).

A watchdog timer raises `BlockTimeout` asynchronously in the thread running the block; Python
delivers it at the next bytecode, so a single long native call (one huge matmul) finishes first.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["BlockTimeout", "deadline"]


class BlockTimeout(BaseException):
    """Raised inside a block that ran past its limit (a BaseException so `except Exception` in the
    author's code cannot swallow it)."""


def _set_async_exc(thread_id: int, exc: type[BaseException] | None) -> None:
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else ctypes.c_void_p(0)
    )


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Raise BlockTimeout in this thread if the body runs longer than `seconds`."""
    thread_id = threading.get_ident()
    lock = threading.Lock()
    state = {"active": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["active"]:
                state["fired"] = True
                _set_async_exc(thread_id, BlockTimeout)

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            state["active"] = False
            if state["fired"]:
                _set_async_exc(thread_id, None)  # drop it if still pending: it must not leak out
        timer.cancel()

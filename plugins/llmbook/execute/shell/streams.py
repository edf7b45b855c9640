"""A block's stdout and stderr while it runs: stdout kept as its printed text (up to the output
limit), stderr as stream outputs placed in that text where they came (`display.Displays`).

In a page's own process, what native code and child processes write to file descriptors 1 and 2
(`os.system`, a C library's printf) is the block's too, as a Jupyter kernel keeps it: it is read
after the block and added at its end (its order against Python's own prints is not known)."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, redirect_stderr, redirect_stdout

from llmbook.execute.shell.display import Displays

__all__ = ["CappedOutput", "captured"]


class CappedOutput(io.StringIO):
    """stdout that keeps the first `limit` characters and counts the rest."""

    def __init__(self, limit: int, displays: Displays | None = None) -> None:
        super().__init__()
        self.limit, self.kept, self.cut = limit, 0, 0
        self.displays = displays

    def write(self, text: str) -> int:
        if self.displays is not None and text:
            self.displays.before_output()  # a waiting `clear_output(wait=True)` happens now
        room = max(0, self.limit - self.kept)
        if len(text) > room:
            self.cut += len(text) - room
            text = text[:room]
        self.kept += len(text)
        super().write(text)
        return len(text)


class _Stderr(io.TextIOBase):
    """stderr as the block's stream outputs, capped like stdout."""

    def __init__(self, displays: Displays, limit: int) -> None:
        self.displays, self.room = displays, limit

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        kept = text[: max(0, self.room)]
        self.room -= len(kept)
        self.displays.write_stderr(kept)
        return len(text)


@contextmanager
def captured(displays: Displays, limit: int, *, native: bool = False) -> Iterator[CappedOutput]:
    """stdout and stderr of the code run inside, for one block (`native`: file descriptors 1
    and 2 too, in a page's own process)."""
    buffer = CappedOutput(limit, displays)
    stderr = _Stderr(displays, limit)
    displays.begin(lambda: buffer.kept)
    with ExitStack() as stack:
        if native:
            stack.enter_context(_descriptors(buffer, stderr))
        stack.enter_context(redirect_stdout(buffer))
        stack.enter_context(redirect_stderr(stderr))
        yield buffer


@contextmanager
def _descriptors(stdout: io.TextIOBase, stderr: io.TextIOBase) -> Iterator[None]:
    """Descriptors 1 and 2 into temporary files while the block runs; their text then goes to
    `stdout` and `stderr`."""
    import ctypes

    libc = ctypes.CDLL(None)
    files = [tempfile.TemporaryFile(), tempfile.TemporaryFile()]
    for stream in (sys.__stdout__, sys.__stderr__):
        if stream is not None:
            stream.flush()
    saved = [os.dup(1), os.dup(2)]
    os.dup2(files[0].fileno(), 1)
    os.dup2(files[1].fileno(), 2)
    try:
        yield
    finally:
        libc.fflush(None)  # what C's stdio still buffers
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved:
            os.close(fd)
        for file, target in zip(files, (stdout, stderr), strict=True):
            file.seek(0)
            text = file.read().decode("utf-8", errors="replace")
            file.close()
            if text:
                target.write(text)

"""A block's stdout and stderr while it runs: stdout kept as its printed text (up to the output
limit), stderr as stream outputs placed in that text where they came (`display.Displays`)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout

from llmbook.execute.display import Displays

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
def captured(displays: Displays, limit: int) -> Iterator[CappedOutput]:
    """stdout and stderr of the code run inside, for one block."""
    buffer = CappedOutput(limit, displays)
    displays.begin(lambda: buffer.kept)
    with redirect_stdout(buffer), redirect_stderr(_Stderr(displays, limit)):
        yield buffer

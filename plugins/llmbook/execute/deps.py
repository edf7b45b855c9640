"""The files of the project a page really used, so that its cached result goes stale with them.

In the page's process, an audit hook (PEP 578) sees every file opened through Python (`open`,
`io.open_code`, `os.open`: data files, and the sources of imports) and every module imported; at the
end, those under the project root are hashed and stored with the result. Files read by native code
without Python's `open` (a C library's fopen) are not seen.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

__all__ = ["UseRecorder", "file_hash"]


def file_hash(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a file's content; "missing" when it cannot be read."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return "missing"


class UseRecorder:
    """Records what the page's process opens and imports from now on (an audit hook lives as long
    as the process: one recorder per page process)."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        # An environment inside the project (.venv, .nox) holds installed packages, not the
        # project's files: what they are is in the key as versions (torch, matplotlib).
        installed = (sys.prefix, sys.exec_prefix)
        # This package's own sources are read when a library inspects the stack (torch does):
        # the machinery that runs the page, not what the page used.
        here = os.path.dirname(os.path.abspath(__file__))
        self._skipped = {os.path.realpath(p) + os.sep for p in (*installed, here)}
        self._opened: set[str] = set()
        self._modules_before = set(sys.modules)
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if event != "open":
            return
        path = args[0]
        if isinstance(path, int):  # an open file descriptor: its path was seen when it was opened
            return
        path = os.fsdecode(path)
        self._opened.add(path if os.path.isabs(path) else os.path.join(os.getcwd(), path))

    def _imported(self) -> set[str]:
        """The source files of the modules imported since the recorder started (an up-to-date
        import reads the cached .pyc, not the source, so `open` alone would miss the source)."""
        found = set()
        for name in set(sys.modules) - self._modules_before:
            spec = getattr(sys.modules.get(name), "__spec__", None)
            if spec is not None and spec.has_location and spec.origin:
                found.add(spec.origin)
        return found

    def used(self) -> dict[str, str]:
        """{path relative to the root: content hash} of every used file under the root."""
        used: dict[str, str] = {}
        for path in self._opened | self._imported():
            real = os.path.realpath(path)
            if not real.startswith(self.root + os.sep) or "__pycache__" in real.split(os.sep):
                continue
            if any(real.startswith(prefix) for prefix in self._skipped):
                continue
            if os.path.isfile(real):
                used[Path(os.path.relpath(real, self.root)).as_posix()] = file_hash(real)
        return dict(sorted(used.items()))

"""The files of the project a page really used, so that its cached result goes stale with them.

In the page's process, an audit hook (PEP 578) sees every file opened through Python (`open`,
`io.open_code`, `os.open`: data files, and the sources of imports) and every module imported; at the
end, those under the project root are hashed and stored with the result. Files read by native code
without Python's `open` (a C library's fopen) are not seen.

A virtual environment inside the project (`.nox/docs`, `.venv`) holds installed packages, not the
project's files: the modules a page imports from one are not recorded, and the data files it opens
there (a 100 MB model file that a package ships) are keyed by size and modification time instead
of their content, so that a warm build does not read them again, yet upgrading the package re-runs
the pages that opened them.
"""

from __future__ import annotations

import builtins
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from llmbook.core.store import file_digest, file_stamp

__all__ = ["UseRecorder", "installed", "unrecorded"]

# Folders that only installed packages live in.
_INSTALLED_DIRS = frozenset({"site-packages", "dist-packages"})
# Code of an installed package, recorded (if at all) by importing it: its version is what counts.
_CODE_SUFFIXES = frozenset({".py", ".pyc", ".pyi", ".so", ".pyd", ".pth"})
_paused = [False]  # set while the machinery that runs the page opens files of its own


@contextmanager
def unrecorded() -> Iterator[None]:
    """Files opened inside are the runner's (IPython's shell reading its own data), not the page's."""
    _paused[0] = True
    try:
        yield
    finally:
        _paused[0] = False


def installed(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """Whether a file under `root` belongs to an installed environment rather than the project: it
    lies in a site-packages or dist-packages folder, or in a virtual environment (a folder below
    the root holding pyvenv.cfg: its bin/, share/ and include/ too)."""
    relative = Path(os.path.relpath(path, root))
    if _INSTALLED_DIRS.intersection(relative.parts):
        return True
    return any(
        (Path(root) / folder / "pyvenv.cfg").is_file()
        for folder in relative.parents
        if folder != Path(".")
    )


class UseRecorder:
    """Records what the page's process opens and imports from now on (an audit hook lives as long
    as the process: one recorder per page process)."""

    def __init__(self, root: str) -> None:
        self.root = os.path.realpath(root)
        # This package's own sources are read when a library inspects the stack (torch does):
        # the machinery that runs the page, not what the page used.
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # execute/
        self._skipped = os.path.realpath(here) + os.sep
        # The running environment is an installed one wherever it lives (a conda prefix has no
        # pyvenv.cfg, and its share/ no site-packages).
        self._environments = tuple(
            sorted({os.path.realpath(p) + os.sep for p in (sys.prefix, sys.exec_prefix)})
        )
        self._opened: set[str] = set()
        self._modules_before = set(sys.modules)
        # Modules the forkserver preloaded (torch, NumPy) are not new when the page's code or a
        # package it imports (a book's) imports them: the `import` statements of the page and of
        # the modules new since it started are seen here (not the preloaded runner's own).
        self._named: set[str] = set()
        plain_import = builtins.__import__
        before = self._modules_before

        def recording_import(name, globals=None, locals=None, fromlist=(), level=0):  # noqa: ANN001, ANN202, A002
            importer = (globals or {}).get("__name__", "__main__")
            if not level and (importer == "__main__" or importer not in before):
                self._named.add(name)
            return plain_import(name, globals, locals, fromlist, level)

        builtins.__import__ = recording_import
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if event != "open" or _paused[0]:
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

    def new_modules(self) -> list[str]:
        """The modules imported since the recorder started, or named by an `import` statement
        (provenance.py)."""
        return sorted((set(sys.modules) - self._modules_before) | self._named)

    def used(self) -> dict[str, str]:
        """{path relative to the root: content hash} of every used file under the root; an
        installed environment's data files map to their `file_stamp`, its code to nothing."""
        used: dict[str, str] = {}
        for path in self._opened | self._imported():
            real = os.path.realpath(path)
            if not real.startswith(self.root + os.sep) or "__pycache__" in real.split(os.sep):
                continue
            if real.startswith(self._skipped) or not os.path.isfile(real):
                continue
            name = Path(os.path.relpath(real, self.root)).as_posix()
            if not (real.startswith(self._environments) or installed(real, self.root)):
                used[name] = file_digest(real)
            elif Path(real).suffix not in _CODE_SUFFIXES:
                used[name] = file_stamp(real)
        return dict(sorted(used.items()))

"""Where a page's code may read: everything but the home folders, and in those only what a build
needs (the project, Python and its packages, the cache folder, CUDA's and Triton's caches) and
what mkdocs.yml grants (`execute_read`).

Landlock grants, never denies, so hiding a folder means granting everything beside it: each
folder on the way from `/` to a home folder is listed once per build and its other entries are
granted. A home folder is where keys and tokens live (`~/.ssh`, `~/.aws`, `~/.netrc`,
`~/.git-credentials`); a page that reads one fails at its line with the fix.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from llmbook.execute.sandbox.sandbox import inside

__all__ = ["HOME_FOLDERS", "ReadPlan", "python_folders", "read_plan"]

HOME_FOLDERS = ("/home", "/root")  # every user's home; the build's own may lie elsewhere
_TOOL_CACHES = (".triton", ".nv")  # Triton's kernels, CUDA's compute cache: in the home folder


@dataclass(frozen=True)
class ReadPlan:
    readable: tuple[str, ...]  # the paths granted for reading
    hidden: tuple[str, ...]  # the home folders, hidden from pages but for what is granted


def _hidden(home: str) -> list[str]:
    found = {os.path.realpath(p) for p in (home, *HOME_FOLDERS) if p and os.path.isdir(p)}
    found.discard("/")  # a build whose home is / hides nothing
    return sorted(found)


def _beside(hidden: list[str]) -> list[str]:
    """Every entry of the folders on the way to a hidden folder that leads to none."""
    ancestors: set[str] = set()
    for folder in hidden:
        while folder != "/":
            folder = os.path.dirname(folder)
            ancestors.add(folder)
    found = []
    for folder in sorted(ancestors):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            real = os.path.realpath(path)  # a link into a home folder grants nothing
            if path in ancestors or any(inside(real, h) or inside(h, real) for h in hidden):
                continue
            found.append(path)
    return found


def python_folders() -> list[str]:
    """The interpreter, its standard library and every package folder on `sys.path`."""
    found = [sys.prefix, sys.base_prefix, sys.exec_prefix]
    found += [entry for entry in sys.path if entry and os.path.isdir(entry)]
    return found


def read_plan(home: str, needed: Iterable[str], granted: Iterable[str] = ()) -> ReadPlan | None:
    """The plan for a build whose home folder is `home`: `needed` are the build's own folders (a
    needed folder that holds a home folder is dropped, as it would open it), `granted` are the
    author's (`execute_read`, kept whatever they hold). None: nothing to hide."""
    hidden = _hidden(home)
    if not hidden:
        return None
    tools = [os.path.join(home, name) for name in _TOOL_CACHES]
    own = [os.path.realpath(p) for p in [*needed, *tools] if os.path.exists(p)]
    own = [p for p in own if not any(inside(h, p) for h in hidden)]
    readable = _beside(hidden) + own + [os.path.realpath(p) for p in granted]
    return ReadPlan(tuple(dict.fromkeys(readable)), tuple(hidden))

"""Which pages run: the `execute_pages` option (glob patterns relative to docs_dir), which a page's
front matter `execute: true|false` (a notebook's `"llmbook": {"execute": …}`) overrides."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

__all__ = ["docs_relative", "glob_regex", "page_selector"]


@lru_cache(maxsize=256)
def glob_regex(pattern: str) -> re.Pattern[str]:
    """A glob as a regex over '/'-separated paths: `*` and `?` stay within one folder, `**` spans
    folders (`**/x.md` also matches `x.md`), `[…]` is a character class."""
    out, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and "]" in pattern[i + 2 :]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1 : end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = end
        else:
            out.append(re.escape(char))
        i += 1
    return re.compile("".join(out) + r"\Z")


def page_selector(patterns: Sequence[str], *, root: str, docs_dir: str) -> Callable[[str], bool]:
    """Whether a page (`src` relative to the project root) runs when its front matter does not say:
    its path relative to `docs_dir` matches one of `patterns`."""
    compiled = [glob_regex(p[2:] if p.startswith("./") else p) for p in patterns]
    inside = docs_relative(root=root, docs_dir=docs_dir)

    def runs(src: str) -> bool:
        return any(regex.match(inside(src)) for regex in compiled)

    return runs


def docs_relative(*, root: str, docs_dir: str) -> Callable[[str], str]:
    """A page's path (`src`, relative to the project root) made relative to `docs_dir`, as
    `execute_pages` patterns and shards (`shard.py`) see it."""
    docs = os.path.relpath(os.path.abspath(os.path.join(root, docs_dir)), root).replace(os.sep, "/")

    def inside(src: str) -> str:
        return src[len(docs) + 1 :] if src.startswith(docs + "/") else src

    return inside

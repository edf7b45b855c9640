"""The load and check stages of a page kept between builds: a page whose file, results and llmbook
did not change is neither collected nor checked again.

A warm build of a large book otherwise spends tens of milliseconds a page re-reading what it
already knew (collecting bindings, parsing directives and formulas, sorting numbers). Two entries
per page, in `.llmbook-cache/stages/`:

- the loaded page, under a key of the file's bytes, its path, whether the site runs it
  (`execute_pages`) and llmbook's own files;
- its plan, under that key plus the page's execution results and the site's `numbers_strict`.

A page that fails a stage stores nothing (its error is raised again on every build). The live
preview does not use them: it plans a page its own, forgiving way.
"""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path

from llmbook.errors import register_line_map
from llmbook.execute.cache import write_atomic
from llmbook.execute.load import LoadedPage, load_page
from llmbook.execute.render import Plan

__all__ = ["StageCache"]

_FORMAT = b"1"


class StageCache:
    """Loaded pages and their plans, one pickle each per page, in `root/stages/`."""

    def __init__(self, root: str | os.PathLike[str], salt: str) -> None:
        self.dir = Path(root) / "stages"
        self.salt = salt  # llmbook's own files: a change of any stage's code is a new key
        self.hits = 0

    def load(self, src: str, raw: bytes | str, *, execute: bool = True) -> LoadedPage:
        """The page as `load_page` makes it, from the cache when its file (and whether the site
        runs it, `execute_pages`) did not change."""
        data = raw.encode() if isinstance(raw, str) else raw
        key = _hash(_FORMAT, self.salt.encode(), src.encode(), str(execute).encode(), data)
        stored = self._read(src, "load", key)
        if stored is not None:
            if stored.notebook is not None:  # what load_page registers, registered again
                register_line_map(src, stored.notebook.where)
            self.hits += 1
            return stored
        page = load_page(src, raw, execute=execute)
        page.file_key = key
        self._write(src, "load", key, page)
        return page

    def plan(self, page: LoadedPage, digest: str, strict: bool, make: Callable[[], Plan]) -> Plan:
        """The page's plan (`make()`), from the cache when the page, its results (`digest`) and
        `strict` are those it was made for."""
        key = _hash(page.file_key.encode(), digest.encode(), str(strict).encode())
        stored = self._read(page.source.src, "plan", key)
        if stored is not None:
            stored.page, stored.result = page.source, page.result
            return stored
        plan = make()
        # The page and its results are kept elsewhere (above, and in the execution cache).
        source, result = plan.page, plan.result
        plan.page, plan.result = None, None
        try:
            self._write(page.source.src, "plan", key, plan)
        finally:
            plan.page, plan.result = source, result
        return plan

    # -- files ------------------------------------------------------------------------------

    def _path(self, src: str, stage: str) -> Path:
        return self.dir / f"{hashlib.sha256(src.encode()).hexdigest()[:24]}.{stage}.pickle"

    def _read(self, src: str, stage: str, key: str) -> object | None:
        try:
            stored_key, value = pickle.loads(self._path(src, stage).read_bytes())
        except Exception:  # missing, truncated or from another version: rebuild it
            return None
        return value if stored_key == key else None

    def _write(self, src: str, stage: str, key: str, value: object) -> None:
        data = pickle.dumps((key, value), protocol=pickle.HIGHEST_PROTOCOL)
        write_atomic(self._path(src, stage), data)


def _hash(*parts: bytes) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(len(part).to_bytes(8, "little") + part)
    return digest.hexdigest()

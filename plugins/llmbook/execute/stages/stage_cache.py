"""The load and check stages of a page kept between builds: a page whose file, results and llmbook
did not change is neither collected nor checked again.

A warm build of a large book otherwise spends tens of milliseconds a page re-reading what it
already knew (collecting bindings, parsing directives and formulas, sorting numbers). Two entries
per page, in the store's `stages` namespace:

- the loaded page, under a key of the file's bytes, its path, whether the site runs it
  (`execute_pages`) and llmbook's own files;
- its plan, under that key plus the page's execution results and the site's `numbers_strict`.

A page that fails a stage stores nothing (its error is raised again on every build). The live
preview does not use them: it plans a page its own, forgiving way.
"""

from __future__ import annotations

from collections.abc import Callable

from llmbook.core.store import Slot, Store, bytes_digest, key
from llmbook.core.store_namespaces import STAGES
from llmbook.execute.stages.load import LoadedPage, load_page
from llmbook.execute.stages.plan import Plan

__all__ = ["StageCache"]

_FORMAT = 2  # 2: entries in the store
NAMESPACE = STAGES


class StageCache:
    """Loaded pages and their plans: two pickled slots per page in the store's "stages"."""

    def __init__(self, store: Store, salt: str) -> None:
        self._store = store
        self.salt = salt  # llmbook's own files: a change of any stage's code is a new key

    def load(self, src: str, raw: bytes | str, *, execute: bool = True) -> LoadedPage:
        """The page as `load_page` makes it, from the cache when its file (and whether the site
        runs it, `execute_pages`) did not change."""
        data = raw.encode() if isinstance(raw, str) else raw
        file_key = key(_FORMAT, self.salt, src, execute, bytes_digest(data))
        slot = self._slot(src, "load")
        stored = slot.get(file_key)
        if stored is not None:
            return stored
        page = load_page(src, raw, execute=execute)
        page.file_key = file_key
        slot.put(file_key, page)
        return page

    def plan(self, page: LoadedPage, digest: str, strict: bool, make: Callable[[], Plan]) -> Plan:
        """The page's plan (`make()`), from the cache when the page, its results (`digest`) and
        `strict` are those it was made for."""
        plan_key = key(page.file_key, digest, strict)
        slot = self._slot(page.source.src, "plan")
        stored = slot.get(plan_key)
        if stored is not None:
            stored.page, stored.result = page.source, page.result
            return stored
        plan = make()
        # The page and its results are kept elsewhere (above, and in the execution cache).
        source, result = plan.page, plan.result
        plan.page, plan.result = None, None
        try:
            slot.put(plan_key, plan)
        finally:
            plan.page, plan.result = source, result
        return plan

    def _slot(self, src: str, stage: str) -> Slot:
        return self._store.slot(NAMESPACE, f"{src}\0{stage}", codec="pickle")

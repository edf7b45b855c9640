"""Material's search index, made once per page content: what its search plugin indexes of an
unchanged page is kept in the store's "search" namespace, and jieba (Chinese segmentation) loads
its dictionaries only when a page must be segmented again, quietly. A warm build of a Chinese
book neither loads jieba (about half a second) nor segments a page.

`segment_with_jieba(plugin, on)` says whether the search plugin cuts Han text with jieba (it
does wherever jieba is installed; a Japanese book's index is cut by TinySegmenter in the browser
instead: cjk.py). `defer_jieba()` runs before the search plugin configures jieba;
`cache_search(plugin, store)` after it made its index. Entries are kept under a key of everything the plugin reads of a page
(its content, table of contents, URL, title, metadata) and of the segmenter (jieba's version and
dictionaries), so a kept entry is the one the plugin would make.
"""

from __future__ import annotations

import functools
import importlib
import logging
import sys
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

from llmbook.core.store import Store, file_digest, key, version
from llmbook.core.store_namespaces import SEARCH

__all__ = ["Segments", "cache_search", "defer_jieba", "save_segments", "segment_with_jieba"]

_NAMESPACE = SEARCH
_FORMAT = 1


def segment_with_jieba(plugin: Any, on: bool | None) -> None:
    """Whether Material's search `plugin` cuts Han text with jieba: not when `on` is False (a
    Japanese book), else wherever it is installed (restored for a later build in this process)."""
    module = sys.modules.get(type(plugin).__module__)
    if module is None or not hasattr(module, "jieba"):
        return  # another search plugin: it segments as it does
    if on is False:
        module.jieba = None
    elif module.jieba is None and find_spec("jieba") is not None:
        module.jieba = importlib.import_module("jieba")


def defer_jieba() -> None:
    """jieba's dictionaries load on its first segmentation, not when the search plugin names
    them; its start-up lines go to its log, not the terminal."""
    try:
        import jieba
    except ImportError:
        return
    logging.getLogger("jieba").setLevel(logging.WARNING)
    jieba.setLogLevel(logging.WARNING)
    if getattr(jieba, "_llmbook_deferred", None) is not None:
        jieba._llmbook_deferred.clear()  # a new build (mkdocs serve): its own dictionaries
        jieba._llmbook_dictionaries.clear()
        return
    pending: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
    jieba._llmbook_deferred = pending
    jieba._llmbook_dictionaries = []  # what the key of kept entries names
    for name in ("set_dictionary", "load_userdict"):
        setattr(jieba, name, _deferred(getattr(jieba, name), pending, jieba))
    jieba.cut = _loading_first(jieba.cut, pending)


def _deferred(load: Callable[..., Any], pending: list, jieba: Any) -> Callable[..., Any]:
    @functools.wraps(load)
    def later(path: Any, *args: Any) -> None:
        jieba._llmbook_dictionaries.append([load.__name__, str(path), file_digest(str(path))])
        pending.append((load, (path, *args)))

    return later


def _loading_first(cut: Callable[..., Any], pending: list) -> Callable[..., Any]:
    import jieba

    @functools.wraps(cut)
    def cut_after_loading(*args: Any, **kwargs: Any) -> Any:
        known: Segments | None = getattr(jieba, "_llmbook_segments", None)
        run = args[0] if len(args) == 1 and not kwargs else None
        if known is not None and isinstance(run, bytes) and run in known.runs:
            return iter(known.runs[run])  # as segmented before, with these dictionaries
        while pending:
            load, args_ = pending.pop(0)
            load(*args_)
        words = list(cut(*args, **kwargs))
        if known is not None and isinstance(run, bytes):
            known.add(run, words)
        return iter(words)

    return cut_after_loading


class Segments:
    """How jieba segmented each run of Han characters (the search plugin cuts run by run): a
    page whose text changed is segmented again without loading jieba, but for its new runs."""

    def __init__(self, store: Store, dictionaries: list) -> None:
        self._memo = store.memo(_NAMESPACE, key(_FORMAT, "runs", version("jieba"), dictionaries))
        self._runs: dict[bytes, list[str]] | None = None  # read on the first cut: a warm build
        self._new = False  # whose pages all come from their kept entries cuts nothing

    @property
    def runs(self) -> dict[bytes, list[str]]:
        if self._runs is None:
            kept = self._memo.get() or {}
            self._runs = {k.encode("utf-8"): v for k, v in kept.items()}
        return self._runs

    def add(self, run: bytes, words: list[str]) -> None:
        self.runs[run] = words
        self._new = True

    def save(self) -> None:
        if self._new:
            self._memo.put({k.decode("utf-8"): v for k, v in self.runs.items()})
            self._new = False


def cache_search(plugin: Any, store: Store) -> None:
    """Keep what Material's search `plugin` indexes of each page in `store`, and how jieba
    segmented each run of Han characters (`save_segments` at the build's end)."""
    index = getattr(plugin, "search_index", None)
    if index is None or not store.enabled or hasattr(index, "_llmbook_cached"):
        return
    index._llmbook_cached = True
    try:
        import jieba
    except ImportError:
        pass
    else:
        jieba._llmbook_segments = Segments(store, getattr(jieba, "_llmbook_dictionaries", []))
    add = index.add_entry_from_context

    def add_once(page: Any) -> None:
        memo = store.memo(_NAMESPACE, _page_key(page))
        kept = memo.get()
        if kept is not None:
            index.entries.extend(kept)
            return
        before = len(index.entries)
        add(page)
        memo.put(index.entries[before:])

    index.add_entry_from_context = add_once


def save_segments() -> None:
    """Keep the runs this build segmented anew (the build's end)."""
    import sys

    jieba = sys.modules.get("jieba")
    known = getattr(jieba, "_llmbook_segments", None) if jieba is not None else None
    if known is not None:
        known.save()


def _page_key(page: Any) -> str:
    import sys

    jieba = sys.modules.get("jieba")  # the search plugin imports it where it is installed
    return key(
        _FORMAT,
        page.content,
        _toc(page.toc),
        page.url,
        page.title,
        {k: page.meta.get(k) for k in ("title", "tags", "search")},
        [version("mkdocs-material"), version("jieba"), getattr(jieba, "_llmbook_dictionaries", [])],
    )


def _toc(items: Any) -> list:
    return [[item.id, item.url, _toc(item.children)] for item in items or []]

"""Zensical pages kept converted between builds: a page none of whose inputs changed skips
Python-Markdown altogether; its HTML and table of contents come from the store.

Zensical renders every page again on `zensical build --clean` (it empties its own cache), with a
new Markdown instance per page. The render cache (render_cache.py) spares llmbook's pipeline, yet
Python-Markdown's own work (highlighting, the tree, the table of contents) was still most of a
warm build. So the extension, on each page's Markdown instance, wraps `convert` (the one call
Zensical makes of it): the conversion is kept under the render cache's key of the page (llmbook's
files, options, Markdown settings, the page's Markdown, place and execution results) plus
Zensical's and Pygments' versions; what else the render used (`Deps`) is checked as the render
cache checks it. A page served from the store does what its render would have done besides its
HTML: its figures are registered and written, its notebook is written into the site, its
metadata becomes its translation's (`site_for`).

What no key can see is left out, as under MkDocs (`cache_converted`): by default (`auto`) the
cache is on only when every Markdown extension of the site is one whose output depends on the
page and the settings alone (`pure_extensions.py`); a page whose conversion logged a warning is
never kept, so the warning comes back on every build; the live preview converts every page.
Zensical reads `md.toc_tokens` after `convert` (its `render`): they are kept with the HTML.
"""

from __future__ import annotations

import functools
import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

from markdown import Markdown
from mkdocs.plugins import get_plugin_logger

from llmbook.adapters.pure_extensions import unsafe_extensions
from llmbook.adapters.zensical.adapter import page_context
from llmbook.core.errors import LLMBookError
from llmbook.core.page_ref import PageRef
from llmbook.core.store import Slot, key, version
from llmbook.core.store_namespaces import CONVERTED
from llmbook.site.core_extension import LLMBookExtension
from llmbook.site.page_notebook import with_download
from llmbook.site.render_cache import Deps, edition_slot
from llmbook.site.site import Site

__all__ = ["ZensicalExtension", "convert"]

log = get_plugin_logger(__name__)

_FORMAT = 1
_LIBRARIES = ("zensical", "pygments")
_ENGINE = "zensical"  # its slots beside MkDocs' in the namespace: builds of both do not evict
_LOCK = threading.Lock()
_SITE_KEYS: dict[int, tuple[Site, str | None]] = {}  # id(site) → (site, its key; None: off)
_FIRST: weakref.WeakKeyDictionary[Any, Markdown] = weakref.WeakKeyDictionary()  # page → own md


class ZensicalExtension(LLMBookExtension):
    """The core extension as Zensical runs it: each page's conversion goes through `convert`."""

    def extendMarkdown(self, md: Markdown) -> None:
        super().extendMarkdown(md)
        # An instance attribute: Zensical's `render` calls `md.convert(content)` next.
        md.convert = functools.partial(convert, self, md, md.convert)  # type: ignore[method-assign]


def convert(
    extension: LLMBookExtension, md: Markdown, real: Callable[[str], str], text: str
) -> str:
    """The page's HTML: from the store when nothing it was made from changed, else `real(text)`,
    kept for the next build."""
    kept = _kept(extension, md, text)
    if kept is None:
        return real(text)
    site, page, slot, page_key = kept
    entry = slot.get(page_key)
    if entry is not None and _replayed(site, page, md, entry):
        return str(entry["content"])
    site.page_deps.pop(page.src, None)  # what this conversion's render depends on, below
    warned = _Warnings(threading.get_ident())
    loggers = [logging.getLogger("mkdocs"), logging.getLogger("MARKDOWN")]
    for logger in loggers:
        logger.addHandler(warned)
    try:
        with site.store.recording() as uses:
            html = real(text)
    finally:
        for logger in loggers:
            logger.removeHandler(warned)
    deps = site.page_deps.get(page.src)
    if not warned.count and deps is not None:  # else not kept: a warning comes back
        toc = {"toc_tokens": getattr(md, "toc_tokens", None), "toc": getattr(md, "toc", None)}
        slot.put(page_key, {"content": html, **toc, "deps": vars(deps), "uses": sorted(uses)})
    return html


def _kept(
    extension: LLMBookExtension, md: Markdown, text: str
) -> tuple[Site, PageRef, Slot, str] | None:
    """(the site, the page, its slot, its key) where the page's conversion may be kept; None
    where it may not (cache off, the live preview, another tool's Markdown inside the page)."""
    context = page_context(md)
    if context is None:
        return None
    try:
        site, page, translation = extension.context(md)
    except LLMBookError:
        return None  # the conversion meets the same error and reports it its way
    with _LOCK:
        if _FIRST.setdefault(context.page, md) is not md:
            return None  # not the page's own Markdown (mkdocstrings' docstrings)
        site_key = _site_key(site, context.config)
    render_key = site.converted_key(text if translation is None else translation, page)
    if site_key is None or render_key is None:
        return None
    slot_name = f"{edition_slot(page.src, site.project.translating)} [{_ENGINE}]"
    return site, page, site.store.slot(CONVERTED, slot_name), key(site_key, render_key, text)


def _site_key(site: Site, config: dict) -> str | None:
    """What every page's kept conversion keys on besides its render key; None where conversions
    are not kept (decided once per build, said once in the log)."""
    known = _SITE_KEYS.get(id(site))
    if known is not None and known[0] is site:
        return known[1]
    choice = site.options.get("cache_converted", "auto")
    unsafe = unsafe_extensions(list(config.get("markdown_extensions") or []))
    found: str | None = None
    if choice == "auto" and unsafe:
        log.info(
            "converted pages are not cached (cache_converted: auto): "
            f"{', '.join(unsafe)} may keep state a cached page would not give it"
        )
    elif choice != "off" and site.store.enabled and site.mode.caches_pages:
        versions = {name: version(name) for name in _LIBRARIES}
        found = key(_FORMAT, _ENGINE, site.render_cache_key(), versions)
    _SITE_KEYS[id(site)] = (site, found)
    return found


def _replayed(site: Site, page: PageRef, md: Markdown, entry: Any) -> bool:
    """Whether the kept conversion still holds; if so, what the page's render does besides its
    HTML is done (figures, notebook) and the table of contents set where Zensical reads it."""
    try:
        deps = Deps.from_json(entry["deps"])
        uses = [str(name) for name in entry["uses"]]
        str(entry["content"])
    except (KeyError, TypeError, ValueError):
        return False  # an entry of another shape: a miss
    if not site.replay_extras(page.src, deps):  # its figures registered, its deps the page's
        return False
    site.store.use_again(uses)  # its rendered page, formulas, demo frames: still needed
    site.replayed.append(page.src)
    with_download(site, page, "", lambda html: html)  # its notebook, written into the site
    for name in ("toc_tokens", "toc"):
        if entry.get(name) is not None:
            setattr(md, name, entry[name])
    return True


class _Warnings(logging.Handler):
    """Counts the warnings of one thread (Zensical may convert pages on several)."""

    def __init__(self, thread: int) -> None:
        super().__init__(logging.WARNING)
        self.thread = thread
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread == self.thread:
            self.count += 1

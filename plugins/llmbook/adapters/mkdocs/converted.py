"""MkDocs pages kept converted between builds: a page none of whose inputs changed skips
Python-Markdown altogether; its HTML, table of contents, title and anchors come from the cache.

The render cache (render_cache.py) keeps what the extension hands Python-Markdown. Converting the
rest (highlighting the code, building the tree and the table of contents) was still most of a
warm build of a large book. This cache is one step later and belongs to the MkDocs adapter: only
MkDocs' `Page` knows what a conversion leaves besides the HTML (the toc, the title, the anchors
the page holds and the links it makes to other pages' anchors, which MkDocs validates after all
pages are rendered).

The key is the render cache's (llmbook's files, options, Markdown settings, library versions,
the page's Markdown, place and execution results; what else the render used is checked as its
`Deps`) plus the site's files and URLs, the link validation settings and the highlighter's
version. What no key can see is left out: the cache
is on only when every Markdown extension and plugin of the site is one whose output depends on the
page's Markdown and the site's files alone (a snippet include or an autorefs anchor map is state
from elsewhere); the `cache_converted` option says otherwise. A page whose conversion logged a
warning is never kept, so the warning (and `--strict`) comes back on every build.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from llmbook.adapters.pure_extensions import unsafe_extensions
from llmbook.core.store import Store, key, version
from llmbook.core.store_namespaces import CONVERTED
from llmbook.site.render_cache import Deps, edition_slot

__all__ = ["ConvertedPages", "WarningCount", "converted_site_key", "unsafe_parts"]

_FORMAT = 3  # 2: entries in the store, what the render depended on as `deps`; 3: its demos
NAMESPACE = CONVERTED
_LIBRARIES = ("pygments", "mkdocs-material")

# Plugins that keep no state of what a page's conversion saw.
SAFE_PLUGINS = frozenset(
    {"search", "offline", "material/search", "material/offline", "llmbook", "tags"}
)


def unsafe_parts(config: Any) -> list[str]:
    """The extensions and plugins of the site that keep the cache off (none: it may be on)."""
    unsafe = unsafe_extensions(config["markdown_extensions"])
    unsafe += [name for name in config["plugins"] if name not in SAFE_PLUGINS]
    return unsafe


def converted_site_key(site_key: str, config: Any, files: Files) -> str:
    """What every converted page keys on: the render cache's site key (`site_key`), the site's
    files and URLs, the link validation settings, the highlighter's and theme's versions."""
    listing = sorted((f.src_uri, f.url, str(f.inclusion)) for f in files)
    parts = {
        "format": _FORMAT,
        "site": site_key,
        "files": listing,
        "validation": repr(config.get("validation")),
        "versions": {name: version(name) for name in _LIBRARIES},
    }
    return key(parts)


class ConvertedPages:
    """Converted pages in the store's "converted" namespace, one slot per page."""

    def __init__(
        self, store: Store, site_key: str, config: Any, files: Files, edition: str = ""
    ) -> None:
        self._store = store
        # A translating build's pages have slots of their own: the two builds alternate.
        self._edition = edition
        self._site = converted_site_key(site_key, config, files)

    def key(self, page_key: str) -> str:
        return key(self._site, page_key)

    def prepare(
        self,
        page: Page,
        src: str,
        page_key: str,
        still_valid: Callable[[Deps], bool],
        made: Callable[[], Deps | None],
        render: Callable[[Page, Any, Files], None] = Page.render,
    ) -> bool:
        """Make `page.render` the cached conversion (True) or the real one (`render`: MkDocs'
        own, or section by section), kept afterwards.

        `still_valid(deps)`: whether the figures and site-index answers the entry's render
        depended on still hold; `made()`: what the render that just ran depended on (None: the
        page was not rendered through the site's render cache, so nothing is kept)."""
        entry = self._store.slot(NAMESPACE, edition_slot(src, self._edition)).get(page_key)
        deps = _deps(entry)
        if entry is not None and deps is not None and still_valid(deps):
            # An instance attribute: MkDocs calls `page.render(config, files)` next.
            page.render = functools.partial(self._replay, page, entry)  # type: ignore[method-assign]
            self._store.use_again(entry.get("uses", []))  # its rendered page, formulas, demos
            return True
        convert = functools.partial(self._convert, page, src, page_key, made, render)
        page.render = convert  # type: ignore[method-assign]
        return False

    def _replay(self, page: Page, entry: dict, config: Any, files: Files) -> None:
        page.content = entry["content"]
        page.toc = get_toc(entry["toc"])
        page._title_from_render = entry["title"]
        page.present_anchor_ids = set(entry["anchors"])
        if logging.getLogger("mkdocs").getEffectiveLevel() > logging.DEBUG:
            links = {}
            for uri, anchors in entry["links"].items():
                target = files.get_file_from_path(uri)
                if target is not None:
                    links[target] = dict(anchors)
            page.links_to_anchors = links

    def _convert(
        self,
        page: Page,
        src: str,
        page_key: str,
        made: Callable[[], Deps | None],
        render: Callable[[Page, Any, Files], None],
        config: Any,
        files: Files,
    ) -> None:
        warned = WarningCount()
        loggers = [logging.getLogger("mkdocs"), logging.getLogger("MARKDOWN")]
        for logger in loggers:
            logger.addHandler(warned)
        try:
            with self._store.recording() as uses:
                render(page, config, files)
        finally:
            for logger in loggers:
                logger.removeHandler(warned)
        deps = made()
        if warned.count or deps is None:
            return  # not kept: the warning must come back on the next build
        entry = {
            "content": page.content,
            "toc": [_token(item) for item in page.toc],
            "title": page._title_from_render,
            "anchors": sorted(page.present_anchor_ids or ()),
            "links": {
                target.src_uri: anchors for target, anchors in (page.links_to_anchors or {}).items()
            },
            "deps": vars(deps),
            "uses": sorted(uses),
        }
        self._store.slot(NAMESPACE, edition_slot(src, self._edition)).put(page_key, entry)


def _deps(entry: Any) -> Deps | None:
    """What a kept conversion's render depended on; None for an entry of another shape."""
    try:
        return Deps.from_json(entry["deps"])
    except (KeyError, TypeError, ValueError):
        return None


def _token(item: Any) -> dict:
    """A toc entry as the Python-Markdown token `get_toc` reads."""
    return {
        "level": item.level,
        "id": item.id,
        "name": item.title,
        "children": [_token(child) for child in item.children],
    }


class WarningCount(logging.Handler):
    """Counts the warnings logged while it is attached (a page that warned is not kept)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1

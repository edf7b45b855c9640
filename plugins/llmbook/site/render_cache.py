"""Rendered pages kept between builds: a page whose inputs did not change is not rendered again.

What the page pipeline hands the engine (the Markdown with stash placeholders, and the HTML pieces
behind them) is stored under a key of every input that can change it: the page's Markdown and
place (path, URL), its execution results, the llmbook options and the site's Markdown settings,
llmbook's own files and the versions of the libraries that write HTML. No package of a book is
in it: what a page's code used is in its execution results' key, and what else the render used
(`Deps`: the site-index entries it read for `:::related`, the figures it linked, the glossary
entries and citations it showed, the code key of each demo it showed) is stored with it: the
entry is stale when any lookup now answers differently, a figure is no longer among the page's
results or a demo is drawn by other code; the figures are registered again on replay.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from llmbook.execute.stages.cache import result_digest
from llmbook.core.render_deps import Deps
from llmbook.core.store import Store, key, llmbook_hash, version
from llmbook.core.store_namespaces import PAGES

__all__ = [
    "Deps",
    "RenderCache",
    "Rendered",
    "edition_slot",
    "llmbook_hash",
    "replay",
    "result_digest",
]

_FORMAT = 6  # 2: entries in the store, what the page depended on as `deps`; 3: references;
# 4: glossary terms; 5: citations; 6: the demos shown (no package of a book in the key)
NAMESPACE = PAGES
_LIBRARIES = ("markdown", "pymdown-extensions", "latex2mathml", "mkdocs", "matplotlib")


@dataclass
class Rendered:
    """One page as the pipeline left it."""

    markdown: str  # what the engine converts, with placeholders of the stash items below
    base: int  # how many items the stash held before the page put its own
    pieces: list[str] = field(default_factory=list)  # the HTML the page stashed, in order
    deps: Deps = field(default_factory=Deps)
    uses: list[str] = field(default_factory=list)  # the store entries its render read


class RenderCache:
    """Rendered pages in the store's "pages" namespace, one slot per page."""

    def __init__(self, store: Store, site_inputs: Mapping[str, Any], edition: str = "") -> None:
        self._store = store
        # A translating build's pages have slots of their own: the two builds alternate.
        self._edition = edition
        parts = {
            "format": _FORMAT,
            "llmbook": llmbook_hash(),
            "versions": {name: version(name) for name in _LIBRARIES},
            **site_inputs,
        }
        self.site_key = key(parts)

    def key(
        self, *, src: str, url: str, page_key: str, markdown: str, result: str, base: int
    ) -> str:
        return key(self.site_key, src, url, page_key, result, base, markdown)

    def load(self, src: str, page_key: str) -> Rendered | None:
        """The entry for `page_key` (the caller checks what it depended on)."""
        data = self._store.slot(NAMESPACE, edition_slot(src, self._edition)).get(page_key)
        try:
            return Rendered(
                str(data["markdown"]),
                int(data["base"]),
                [str(piece) for piece in data["pieces"]],
                Deps.from_json(data["deps"]),
                [str(name) for name in data.get("uses", [])],
            )
        except (KeyError, TypeError, ValueError):
            return None  # a miss, or a whole entry of another shape

    def store(self, src: str, page_key: str, entry: Rendered) -> None:
        data = {**vars(entry), "deps": vars(entry.deps)}
        self._store.slot(NAMESPACE, edition_slot(src, self._edition)).put(page_key, data)


def edition_slot(src: str, edition: str) -> str:
    """A page's slot name in a cache both editions fill: a translating build's (`edition`, its
    language) are its own, so the editions built in turn do not evict each other's."""
    return f"{src} ({edition})" if edition else src


def replay(entry: Rendered, put: Callable[[str], str]) -> str:
    """Put the entry's pieces into the stash (at the same indices: the base is in the key)."""
    for piece in entry.pieces:
        put(piece)
    return entry.markdown

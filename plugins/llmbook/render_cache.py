"""Rendered pages kept between builds: a page whose inputs did not change is not rendered again.

What the page pipeline hands the engine (the Markdown with stash placeholders, and the HTML pieces
behind them) is stored under a key of every input that can change it: the page's Markdown and
place (path, URL), its execution results, the llmbook options and the site's Markdown settings,
llmbook's own files, llmkit's (demos compute with it) and the versions of the libraries that write
HTML. The site-index entries a page read (`:::related`) are stored with it and looked up again:
the entry is stale when any of them now answers differently. Figures the page linked are named in
the entry and registered again on replay.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llmbook.execute.cache import (
    entry_path,
    json_digest,
    llmbook_hash,
    llmkit_hash,
    read_json,
    result_digest,
    version,
    write_json_atomic,
)

__all__ = ["RenderCache", "Rendered", "llmbook_hash", "replay", "result_digest"]

_FORMAT = 1
_LIBRARIES = ("markdown", "pymdown-extensions", "latex2mathml", "mkdocs", "matplotlib")


@dataclass
class Rendered:
    """One page as the pipeline left it."""

    markdown: str  # what the engine converts, with placeholders of the stash items below
    base: int  # how many items the stash held before the page put its own
    pieces: list[str] = field(default_factory=list)  # the HTML the page stashed, in order
    figures: list[str] = field(default_factory=list)  # site paths of the figures it linked
    lookups: list[list[str]] = field(default_factory=list)  # [name, title, url] it looked up


class RenderCache:
    """Rendered pages under `root/pages`, one file per page, holding the key it was made for."""

    def __init__(self, root: str | Path, site_inputs: Mapping[str, Any]) -> None:
        self.root = Path(root) / "pages"
        parts = {
            "format": _FORMAT,
            "llmbook": llmbook_hash(),
            "llmkit": llmkit_hash(),
            "versions": {name: version(name) for name in _LIBRARIES},
            **site_inputs,
        }
        self.site_key = json_digest(parts)

    def key(
        self, *, src: str, url: str, page_key: str, markdown: str, result: str, base: int
    ) -> str:
        parts = [self.site_key, src, url, page_key, result, str(base), markdown]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def _path(self, src: str) -> Path:
        return entry_path(self.root, src)

    def load(self, src: str, key: str) -> Rendered | None:
        """The entry for `key` (the caller checks the site-index answers it used)."""
        data = read_json(self._path(src))
        try:
            if data["key"] != key:
                return None
            entry = Rendered(**data["rendered"])
        except (KeyError, TypeError):
            return None
        return entry

    def store(self, src: str, key: str, entry: Rendered) -> None:
        write_json_atomic(self._path(src), {"key": key, "src": src, "rendered": vars(entry)})


def replay(entry: Rendered, put: Callable[[str], str]) -> str:
    """Put the entry's pieces into the stash (at the same indices: the base is in the key)."""
    for piece in entry.pieces:
        put(piece)
    return entry.markdown

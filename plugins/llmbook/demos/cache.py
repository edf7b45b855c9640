"""On-disk cache of rendered demo frames, in a `demos/` folder of the executor's cache directory.

A frame (figure SVG + widget with its grid of llmkit values) costs seconds and the import of torch;
it depends only on what the key covers: the demo's ID, the author's title and description HTML, the
source of the demo's module and of the shared modules it draws with, llmkit's source, and the
Python and torch versions. A warm build therefore imports neither the demo modules nor torch.
Entries are written atomically; an unreadable or foreign entry is treated as missing.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

from llmbook import demos
from llmbook.demos.catalog import MODULES
from llmbook.execute.cache import json_digest, llmkit_hash, read_json, version, write_json_atomic

__all__ = ["DemoCache", "frame_key", "source_paths", "sources_digest"]

_FORMAT = 1
# Modules every frame is drawn with, besides the demo's own.
_SHARED = (
    "llmbook.demos.base",
    "llmbook.demos.svg",
    "llmbook.demos.layout",
    "llmbook.demos.controls",
)


def source_paths(demo_id: str) -> list[Path]:
    """The files whose source shapes the demo's frame, found without importing the demo."""
    paths = []
    for module in (MODULES[demo_id], *_SHARED):
        spec = find_spec(module)
        if spec is None or not spec.origin:
            raise RuntimeError(f"cannot find the source of {module}")
        paths.append(Path(spec.origin))
    return paths


def sources_digest(paths: Iterable[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def frame_key(demo_id: str, title: str, description_html: str, *, sources: str, llmkit: str) -> str:
    parts = {
        "format": _FORMAT,
        "id": demo_id,
        "title": title,
        "description": description_html,
        "sources": sources,
        "llmkit": llmkit,
        "python": sys.version,
        "torch": version("torch"),
    }
    return json_digest(parts)


class DemoCache:
    """Frames stored under `root/demos`, one file per (demo, title, description), for one build."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root) / "demos"
        self._llmkit: str | None = None
        self._sources: dict[str, str] = {}
        self.hits = 0
        self.misses = 0

    def key(self, demo_id: str, title: str, description_html: str) -> str:
        if self._llmkit is None:
            self._llmkit = llmkit_hash()
        if demo_id not in self._sources:
            self._sources[demo_id] = sources_digest(source_paths(demo_id))
        return frame_key(
            demo_id, title, description_html, sources=self._sources[demo_id], llmkit=self._llmkit
        )

    def _path(self, demo_id: str, title: str, description_html: str) -> Path:
        where = json.dumps([demo_id, title, description_html]).encode()
        return self.root / f"{demo_id}-{hashlib.sha256(where).hexdigest()[:24]}.json"

    def render(self, demo_id: str, title: str, description_html: str) -> str:
        """The frame `demos.get_demo(demo_id).render_html(title, description_html)` returns."""
        key = self.key(demo_id, title, description_html)
        path = self._path(demo_id, title, description_html)
        data = read_json(path)
        if isinstance(data, dict) and data.get("key") == key and isinstance(data.get("html"), str):
            self.hits += 1
            return data["html"]
        demo = demos.get_demo(demo_id)
        if demo is None:
            raise KeyError(demo_id)
        frame = demo.render_html(title, description_html)
        self.misses += 1
        write_json_atomic(path, {"key": key, "id": demo_id, "html": frame})
        return frame

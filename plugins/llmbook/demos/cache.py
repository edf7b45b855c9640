"""Rendered demo frames kept between builds: the "demos" namespace of the build's store.

A frame (figure SVG + widget with its grid of llmkit values) costs seconds and the import of torch;
it depends only on what the key covers: the demo's ID, the language it writes in, the author's title
and description HTML, the source of the demo's module and of the shared modules it draws with,
llmkit's source, and the Python and torch versions. A warm build therefore imports neither the demo
modules nor torch. One slot per (demo, language, title, description), so the Chinese and the
English edition keep their frames side by side; the store writes atomically and verifies what it
reads.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

from llmbook import demos
from llmbook.demos.catalog import MODULES
from llmbook.store import Store, file_digest, key, llmkit_hash, version

__all__ = ["DemoCache", "frame_key", "source_paths", "sources_digest"]

_FORMAT = 2  # 2: entries in the store
NAMESPACE = "demos"
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
    """The names and contents of the demo's source files, as one key."""
    return key([[path.name, file_digest(path)] for path in paths])


def frame_key(
    demo_id: str,
    title: str,
    description_html: str,
    *,
    language: str,
    sources: str,
    llmkit: str,
) -> str:
    parts = {
        "format": _FORMAT,
        "id": demo_id,
        "language": language,
        "title": title,
        "description": description_html,
        "sources": sources,
        "llmkit": llmkit,
        "python": sys.version,
        "torch": version("torch"),
    }
    return key(parts)


class DemoCache:
    """Frames in the store's "demos" namespace, one slot per (demo, language, title, description)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._llmkit: str | None = None
        self._sources: dict[str, str] = {}

    def key(self, demo_id: str, title: str, description_html: str, language: str) -> str:
        if self._llmkit is None:
            self._llmkit = llmkit_hash()
        if demo_id not in self._sources:
            self._sources[demo_id] = sources_digest(source_paths(demo_id))
        return frame_key(
            demo_id,
            title,
            description_html,
            language=language,
            sources=self._sources[demo_id],
            llmkit=self._llmkit,
        )

    def render(self, demo_id: str, title: str, description_html: str, language: str) -> str:
        """The frame `demos.get_demo(demo_id, language).render_html(title, description_html)`
        returns."""
        wanted = self.key(demo_id, title, description_html, language)
        name = key(demo_id, language, title, description_html)
        slot = self._store.slot(NAMESPACE, name, codec="text")
        frame = slot.get(wanted)
        if frame is not None:
            return frame
        demo = demos.get_demo(demo_id, language)
        if demo is None:
            raise KeyError(demo_id)
        frame = demo.render_html(title, description_html)
        slot.put(wanted, frame)
        return frame

"""The build's demos: the book's catalog, and their rendered frames kept between builds in the
"demos" namespace of the build's store.

A frame (figure SVG + widget with its grid of computed values) costs seconds and the import of
what the demo computes with (torch, say); it depends only on what the key covers: the demo's ID,
the language it writes in, the author's title and description HTML, and its code (`code_key`):
the plugin's modules every demo draws with, the source of the packages of the demo's module and
of the module that registered it, each package its registration says it computes with (`DEPENDS`:
the source of one in a source tree, the version of an installed one), and Python's version. A warm
build therefore imports neither the demo modules nor what they compute with. One slot per (demo,
language, title, description), so the editions keep their frames side by side; the store writes
atomically and verifies what it reads.

A page's render records the code key of each demo it shows (`recording`): a page kept by the
render cache is rendered again when one of them changed (`still_current`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from importlib.util import find_spec
from pathlib import Path

from llmbook.core.i18n import Locale
from llmbook.core.project import Project
from llmbook.core.store import Store, file_digest, key, package_hash
from llmbook.core.store_namespaces import DEMOS
from llmbook.demos.catalog import DemoCatalog

__all__ = ["DemoFrames", "frame_key", "shared_paths", "sources_digest"]

_FORMAT = 3  # 2: entries in the store; 3: keyed on the demo's packages, not on one by name
NAMESPACE = DEMOS
# The plugin's modules every frame is drawn with, besides the book's own.
_SHARED = (
    "llmbook.demos.base",
    "llmbook.demos.svg",
    "llmbook.demos.layout",
    "llmbook.demos.controls",
)


def shared_paths() -> list[Path]:
    """The plugin's files whose source shapes every demo's frame, found without importing them."""
    paths = []
    for module in _SHARED:
        spec = find_spec(module)
        if spec is None or not spec.origin:
            raise RuntimeError(f"cannot find the source of {module}")
        paths.append(Path(spec.origin))
    return paths


def sources_digest(paths: Iterable[Path]) -> str:
    """The names and contents of source files, as one key."""
    return key([[path.name, file_digest(path)] for path in paths])


def frame_key(demo_id: str, title: str, description_html: str, *, locale: Locale, code: str) -> str:
    parts = {
        "format": _FORMAT,
        "id": demo_id,
        "locale": locale.digest,  # its words, the book's own and the plugin's
        "title": title,
        "description": description_html,
        "code": code,
    }
    return key(parts)


@dataclass
class DemoFrames:
    """The book's demos (`catalog`) and their frames in the store's "demos" namespace (a store
    switched off keeps nothing: every frame is drawn)."""

    catalog: DemoCatalog
    store: Store = field(default_factory=lambda: Store(None))
    _codes: dict[str, str] = field(default_factory=dict)  # per build: sources do not change
    _packages: dict[str, str] = field(default_factory=dict)  # per build: each hashed once
    _record: list[list[str]] | None = None  # where a page's render notes the demos it showed

    @classmethod
    def of_book(cls, modules: Sequence[str], project: Project, store: Store) -> DemoFrames:
        """The demos of the modules the `demos` option names (errors at its line of the config)."""
        catalog = DemoCatalog.load(modules, root=project.root, config_file=project.config_file)
        return cls(catalog, store)

    def known_ids(self) -> list[str]:
        return self.catalog.known_ids()

    def recording(self, into: list[list[str]]) -> DemoFrames:
        """The same demos, noting `[ID, code key]` of each frame rendered into `into`."""
        return replace(self, _record=into)

    def still_current(self, recorded: Iterable[list[str]]) -> bool:
        """Whether every demo a kept page showed has the code key it had then."""
        return all(self.code_key(demo_id) == code for demo_id, code in recorded)

    def code_key(self, demo_id: str) -> str:
        """What the demo's frame is drawn by (see the module's docstring), as one key."""
        if demo_id not in self._codes:
            entry = self.catalog.entries.get(demo_id)
            if entry is None:
                return "unknown"
            parts = {
                "shared": sources_digest(shared_paths()),
                "packages": {name: self._package(name) for name in entry.packages},
                "depends": {name: self._package(name) for name in entry.depends},
                "python": sys.version,
            }
            self._codes[demo_id] = key(parts)
        return self._codes[demo_id]

    def _package(self, name: str) -> str:
        """A package's code key, hashed once per build though many demos use it."""
        if name not in self._packages:
            self._packages[name] = package_hash(name)
        return self._packages[name]

    def render(self, demo_id: str, title: str, description_html: str, locale: Locale) -> str:
        """The frame `catalog.demo(demo_id, locale).render_html(title, description_html)`
        returns, from the store when it holds it. KeyError for an unknown ID; DemoError (or
        DemoNeeds) from the catalog."""
        if demo_id not in self.catalog.entries:
            raise KeyError(demo_id)
        code = self.code_key(demo_id)
        if self._record is not None:
            self._record.append([demo_id, code])
        wanted = frame_key(demo_id, title, description_html, locale=locale, code=code)
        name = key(demo_id, locale.code, title, description_html)
        slot = self.store.slot(NAMESPACE, name, codec="text")
        frame = slot.get(wanted)
        if frame is not None:
            return frame
        demo = self.catalog.demo(demo_id, locale)
        assert demo is not None  # in the catalog
        frame = demo.render_html(title, description_html)
        slot.put(wanted, frame)
        return frame

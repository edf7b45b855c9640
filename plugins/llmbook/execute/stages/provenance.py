"""What computed a page: the distributions its code imported, with their versions, Python, the
platform, when it ran and for how long. Recorded with its results and shown on the page.

In the page's process (worker.py) the top-level modules the page imported are found: the imports
written in its blocks and the preamble, the modules new in `sys.modules` since the page started,
and those named by the `import` statements of the page's code and of the modules it loaded (the
forkserver preloaded torch and NumPy: a book's package importing torch loads nothing new), less the
standard library and llmbook (deps.UseRecorder sees the imports). The build maps them to
distributions once per build (`Distributions`: `packages_distributions()` reads every installed
distribution's file list, about 0.4 s, so it runs in a thread beside the running pages rather
than in each) and reads each version from its `.dist-info` folder's name once; a cached result
whose recorded distribution has another version now, or is gone, is stale.
"""

from __future__ import annotations

import ast
import os
import re
import sys
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Distributions", "Record", "page_record", "static_imports"]

_OWN = frozenset({"llmbook", "__main__"})  # the machinery that runs the page


@dataclass
class Record:
    """What computed a page's results (kept with them in the results cache)."""

    python: str  # "CPython 3.11.7"
    platform: str  # platform.platform()
    computed: str  # when the page ran, UTC, ISO 8601 to the second
    seconds: float  # the page's run time
    modules: list[str] = field(default_factory=list)  # top-level modules the page imported
    distributions: dict[str, str] = field(default_factory=dict)  # {distribution: version}


def static_imports(sources: Iterable[str]) -> set[str]:
    """The top-level modules named by the `import` statements of `sources` (code that does not
    parse, an IPython magic, is read as far as nothing: its imports run and are seen anyway)."""
    found: set[str] = set()
    for source in sources:
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return found


def page_record(sources: Iterable[str], new_modules: Iterable[str], seconds: float) -> Record:
    """The page's record, made in its process after it ran: `sources`, its code and preamble;
    `new_modules`, the names in `sys.modules` that were not there when it started."""
    import platform  # here, in the page's process: a build that runs no page never needs it
    from datetime import datetime, timezone

    names = static_imports(sources) | {name.split(".")[0] for name in new_modules}
    stdlib = getattr(sys, "stdlib_module_names", frozenset())
    modules = sorted(n for n in names if n and n not in stdlib and n not in _OWN)
    return Record(
        python=f"{platform.python_implementation()} {platform.python_version()}",
        platform=platform.platform(),
        computed=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        seconds=round(seconds, 3),
        modules=modules,
    )


class Distributions:
    """The installed distributions as this build sees them: which one a module comes from (read
    once, in a thread, only when a page runs) and each one's version (looked up once)."""

    def __init__(self) -> None:
        self._versions: dict[str, str | None] = {}
        self._index: dict[str, str] | None = None
        self._owners: Mapping[str, list[str]] | None = None
        self._thread: threading.Thread | None = None

    def prepare(self) -> None:
        """Start reading the module → distribution map (pages are about to run)."""
        if self._owners is None and self._thread is None:
            self._thread = threading.Thread(target=self._read_owners, daemon=True)
            self._thread.start()

    def _read_owners(self) -> None:
        from importlib.metadata import packages_distributions

        self._owners = packages_distributions()

    def version(self, name: str) -> str | None:
        """The installed version of distribution `name`; None where it is not installed."""
        if name not in self._versions:
            found = self._folders().get(_normal(name))
            self._versions[name] = found if found is not None else _metadata_version(name)
        return self._versions[name]

    def _folders(self) -> dict[str, str]:
        """{normalised name: version} of the `NAME-VERSION.dist-info` folders on `sys.path`, the
        first of a name winning as in importlib.metadata: one listing per folder, where a
        lookup by importlib.metadata costs about a millisecond a distribution."""
        if self._index is None:
            index: dict[str, str] = {}
            for entry in sys.path:
                try:
                    names = os.listdir(entry or ".")
                except OSError:
                    continue
                for folder in names:
                    if folder.endswith(".dist-info"):
                        dist, _, version = folder[: -len(".dist-info")].partition("-")
                        if version:
                            index.setdefault(_normal(dist), version)
            self._index = index
        return self._index

    def changed(self, recorded: Mapping[str, str]) -> list[str]:
        """The distributions of `recorded` with another version now, or gone."""
        return [name for name, v in recorded.items() if self.version(name) != v]

    def of_modules(self, modules: Iterable[str]) -> dict[str, str]:
        """{distribution: version} of the distributions `modules` come from (llmbook left out:
        it runs the page; a module beside the page belongs to none)."""
        self.prepare()
        if self._thread is not None:
            self._thread.join()
        owners = self._owners or {}
        found: dict[str, str] = {}
        for module in modules:
            for name in owners.get(module, ()):
                installed = self.version(name)
                if installed is not None and name.lower() != "llmbook":
                    found[name] = installed
        return dict(sorted(found.items(), key=lambda item: item[0].lower()))


def _normal(name: str) -> str:
    """A distribution's name as PEP 503 compares it (`PyYAML`, `pyyaml`; `typing_extensions`,
    `typing-extensions`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _metadata_version(name: str) -> str | None:
    """importlib.metadata's answer, for a distribution without a `.dist-info` folder (an egg)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return None

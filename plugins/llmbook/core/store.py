"""One store for every cache of a build: one folder, one switch, one key recipe, one file hasher.

A cache is a namespace of the store (a folder under its root), holding entries of two kinds:

- a slot (`Store.slot(namespace, name)`): one entry per name (a page), holding the key it was made
  for; reading it with another key is a miss, writing it replaces the entry;
- a memo (`Store.memo(namespace, key)`): an entry named by its key (content-addressed).

Every entry is one file: a JSON header line (the store's format, the value's codec, the key and the
SHA-256 of the payload), then the payload. Writes are atomic (a temp file and a rename), and reads
verify the header and the payload digest, so a torn, truncated, tampered or foreign file is a miss
and is written again, never served. The store counts hits and misses per namespace; the build
logs them in one line (`Store.summary`). `Store(None)` is the store switched off: every read
misses, nothing is written. A namespace is one declared in store_namespaces.py (any other is
a bug of ours). The store remembers the entries a build read or wrote (`Store.used`), which
store_builds.py records when the build finishes, for `llmbook cache prune`. This module imports
only store_namespaces from llmbook: every layer may use it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from llmbook.core.store_namespaces import NAMESPACES

__all__ = [
    "Entry",
    "Memo",
    "Slot",
    "Store",
    "bytes_digest",
    "cache_folder",
    "file_digest",
    "file_stamp",
    "key",
    "llmbook_hash",
    "open_store",
    "package_hash",
    "switched_off",
    "read_entry",
    "tree_digest",
    "version",
    "write_atomic",
]

FORMAT = 1  # of the entry files; another format is a foreign entry (a miss)

# How a value becomes the payload of an entry and back, by codec name (also the file suffix).
_CODECS: dict[str, tuple[Callable[[Any], bytes], Callable[[bytes], Any]]] = {
    "json": (
        lambda value: json.dumps(value, ensure_ascii=False).encode("utf-8"),
        lambda data: json.loads(data.decode("utf-8")),
    ),
    "text": (lambda value: value.encode("utf-8"), lambda data: data.decode("utf-8")),
    "bytes": (bytes, bytes),
    # Only for objects JSON cannot hold (the stage cache's parsed pages).
    "pickle": (
        lambda value: pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL),
        pickle.loads,
    ),
}


def key(*parts: Any) -> str:
    """The one key recipe: the SHA-256 of `parts` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(parts, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def bytes_digest(data: bytes) -> str:
    """The SHA-256 of `data` (content-addressed names: figures, checked files)."""
    return hashlib.sha256(data).hexdigest()


def file_digest(path: str | os.PathLike[str]) -> str:
    """The one file hasher: the SHA-256 of a file's content; "missing" when it cannot be read."""
    try:
        return bytes_digest(Path(path).read_bytes())
    except OSError:
        return "missing"


def file_stamp(path: str | os.PathLike[str]) -> str:
    """A file's cheap key, "stat:SIZE:MTIME_NS", read without opening it (for installed files
    too large to read on every build); "missing" when it is gone."""
    try:
        info = os.stat(path)
    except OSError:
        return "missing"
    return f"stat:{info.st_size}:{info.st_mtime_ns}"


def tree_digest(root: Path, pattern: str) -> str:
    """The names and contents of the files under `root` matching `pattern`, as one key."""
    files = [
        [path.relative_to(root).as_posix(), file_digest(path)]
        for path in sorted(root.rglob(pattern))
        if path.is_file() and "__pycache__" not in path.parts
    ]
    return key(files)


# Folders that only installed packages live in.
_INSTALLED = frozenset({"site-packages", "dist-packages"})


def package_hash(name: str) -> str:
    """A top-level package's (or module's) code as one key, found without importing it: one in a
    source tree (a book's own, an editable install) by the content of its Python files, an
    installed one (in site-packages or dist-packages) by its distribution's version, which is
    cheaper to read and changes with it; "missing" when there is none."""
    from importlib.util import find_spec

    try:
        spec = find_spec(name)
    except (ImportError, ValueError):  # a name no import could find, or a module without spec
        return "missing"
    if spec is None or not (spec.submodule_search_locations or spec.has_location):
        return "missing"
    where = (
        Path(next(iter(spec.submodule_search_locations)))
        if spec.submodule_search_locations
        else Path(str(spec.origin))
    )
    if _INSTALLED.intersection(where.parts) and version(name) != "none":
        return f"version {version(name)}"
    return tree_digest(where, "*.py") if where.is_dir() else file_digest(where)


@functools.cache  # llmbook's own files do not change while a build runs
def llmbook_hash() -> str:
    """Every file of the llmbook package (code, assets, data) as one key."""
    return tree_digest(Path(__file__).resolve().parents[1], "*")


@functools.cache  # installed versions do not change while a process runs
def version(dist: str) -> str:
    """An installed distribution's version (a key part), read without importing it ("none" when
    it is not installed)."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` through a temp file and a rename: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@dataclass(frozen=True)
class Entry:
    """What a verified entry file holds."""

    key: str
    codec: str
    value: Any


def read_entry(path: Path) -> Entry | None:
    """The entry at `path`, or None when it is missing, torn, tampered with or foreign."""
    try:
        data = path.read_bytes()
        head, _, payload = data.partition(b"\n")
        header = json.loads(head)
        if header["store"] != FORMAT or header["digest"] != bytes_digest(payload):
            return None
        codec = str(header["codec"])
        return Entry(str(header["key"]), codec, _CODECS[codec][1](payload))
    except Exception:  # unreadable, not ours, or a value this version cannot decode: a miss
        return None


def _write_entry(path: Path, key: str, codec: str, value: Any) -> None:
    payload = _CODECS[codec][0](value)  # before any file is touched: a bad value writes nothing
    header = {"store": FORMAT, "codec": codec, "key": key, "digest": bytes_digest(payload)}
    write_atomic(path, json.dumps(header).encode() + b"\n" + payload)


class Slot:
    """One name's entry in a namespace, checked against the key it was made for."""

    def __init__(self, store: Store, namespace: str, path: Path | None, codec: str) -> None:
        self._store, self.namespace, self.path, self.codec = store, namespace, path, codec

    def get(self, key: str) -> Any | None:
        """The value stored for `key`; None (a miss) for any other key or a broken file."""
        self._store.use(self.path)
        entry = read_entry(self.path) if self.path is not None else None
        hit = entry is not None and entry.key == key and entry.codec == self.codec
        self._store.count(self.namespace, hit=hit)
        if entry is None and self.path is not None and self.path.exists():
            self._store.damaged.setdefault(self.namespace, 0)
            self._store.damaged[self.namespace] += 1  # torn, tampered or foreign: computed again
        return entry.value if hit else None  # type: ignore[union-attr]

    def put(self, key: str, value: Any) -> None:
        self._store.use(self.path)
        if self.path is not None:
            _write_entry(self.path, key, self.codec, value)


class Memo:
    """A content-addressed entry: its file is named by its key."""

    def __init__(self, slot: Slot, key: str) -> None:
        self._slot, self.key = slot, key

    def get(self) -> Any | None:
        return self._slot.get(self.key)

    def put(self, value: Any) -> None:
        self._slot.put(self.key, value)


class Store:
    """The build's caches under `root`, one folder per namespace; `Store(None)` is off."""

    def __init__(self, root: str | os.PathLike[str] | None) -> None:
        self.root = Path(root) if root is not None else None
        self.counts: dict[str, list[int]] = {}  # namespace → [hits, misses] of this build
        self.damaged: dict[str, int] = {}  # namespace → entries found broken (read as misses)
        # The entries this build read or wrote, as "namespace/file": what it needs kept.
        self.used: set[str] = set()
        self._recordings: list[set[str]] = []  # open `recording` blocks

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def slot(self, namespace: str, name: str, *, codec: str = "json") -> Slot:
        """The entry of `name` (a page's path) in `namespace`."""
        return Slot(self, namespace, self._file(namespace, name, codec), codec)

    def memo(self, namespace: str, entry_key: str, *, codec: str = "json") -> Memo:
        """The entry of `entry_key` (a `key(...)`) in `namespace`."""
        return Memo(
            Slot(self, namespace, self._file(namespace, entry_key, codec), codec), entry_key
        )

    def _file(self, namespace: str, name: str, codec: str) -> Path | None:
        """The one path recipe: `root/namespace/<hash of the name>.<codec>`."""
        if namespace not in NAMESPACES:
            raise ValueError(
                f"unknown store namespace {namespace!r}: declare it in llmbook/core/store_namespaces.py"
            )
        if codec not in _CODECS:
            raise ValueError(f"unknown codec {codec!r}: one of {', '.join(_CODECS)}")
        if self.root is None:
            return None
        return self.root / namespace / f"{key(name)[:32]}.{codec}"

    def use(self, path: Path | None) -> None:
        """Remember that this build needs the entry at `path` (a set: threads may add to it)."""
        if path is not None:
            self.use_again([f"{path.parent.name}/{path.name}"])

    def use_again(self, names: Iterable[str]) -> None:
        """Mark entries ("namespace/file") needed: those a replayed entry was made from (a
        page's formulas and demo frames under its kept conversion), so prune keeps them."""
        for name in names:
            self.used.add(name)
            for seen in self._recordings:
                seen.add(name)

    @contextlib.contextmanager
    def recording(self) -> Iterator[set[str]]:
        """The entries used inside the block: what an entry made there stands on."""
        seen: set[str] = set()
        self._recordings.append(seen)
        try:
            yield seen
        finally:
            self._recordings.remove(seen)

    def count(self, namespace: str, *, hit: bool) -> None:
        if self.root is not None:
            self.counts.setdefault(namespace, [0, 0])[0 if hit else 1] += 1

    def summary(self) -> str:
        """One line for the build log: each namespace's hits out of its reads."""
        if self.root is None:
            return "cache off"
        shown = ", ".join(f"{ns} {h}/{h + m}" for ns, (h, m) in sorted(self.counts.items()))
        line = f"cache hits: {shown or 'nothing read'}"
        if self.damaged:
            broken = ", ".join(f"{ns} {n}" for ns, n in sorted(self.damaged.items()))
            line += f"; damaged entries read as misses and made again: {broken}"
        return line


def switched_off(variable: str) -> bool:
    """Whether an environment switch (LLMBOOK_CACHE, LLMBOOK_EXECUTE) says 0/false/no/off."""
    return os.environ.get(variable, "").strip().lower() in ("0", "false", "no", "off")


def open_store(project_root: str | os.PathLike[str], *, enabled: bool, folder: str) -> Store:
    """The build's store, as the `cache` and `cache_dir` options say: `folder` under the project
    root (env LLMBOOK_CACHE_DIR overrides it); off when `enabled` is false or env LLMBOOK_CACHE
    is 0/false/no/off."""
    if not enabled or switched_off("LLMBOOK_CACHE"):
        return Store(None)
    return Store(Path(project_root) / cache_folder(folder))


def cache_folder(folder: str) -> str:
    """The cache folder, relative to the project root: the `cache_dir` option's `folder`, or env
    LLMBOOK_CACHE_DIR."""
    return os.environ.get("LLMBOOK_CACHE_DIR") or folder

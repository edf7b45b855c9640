"""On-disk cache of execution results, one JSON file per page.

The key covers what is known before the page runs: the page's code (blocks, their modes and the
bound expressions, not the written numbers), the seed, the preamble, and the Python, torch and
matplotlib versions. What the page turned out to use, every file of the project it opened or
imported (`deps.py`), is stored with the result under its content hash: the entry is stale when
any of those files changed. Writes are atomic (temp file + rename), so two builds at once or a
crash never leave a half-written entry; an unreadable or foreign entry is treated as missing.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from llmbook.execute.collect import PageSource
from llmbook.execute.deps import file_hash, stat_key
from llmbook.execute.figures import Figure
from llmbook.execute.run import BlockResult, RunResult

__all__ = [
    "FileHashes",
    "PageCache",
    "llmbook_hash",
    "llmkit_hash",
    "package_hash",
    "page_key",
    "read_json",
    "result_digest",
    "tree_hash",
    "version",
    "write_json_atomic",
]

_FORMAT = 2  # 2: the files a page used are stored with its result


@functools.cache  # installed versions do not change while a process runs
def version(dist: str) -> str:
    """An installed distribution's version, read without importing it ("none" when missing)."""
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "none"


def package_hash(name: str) -> str:
    """Hash of every file of an installed package, found without importing it."""
    from importlib.util import find_spec

    spec = find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return "missing"
    return tree_hash(Path(next(iter(spec.submodule_search_locations))), "*.py")


def llmkit_hash() -> str:
    """The render and demo caches still key on llmkit's source; the execution cache does not."""
    return package_hash("llmkit")


def tree_hash(root: Path, pattern: str) -> str:
    """Hash of the names and contents of the files under `root` that match `pattern`."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob(pattern)):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def json_digest(data: Any) -> str:
    """The sha256 of `data` as canonical JSON (sorted keys): the one way every cache key is made."""
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()


def entry_path(root: Path, src: str) -> Path:
    """A page's one entry in a per-page cache folder, named by a hash of the page's path."""
    return root / (hashlib.sha256(src.encode()).hexdigest()[:24] + ".json")


def page_key(page: PageSource, *, seed: int, preamble: str) -> str:
    parts = {
        "format": _FORMAT,
        "src": page.src,
        "seed": seed,
        "preamble": preamble,
        "python": sys.version,
        "torch": version("torch"),
        "matplotlib": version("matplotlib"),
        "blocks": [[b.line, b.mode, b.code] for b in page.blocks if b.runs],
        "bound": [[b.line, b.expr] for b in page.bound],
    }
    return json_digest(parts)


def read_json(path: Path) -> Any:
    """The JSON stored at `path`, or None when it is missing or unreadable (e.g. half-written)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


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


def write_json_atomic(path: Path, data: Any) -> None:
    """Write `data` as JSON, atomically (`write_atomic`)."""
    write_atomic(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))


class FileHashes:
    """Content hashes of the project's files, each read once per build."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self._known: dict[str, str] = {}

    def unchanged(self, used: dict[str, str]) -> bool:
        """Whether every file a cached result used still has the content it had then."""
        for name, digest in used.items():
            if name not in self._known:
                # an installed file was keyed by size and mtime (deps.stat_key), not read
                cheap = digest.startswith("stat:")
                path = self.root / name
                self._known[name] = stat_key(path) if cheap else file_hash(path)
            if self._known[name] != digest:
                return False
        return True


class PageCache:
    """Results stored under `root`, one file per page, holding the key it was computed for."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def _path(self, src: str) -> Path:
        return entry_path(self.root, src)

    def load(self, src: str, key: str) -> RunResult | None:
        data = read_json(self._path(src))
        try:
            if data["key"] != key:
                return None
            blocks = {
                int(pos): BlockResult(
                    b["output"], [Figure(f["svg"], f["alt"]) for f in b["figures"]]
                )
                for pos, b in data["blocks"].items()
            }
            used = {str(name): str(digest) for name, digest in data["used"].items()}
            return RunResult(blocks, list(data["values"]), used)
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # missing, half-written by a crashed writer, or from another version

    def store(self, src: str, key: str, result: RunResult) -> None:
        data = {
            "key": key,
            "src": src,
            "blocks": {
                str(pos): {"output": b.output, "figures": [vars(f) for f in b.figures]}
                for pos, b in result.blocks.items()
            },
            "values": result.values,
            "used": result.used,
        }
        write_json_atomic(self._path(src), data)


@functools.cache  # llmbook's own files do not change while a build runs
def llmbook_hash() -> str:
    """Hash of every file of the llmbook package (code, assets, data)."""
    return tree_hash(Path(__file__).resolve().parent.parent, "*")


def result_digest(result: RunResult | None) -> str:
    """A page's execution results as one hash (outputs, figures, values)."""
    if result is None:
        return "none"
    data = {
        "blocks": {
            str(pos): [b.output, b.cut, [[f.svg, f.alt] for f in b.figures]]
            for pos, b in sorted(result.blocks.items())
        },
        "values": result.values,
    }
    return json_digest(data)

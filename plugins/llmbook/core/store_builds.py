"""What each finished build read from the store, and `llmbook cache info` / `cache prune` on it.

A build's store remembers every entry it read or wrote (`Store.used`, in memory). When the build
finishes, `record_build` writes that list as one journal file, `<cache>/.builds/<time>-<pid>.json`
(atomically, a name of its own per build). So:

- a build killed midway records nothing: it never makes prune remove what an earlier build read;
- builds that share the cache folder (two languages, two machines merged by `cp -r`) each write
  their own file and never contend for one;
- the journals are grouped by the config file they built (`mkdocs.yml`, `mkdocs.en.yml`): prune
  keeps what the last build of each config read, so building one language does not prune the
  other's pages. A shard's build (LLMBOOK_SHARD) reads only its share: prune after the build that
  assembles the shards, or keep more builds (`--keep-builds N`: what any of the last N builds of
  each config read).

Entry mtimes are not used: an entry's mtime says when it was written, a touch on every read would
cost a system call per hit, and a restored CI cache carries another machine's clock.
Prune removes only files inside the declared namespace folders (and the journals it no longer
needs): a `cache_dir` that holds other files keeps them.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from llmbook.core.store import Store, write_atomic
from llmbook.core.store_namespaces import NAMESPACES

__all__ = ["BUILDS", "Build", "Pruned", "cache_info", "prune", "read_builds", "record_build"]

BUILDS = ".builds"  # the journals' folder, beside the namespaces
_FORMAT = 1
_STALE_TEMP_S = 3600  # a write's temp file this old belongs to no running build


@dataclass(frozen=True)
class Build:
    """One finished build's journal."""

    config: str  # the config file it built, relative to the project ("mkdocs.yml")
    finished_ns: int
    used: frozenset[str]  # "namespace/file" of each entry it read or wrote
    path: Path


def record_build(store: Store, config: str) -> Path | None:
    """Write what `store` was used for as the journal of a finished build of `config`; None when
    the store is off."""
    if store.root is None:
        return None
    finished = time.time_ns()
    data = {"format": _FORMAT, "config": config, "finished_ns": finished}
    data["used"] = sorted(store.used)
    path = store.root / BUILDS / f"{finished}-{os.getpid()}.json"
    write_atomic(path, json.dumps(data, ensure_ascii=False).encode("utf-8"))
    return path


def read_builds(root: Path) -> list[Build]:
    """The journals under the cache folder `root`, oldest first (a foreign file is skipped)."""
    builds = []
    for path in sorted((root / BUILDS).glob("*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data["format"] != _FORMAT:
                continue
            used = frozenset(str(name) for name in data["used"])
            builds.append(Build(str(data["config"]), int(data["finished_ns"]), used, path))
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return sorted(builds, key=lambda b: b.finished_ns)


def _kept_builds(builds: list[Build], keep: int) -> list[Build]:
    """The last `keep` builds of each config."""
    by_config: dict[str, list[Build]] = {}
    for build in builds:
        by_config.setdefault(build.config, []).append(build)
    return [b for same in by_config.values() for b in same[-keep:]]


def _entries(root: Path, namespace: str) -> list[Path]:
    folder = root / namespace
    return sorted(p for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []


def _bytes(paths: list[Path]) -> int:
    return sum(p.stat().st_size for p in paths)


def _count(n: int, what: str = "entry", plural: str = "entries") -> str:
    return f"{n:,} {what if n == 1 else plural}"


def cache_info(root: Path) -> str:
    """Each namespace's entries and bytes, and how many of them the last builds read."""
    builds = read_builds(root)
    used = frozenset().union(*(b.used for b in _kept_builds(builds, 1)))
    configs = sorted({b.config for b in builds})
    head = f"llmbook cache info: {root}, {_count(len(builds), 'build', 'builds')} recorded"
    head += f" (last of each: {', '.join(configs)})" if configs else ""
    rows = [("namespace", "entries", "bytes", "read by the last build")]
    totals = [0, 0, 0]
    for name in NAMESPACES:
        paths = _entries(root, name)
        read = sum(f"{name}/{p.name}" in used for p in paths)
        row = [len(paths), _bytes(paths), read]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        rows.append((name, *(f"{n:,}" for n in row)))
    rows.append(("total", *(f"{n:,}" for n in totals)))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = [f"{r[0]:<{widths[0]}}  {r[1]:>{widths[1]}}  {r[2]:>{widths[2]}}  {r[3]}" for r in rows]
    return "\n".join([head, *lines])


@dataclass
class Pruned:
    """What `prune` removed: namespace → [entries, bytes]."""

    removed: dict[str, list[int]] = field(default_factory=dict)
    kept: list[int] = field(default_factory=lambda: [0, 0])
    builds: list[Build] = field(default_factory=list)  # those whose reads were kept
    journals: int = 0  # older journals removed

    def report(self, root: Path, keep: int) -> str:
        if not self.builds:
            return (
                f"llmbook cache prune: nothing removed: {root} records no finished build "
                "(a build records what it read when it finishes; build, then prune)"
            )
        which = "the last build" if keep == 1 else f"the last {keep} builds"
        configs = ", ".join(sorted({b.config for b in self.builds}))
        lines = [f"llmbook cache prune: {root}: kept what {which} of {configs} read"]
        for name, (entries, size) in self.removed.items():
            lines.append(f"{name}: removed {_count(entries)}, {size:,} bytes")
        entries, size = (sum(v[i] for v in self.removed.values()) for i in (0, 1))
        lines.append(
            f"total: removed {_count(entries)}, {size:,} bytes; "
            f"kept {_count(self.kept[0])}, {self.kept[1]:,} bytes"
        )
        return "\n".join(lines)


def prune(root: Path, keep: int = 1) -> Pruned:
    """Remove the entries that none of the last `keep` builds of each config read (and the
    journals of older builds). Nothing is removed when no build is recorded."""
    if keep < 1:
        raise ValueError(f"--keep-builds must be 1 or more, not {keep}")
    builds = read_builds(root)
    pruned = Pruned(builds=_kept_builds(builds, keep))
    if not pruned.builds:
        return pruned
    used = frozenset().union(*(b.used for b in pruned.builds))
    now = time.time()
    for name in NAMESPACES:
        for path in _entries(root, name):
            size = path.stat().st_size
            recent_temp = (
                path.name.startswith(".tmp-") and now - path.stat().st_mtime < _STALE_TEMP_S
            )
            if f"{name}/{path.name}" in used or recent_temp:  # a temp file: a write under way
                pruned.kept = [pruned.kept[0] + 1, pruned.kept[1] + size]
                continue
            path.unlink(missing_ok=True)
            counts = pruned.removed.setdefault(name, [0, 0])
            counts[0], counts[1] = counts[0] + 1, counts[1] + size
    for build in builds:
        if build not in pruned.builds:
            build.path.unlink(missing_ok=True)
            pruned.journals += 1
    return pruned

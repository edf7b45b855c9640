"""The store's namespaces are declared once, a finished build records what it read, and
`llmbook cache info` / `llmbook cache prune` show and remove what no recent build read."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from llmbook.core.store import Store
from llmbook.core.store_builds import BUILDS, cache_info, prune, read_builds, record_build
from llmbook.core.store_namespaces import FORMULAS, NAMESPACES, PAGES, RESULTS

ROOT = Path(__file__).resolve().parents[1]
GUIDES = [ROOT / "docs/guide/executable.md", ROOT / "docs/guide/executable.en.md"]


def test_a_namespace_not_declared_is_refused() -> None:
    with pytest.raises(ValueError) as raised:
        Store(None).slot("resluts", "docs/p.md")
    assert str(raised.value) == (
        "unknown store namespace 'resluts': declare it in llmbook/core/store_namespaces.py"
    )


@pytest.mark.parametrize("guide", GUIDES, ids=lambda p: p.name)
def test_the_guides_table_lists_exactly_the_declared_namespaces(guide: Path) -> None:
    text = guide.read_text(encoding="utf-8")
    (table,) = re.findall(r"^\| (?:Namespace|命名空间) \|.*?\n\n", text, re.MULTILINE | re.DOTALL)
    listed = re.findall(r"^\| `([a-z-]+)` \|", table, re.MULTILINE)
    assert sorted(listed) == sorted(NAMESPACES)


def _build(store: Store, config: str, reads: dict[str, list[str]]) -> None:
    """A build that reads (and, on a miss, writes) `reads`: {namespace: [names]}."""
    for namespace, names in reads.items():
        for name in names:
            slot = store.slot(namespace, name)
            if slot.get("k") is None:
                slot.put("k", name)
    record_build(store, config)


def test_a_finished_build_records_every_entry_it_read_or_wrote(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.slot(RESULTS, "docs/a.md").put("k", 1)  # written
    store.slot(PAGES, "docs/b.md").get("k")  # read (a miss)
    path = record_build(store, "mkdocs.yml")
    assert path is not None and path.parent == tmp_path / BUILDS
    (build,) = read_builds(tmp_path)
    assert build.config == "mkdocs.yml"
    assert build.used == {
        f"results/{store.slot(RESULTS, 'docs/a.md').path.name}",  # type: ignore[union-attr]
        f"pages/{store.slot(PAGES, 'docs/b.md').path.name}",  # type: ignore[union-attr]
    }
    assert record_build(Store(None), "mkdocs.yml") is None  # the store off records nothing


def test_a_replayed_entry_keeps_the_entries_it_was_made_from(tmp_path: Path) -> None:
    store = Store(tmp_path)
    with store.recording() as outer, store.recording() as inner:
        store.memo(FORMULAS, "k").get()
    path = store.slot(FORMULAS, "k").path  # a memo's file: its key as the name
    assert path is not None and outer == inner == {f"formulas/{path.name}"}
    later = Store(tmp_path)  # the next build replays the page: what it stood on is used again
    with later.recording() as seen:
        later.use_again(sorted(inner))
    assert later.used == seen == inner


def test_prune_removes_what_the_last_build_of_each_config_did_not_read(tmp_path: Path) -> None:
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a", "b"], PAGES: ["a", "b"]})
    _build(Store(tmp_path), "mkdocs.en.yml", {PAGES: ["e"]})
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a"], PAGES: ["a"]})  # b was deleted
    Store(tmp_path).slot(RESULTS, "killed").put("k", "x")  # a build killed before it finished
    size = (tmp_path / "results").iterdir().__next__().stat().st_size  # every entry: one size

    pruned = prune(tmp_path)
    assert pruned.report(tmp_path, 1) == (
        f"llmbook cache prune: {tmp_path}: kept what the last build of mkdocs.en.yml, "
        "mkdocs.yml read\n"
        f"results: removed 2 entries, {2 * size:,} bytes\n"
        f"pages: removed 1 entry, {size:,} bytes\n"
        f"total: removed 3 entries, {3 * size:,} bytes; kept 3 entries, {3 * size:,} bytes"
    )
    store = Store(tmp_path)
    assert store.slot(PAGES, "e").get("k") == "e"  # the other language's build kept
    assert store.slot(RESULTS, "a").get("k") == "a"
    assert store.slot(RESULTS, "b").get("k") is None
    assert [b.config for b in read_builds(tmp_path)] == ["mkdocs.en.yml", "mkdocs.yml"]
    again = prune(tmp_path)
    assert again.report(tmp_path, 1).splitlines()[-1] == (
        f"total: removed 0 entries, 0 bytes; kept 3 entries, {3 * size:,} bytes"
    )


def test_keep_builds_keeps_what_any_of_the_last_n_builds_read(tmp_path: Path) -> None:
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["old"]})
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a"]})  # LLMBOOK_SHARD=0/2
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["b"]})  # LLMBOOK_SHARD=1/2
    report = prune(tmp_path, keep=2).report(tmp_path, 2)
    assert report.splitlines()[0].endswith("kept what the last 2 builds of mkdocs.yml read")
    assert report.splitlines()[1].startswith("results: removed 1 entry, ")
    assert Store(tmp_path).slot(RESULTS, "a").get("k") == "a"
    assert Store(tmp_path).slot(RESULTS, "old").get("k") is None
    with pytest.raises(ValueError, match="^--keep-builds must be 1 or more, not 0$"):
        prune(tmp_path, keep=0)


def test_prune_without_a_recorded_build_removes_nothing(tmp_path: Path) -> None:
    Store(tmp_path).slot(RESULTS, "a").put("k", 1)
    assert prune(tmp_path).report(tmp_path, 1) == (
        f"llmbook cache prune: nothing removed: {tmp_path} records no finished build "
        "(a build records what it read when it finishes; build, then prune)"
    )
    assert Store(tmp_path).slot(RESULTS, "a").get("k") == 1


def test_prune_leaves_other_files_and_a_write_under_way(tmp_path: Path) -> None:
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a"]})
    (tmp_path / "crash-1a2b.txt").write_text("kept")  # not in a namespace: never touched
    under_way = tmp_path / "results" / ".tmp-x.json"
    under_way.write_text("{")
    dead = tmp_path / "results" / ".tmp-y.json"  # a killed write's temp file, hours old
    dead.write_text("{")
    os.utime(dead, (0, 0))
    prune(tmp_path)
    assert (tmp_path / "crash-1a2b.txt").exists() and under_way.exists() and not dead.exists()


def test_cache_info_lists_every_namespace(tmp_path: Path) -> None:
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a", "b"]})
    _build(Store(tmp_path), "mkdocs.yml", {RESULTS: ["a"]})
    size = (tmp_path / "results").iterdir().__next__().stat().st_size
    lines = cache_info(tmp_path).splitlines()
    assert (
        lines[0] == f"llmbook cache info: {tmp_path}, 2 builds recorded (last of each: mkdocs.yml)"
    )
    assert lines[1].split() == [
        "namespace",
        "entries",
        "bytes",
        "read",
        "by",
        "the",
        "last",
        "build",
    ]
    assert lines[2].split() == ["results", "2", f"{2 * size:,}", "1"]
    assert [line.split()[0] for line in lines[2:-1]] == list(NAMESPACES)
    assert lines[-1].split() == ["total", "2", f"{2 * size:,}", "1"]

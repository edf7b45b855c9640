"""The on-disk cache alone: keys, atomic writes, entries that must be ignored."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from llmbook.core.lexer import lex
from llmbook.core.store import Store, file_digest, package_hash, read_entry, version
from llmbook.execute.shell.figures import Figure
from llmbook.execute.stages.cache import FileHashes, PageCache, page_key
from llmbook.execute.stages.collect import collect_page
from llmbook.execute.stages.run import BlockResult, RunResult

PAGE = "```python\nx = 1\n```\n\n[[x = 1]] and [[x * 2 = 2.0]]\n"


def _key(text: str, **kw: object) -> str:
    page = collect_page(lex(text), src="docs/p.md", meta={})
    return page_key(
        page,
        seed=kw.get("seed", 0),
        preamble=kw.get("preamble", "import math"),
        output_limit=kw.get("output_limit", 100_000),
    )


def _result(n: int = 1) -> RunResult:
    blocks = {0: BlockResult("out\n" * n, [Figure("<svg/>", "图")])}
    return RunResult(blocks, [1, 2.0], {"docs/_helpers.py": "ab12"})


def test_key_covers_code_expressions_seed_and_preamble_not_written_values() -> None:
    base = _key(PAGE)
    assert _key(PAGE.replace("= 2.0]]", "= 3.0]]")) == base  # only re-checked, not re-run
    assert _key(PAGE.replace("x = 1\n```", "x = 2\n```")) != base
    assert _key(PAGE.replace("x * 2", "x * 3")) != base
    assert _key(PAGE, seed=1) != base
    assert _key(PAGE, preamble="import numpy") != base
    # where outputs are cut (execute_output_limit): a warm build must show what a cold one does
    assert _key(PAGE, output_limit=300) != base


def test_a_cut_output_keeps_its_note_across_builds(tmp_path: Path) -> None:
    """The characters cut past the output limit are kept with the result (its "输出过长" note)."""
    cache = PageCache(Store(tmp_path))
    result = RunResult({0: BlockResult("x" * 10, cut=1234)}, [], {})
    cache.store("docs/p.md", "k", result)
    loaded = cache.load("docs/p.md", "k")
    assert loaded is not None and loaded.blocks[0].cut == 1234


def test_file_hashes_tell_a_changed_or_missing_file(tmp_path: Path) -> None:
    (tmp_path / "data.txt").write_text("1\n", encoding="utf-8")
    used = {"data.txt": file_digest(tmp_path / "data.txt")}
    assert FileHashes(tmp_path).unchanged(used)
    assert FileHashes(tmp_path).unchanged({})
    (tmp_path / "data.txt").write_text("2\n", encoding="utf-8")
    assert not FileHashes(tmp_path).unchanged(used)
    (tmp_path / "data.txt").unlink()
    assert not FileHashes(tmp_path).unchanged(used)


def test_package_hash_follows_a_source_trees_files(tmp_path: Path, monkeypatch) -> None:
    package = tmp_path / "bookpackage"
    package.mkdir()
    (package / "__init__.py").write_text("A = 1\n", encoding="utf-8")
    (tmp_path / "onefile.py").write_text("B = 1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    first, single = package_hash("bookpackage"), package_hash("onefile")
    (package / "calc.py").write_text("B = 2\n", encoding="utf-8")
    (tmp_path / "onefile.py").write_text("B = 2\n", encoding="utf-8")
    assert package_hash("bookpackage") != first and package_hash("onefile") != single
    assert package_hash("no_such_package_anywhere") == "missing"


def test_package_hash_keys_an_installed_package_by_its_version() -> None:
    assert "site-packages" in pytest.__file__  # installed, never a source tree here
    assert package_hash("pytest") == f"version {version('pytest')}"


def test_round_trip_and_foreign_or_broken_entries(tmp_path: Path) -> None:
    cache = PageCache(Store(tmp_path))
    cache.store("docs/p.md", "k1", _result())
    loaded = cache.load("docs/p.md", "k1")
    assert loaded == _result()
    assert cache.load("docs/p.md", "k2") is None  # stale key
    assert cache.load("docs/other.md", "k1") is None
    (entry,) = (tmp_path / "results").glob("*.json")
    whole = entry.read_bytes()
    for cut in (len(whole) // 2, len(whole) - 1):  # torn: the header's digest does not match
        entry.write_bytes(whole[:cut])
        assert cache.load("docs/p.md", "k1") is None
    slot = Store(tmp_path).slot("results", "docs/p.md")
    for shape in [[], {"key": "k1"}, {"blocks": {"0": 5}, "values": []}]:  # whole, but not ours
        slot.put("k1", shape)
        assert cache.load("docs/p.md", "k1") is None
    for broken in [
        "",
        "{",
        "[]",
        '{"key": "k1"}',
        '{"key": "k1", "blocks": {"0": 5}, "values": []}',
        '{"key": "k1", "blocks": {}, "values": []}',  # format 1: no files used recorded
    ]:
        entry.write_text(broken, encoding="utf-8")
        assert cache.load("docs/p.md", "k1") is None


def test_a_failed_write_leaves_no_trace(tmp_path: Path) -> None:
    cache = PageCache(Store(tmp_path))
    cache.store("docs/p.md", "k1", _result())
    bad = RunResult({}, [object()])  # not JSON: the write fails half-way
    with pytest.raises(TypeError):
        cache.store("docs/p.md", "k2", bad)
    folder = tmp_path / "results"
    assert [p.name for p in folder.iterdir()] == [next(folder.glob("*.json")).name]
    assert cache.load("docs/p.md", "k1") == _result()  # the old entry is intact


def test_concurrent_writers_never_leave_a_torn_entry(tmp_path: Path) -> None:
    caches = [PageCache(Store(tmp_path)) for _ in range(4)]
    results = [_result(n + 1) for n in range(4)]
    seen: list[RunResult | None] = []

    def write(index: int) -> None:
        for _ in range(25):
            caches[index].store("docs/p.md", "k", results[index])
            seen.append(caches[index].load("docs/p.md", "k"))

    threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(r in results for r in seen)  # every read is one whole entry
    (entry,) = (tmp_path / "results").glob("*.json")
    assert read_entry(entry).key == "k"
    assert not list((tmp_path / "results").glob(".tmp-*"))


def test_an_expected_exception_is_in_the_key_and_kept_with_the_result(tmp_path: Path) -> None:
    assert _key(PAGE.replace("```python", "```python raises-exception")) != _key(PAGE)
    assert _key(PAGE.replace("```python", "```python hide-output")) == _key(PAGE)
    error = ("ValueError", "x", ["Traceback (most recent call last):", "ValueError: x"])
    result = RunResult({0: BlockResult("", [], error=error)}, [1, 2.0], {})
    cache = PageCache(Store(tmp_path))
    cache.store("docs/p.md", "k", result)
    assert cache.load("docs/p.md", "k").blocks[0].error == error

"""The store alone: the key recipe, the file hasher, slots and memos, verified reads, the switch."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from llmbook.core.store import (
    Store,
    file_digest,
    file_stamp,
    key,
    open_store,
    read_entry,
    tree_digest,
)

VALUES = {"json": {"a": [1, "二"]}, "text": "<p>页</p>", "bytes": b"\x00\xff", "pickle": {1, 2}}


def test_the_key_is_canonical_json_and_changes_with_every_part() -> None:
    base = key("page", {"seed": 0, "preamble": "import math"}, [1, 2])
    assert key("page", {"preamble": "import math", "seed": 0}, [1, 2]) == base  # key order
    assert key("page", {"seed": 0, "preamble": "import math"}, (1, 2)) == base
    for other in [
        key("other", {"seed": 0, "preamble": "import math"}, [1, 2]),
        key("page", {"seed": 1, "preamble": "import math"}, [1, 2]),
        key("page", {"seed": 0, "preamble": "import numpy"}, [1, 2]),
        key("page", {"seed": 0, "preamble": "import math"}, [2, 1]),
        key("page", {"seed": 0, "preamble": "import math"}),
        key(["page", {"seed": 0, "preamble": "import math"}, [1, 2]]),  # nesting is a part
    ]:
        assert other != base
    with pytest.raises(TypeError):
        key(object())  # a part that is not JSON is a programming error, not a silent key


def test_the_file_hasher(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("1", encoding="utf-8")
    first = file_digest(path)
    assert len(first) == 64 and file_digest(path) == first
    path.write_text("2", encoding="utf-8")
    assert file_digest(path) != first
    assert file_digest(tmp_path / "gone.txt") == "missing"
    stat = path.stat()
    assert file_stamp(path) == f"stat:{stat.st_size}:{stat.st_mtime_ns}"
    assert file_stamp(tmp_path / "gone.txt") == "missing"


def test_a_tree_digest_follows_names_contents_and_new_files(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("A = 1\n", encoding="utf-8")
    first = tree_digest(tmp_path, "*.py")
    (tmp_path / "pkg" / "__pycache__").mkdir()
    (tmp_path / "pkg" / "__pycache__" / "c.py").write_text("", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a match", encoding="utf-8")
    assert tree_digest(tmp_path, "*.py") == first  # caches and other suffixes are not sources
    (tmp_path / "pkg" / "a.py").write_text("A = 2\n", encoding="utf-8")
    changed = tree_digest(tmp_path, "*.py")
    assert changed != first
    (tmp_path / "pkg" / "a.py").rename(tmp_path / "pkg" / "b.py")
    assert tree_digest(tmp_path, "*.py") not in (first, changed)


@pytest.mark.parametrize("codec", sorted(VALUES))
def test_a_slot_gives_back_its_value_for_its_key_only(tmp_path: Path, codec: str) -> None:
    store = Store(tmp_path)
    slot = store.slot("pages", "docs/p.md", codec=codec)
    assert slot.get("k1") is None
    slot.put("k1", VALUES[codec])
    assert slot.get("k1") == VALUES[codec]
    later = Store(tmp_path)  # a later build reads it too, and counts its own reads
    assert later.slot("pages", "docs/p.md", codec=codec).get("k1") == VALUES[codec]
    assert later.counts == {"pages": [1, 0]}
    assert slot.get("k2") is None  # a stale key
    assert store.slot("pages", "docs/q.md", codec=codec).get("k1") is None  # another name
    assert store.counts == {"pages": [1, 3]}
    slot.put("k2", VALUES[codec])  # one entry per name: the new key replaces the old
    assert slot.get("k1") is None and slot.get("k2") == VALUES[codec]
    assert [p.name for p in (tmp_path / "pages").iterdir()] == [slot.path.name]
    assert slot.path.suffix == f".{codec}"


def test_an_entry_of_another_codec_is_a_miss(tmp_path: Path) -> None:
    store = Store(tmp_path)
    store.slot("demos", "x", codec="text").put("k", "<p/>")
    (entry,) = (tmp_path / "demos").iterdir()
    entry.rename(entry.with_suffix(".json"))
    assert store.slot("demos", "x", codec="json").get("k") is None


@pytest.mark.parametrize("codec", sorted(VALUES))
def test_a_torn_tampered_or_foreign_entry_is_a_miss_and_is_written_again(
    tmp_path: Path, codec: str
) -> None:
    slot = Store(tmp_path).slot("results", "docs/p.md", codec=codec)
    slot.put("k", VALUES[codec])
    whole = slot.path.read_bytes()
    head, _, payload = whole.partition(b"\n")
    header = json.loads(head)
    assert header["key"] == "k" and header["codec"] == codec
    broken = [whole[:n] for n in (0, 1, len(head), len(head) + 1, len(whole) - 1)]
    broken += [
        head + b"\n" + payload + b" ",  # appended to
        head + b"\n" + bytes([payload[0] ^ 1]) + payload[1:],  # a flipped byte
        json.dumps({**header, "store": 0}).encode() + b"\n" + payload,  # another format
        payload,  # no header: a file of an older llmbook
    ]
    for content in broken:
        slot.path.write_bytes(content)
        assert read_entry(slot.path) is None
        assert slot.get("k") is None
        slot.put("k", VALUES[codec])
        assert slot.get("k") == VALUES[codec]


def test_the_summary_reports_the_damaged_entries_it_read_as_misses(tmp_path: Path) -> None:
    store = Store(tmp_path)
    slot = store.slot("notebooks", "docs/n.ipynb")
    slot.put("k", {"cells": []})
    slot.path.write_bytes(slot.path.read_bytes()[:10])  # torn: half a write
    assert slot.get("k") is None
    assert store.slot("results", "never-written").get("k") is None  # missing is not damaged
    assert store.summary() == (
        "cache hits: notebooks 0/1, results 0/1; damaged entries read as misses and made "
        "again: notebooks 1"
    )


def test_a_memo_is_named_by_its_key(tmp_path: Path) -> None:
    store = Store(tmp_path)
    first, second = key("notebook", 1), key("notebook", 2)
    store.memo("notebooks", first, codec="text").put("one")
    store.memo("notebooks", second, codec="text").put("two")
    assert store.memo("notebooks", first, codec="text").get() == "one"
    assert store.memo("notebooks", second, codec="text").get() == "two"
    assert len(list((tmp_path / "notebooks").iterdir())) == 2
    for path in (tmp_path / "notebooks").iterdir():
        path.write_bytes(path.read_bytes()[:-2])  # half-written
    assert store.memo("notebooks", first, codec="text").get() is None
    assert store.memo("notebooks", second, codec="text").get() is None


def test_a_value_that_cannot_be_encoded_writes_nothing(tmp_path: Path) -> None:
    slot = Store(tmp_path).slot("results", "docs/p.md")
    slot.put("k", {"ok": 1})
    with pytest.raises(TypeError):
        slot.put("k2", {"bad": object()})
    assert slot.get("k") == {"ok": 1}
    assert [p.name for p in (tmp_path / "results").iterdir()] == [slot.path.name]


def test_a_store_that_is_off_misses_writes_nothing_and_counts_nothing(tmp_path: Path) -> None:
    store = Store(None)
    assert not store.enabled
    store.slot("pages", "docs/p.md").put("k", {"a": 1})
    store.memo("outlines", key("x")).put([1])
    assert store.slot("pages", "docs/p.md").get("k") is None
    assert store.memo("outlines", key("x")).get() is None
    assert store.counts == {} and store.summary() == "cache off"


def test_an_unknown_codec_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown codec 'yaml': one of json, text, bytes"):
        Store(tmp_path).slot("pages", "docs/p.md", codec="yaml")


def test_the_summary_names_each_namespace_hits_out_of_reads(tmp_path: Path) -> None:
    store = Store(tmp_path)
    assert store.summary() == "cache hits: nothing read"
    store.slot("results", "a").put("k", 1)
    store.slot("results", "a").get("k")
    store.slot("results", "b").get("k")
    store.slot("demos", "a").get("k")
    assert store.summary() == "cache hits: demos 0/1, results 1/2"


def test_one_switch_and_one_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LLMBOOK_CACHE", raising=False)
    monkeypatch.delenv("LLMBOOK_CACHE_DIR", raising=False)
    assert open_store(tmp_path, enabled=True, folder=".llmbook-cache").root == (
        tmp_path / ".llmbook-cache"
    )
    assert not open_store(tmp_path, enabled=False, folder=".llmbook-cache").enabled
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert open_store(tmp_path, enabled=True, folder="x").root == tmp_path / "elsewhere"
    for off in ("0", "false", "No", " off "):
        monkeypatch.setenv("LLMBOOK_CACHE", off)
        assert not open_store(tmp_path, enabled=True, folder="x").enabled
    monkeypatch.setenv("LLMBOOK_CACHE", "1")
    assert open_store(tmp_path, enabled=True, folder="x").enabled


def test_the_store_is_a_leaf() -> None:
    """Every layer may use it: importing it imports nothing of llmbook's but itself and its
    table of namespaces (and its folder's package, which is empty)."""
    code = (
        "import sys, llmbook.core.store; "
        "print(sorted(m for m in sys.modules if 'llmbook.' in m and m != 'llmbook.core'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['llmbook.core.store', 'llmbook.core.store_namespaces']"

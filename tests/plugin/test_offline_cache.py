"""The offline check keeps what each file loads by the file's content: an unchanged file is not
parsed again, a changed one is, and the verdict is the same as a fresh check."""

from __future__ import annotations

from pathlib import Path

import llmbook.site.offline
from llmbook.core.store import Store
from llmbook.site.offline import find_external_loads


def test_unchanged_files_come_from_the_cache_changed_ones_are_read(
    tmp_path: Path, monkeypatch
) -> None:
    site, cache = tmp_path / "site", Store(tmp_path / "cache")
    site.mkdir()
    (site / "a.html").write_text('<link rel="stylesheet" href="https://cdn.example/x.css">')
    (site / "b.html").write_text('<img src="pic.png" alt="">')
    first = find_external_loads(site, cache)
    assert [(load.file, load.url) for load in first] == [("a.html", "https://cdn.example/x.css")]

    parsed = []
    candidates = llmbook.site.offline._candidates
    monkeypatch.setattr(
        llmbook.site.offline, "_candidates", lambda *a: parsed.append(a[0]) or candidates(*a)
    )
    assert find_external_loads(site, cache) == first and parsed == []
    (site / "b.html").write_text('<script src="https://cdn.example/y.js"></script>')
    again = find_external_loads(site, cache)
    assert parsed == [".html"]
    assert again == find_external_loads(site) and len(again) == 2

"""`llmbook cache prune` on a built book: a page deleted, the build after it leaves the page's
entries unread, prune removes them (and says how many and how large), and the warm build after
the prune runs and renders nothing. `llmbook cache info` on the same book."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from llmbook.cli import main
from llmbook.core.store import Store
from llmbook.core.store_namespaces import CONVERTED, NAMESPACES, PAGES, RESULTS, STAGES
from llmbook.site.render_cache import edition_slot
from sites import build

PAGES_WRITTEN = {
    "index.md": "# 首页\n\n```python\nprint(1 + 1)\n```\n",
    "two.md": "# 第二页\n\n```python\nprint(2 + 2)\n```\n",
}
CONFIG = """\
site_name: t
use_directory_urls: false
plugins:
  - llmbook:
      language: zh
      offline_check: false
markdown_extensions: [llmbook.extension, pymdownx.superfences]
"""


def _slots(cache: Path, src: str) -> list[Path]:
    """The page's entries in the per-page namespaces."""
    store, page = Store(cache), edition_slot(src, "")
    slots = [store.slot(RESULTS, src), store.slot(PAGES, page), store.slot(CONVERTED, page)]
    slots += [store.slot(STAGES, f"{src}\0{stage}", codec="pickle") for stage in ("load", "plan")]
    return [slot.path for slot in slots]  # type: ignore[misc]


def _files(cache: Path) -> dict[Path, int]:
    return {p: p.stat().st_size for ns in NAMESPACES for p in (cache / ns).glob("*")}


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("LLMBOOK_CACHE_DIR", raising=False)
    monkeypatch.delenv("LLMBOOK_CACHE", raising=False)
    (tmp_path / "docs").mkdir()
    for name, text in PAGES_WRITTEN.items():
        (tmp_path / "docs" / name).write_text(text, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    return tmp_path


def _build(root: Path, caplog: pytest.LogCaptureFixture) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
        build(root / "mkdocs.yml", in_process=True, cache=True)
    return list(caplog.messages)


def test_prune_removes_a_deleted_pages_entries_and_the_warm_build_runs_nothing(
    book: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = book / ".llmbook-cache"
    _build(book, caplog)
    two = _slots(cache, "docs/two.md")
    assert all(path.is_file() for path in two)
    (book / "docs" / "two.md").unlink()
    _build(book, caplog)
    before = _files(cache)

    assert main(["cache", "prune", "-f", str(book / "mkdocs.yml")]) == 0
    after = _files(cache)
    gone = {path: size for path, size in before.items() if path not in after}
    assert set(two) <= gone.keys()  # the deleted page's entries, every one
    assert all(path.is_file() for path in _slots(cache, "docs/index.md"))
    by_namespace: dict[str, list[int]] = {}
    for path, size in gone.items():
        counts = by_namespace.setdefault(path.parent.name, [0, 0])
        counts[0], counts[1] = counts[0] + 1, counts[1] + size
    lines = [f"llmbook cache prune: {cache}: kept what the last build of mkdocs.yml read"]
    for namespace in NAMESPACES:
        if namespace in by_namespace:
            n, size = by_namespace[namespace]
            lines.append(
                f"{namespace}: removed {n} {'entry' if n == 1 else 'entries'}, {size:,} bytes"
            )
    lines.append(
        f"total: removed {len(gone)} entries, {sum(gone.values()):,} bytes; "
        f"kept {len(after)} entries, {sum(after.values()):,} bytes"
    )
    assert capsys.readouterr().out == "\n".join(lines) + "\n"
    assert {RESULTS, STAGES, PAGES, CONVERTED} <= by_namespace.keys()

    said = _build(book, caplog)  # warm after the prune: nothing runs, nothing renders
    assert "llmbook: checked 0 numbers on 1 executed pages (0 pages run)" in said
    assert "llmbook: 0 pages rendered, 1 from the render cache" in said
    (hits,) = [m for m in said if "cache hits: " in m]
    ratios = [part.split(" ")[1] for part in hits.split("cache hits: ")[1].split(", ")]
    assert all(r.split("/")[0] == r.split("/")[1] for r in ratios), hits
    assert _files(cache) == after  # it wrote nothing new
    # Its page came whole from `converted`: the rendered page under it is still kept.
    assert main(["cache", "prune", "-f", str(book / "mkdocs.yml")]) == 0
    assert capsys.readouterr().out.splitlines()[1].startswith("total: removed 0 entries, 0 bytes;")


def test_cache_info_lists_the_books_namespaces(
    book: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    _build(book, caplog)
    assert main(["cache", "info", "-f", str(book / "mkdocs.yml")]) == 0
    lines = capsys.readouterr().out.splitlines()
    cache = book / ".llmbook-cache"
    assert lines[0] == f"llmbook cache info: {cache}, 1 build recorded (last of each: mkdocs.yml)"
    results = sorted((cache / RESULTS).glob("*"))
    size = sum(p.stat().st_size for p in results)
    assert lines[2].split() == ["results", "2", f"{size:,}", "2"]  # both pages' results, read


def test_the_cache_commands_name_a_missing_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "prune", "-f", str(tmp_path / "mkdocs.yml")]) == 2
    assert capsys.readouterr().err == (
        f"llmbook cache prune: {tmp_path / 'mkdocs.yml'} is missing. Fix: run it in the book's "
        "folder, or name its config with -f\n"
    )
    (tmp_path / "mkdocs.yml").write_text(CONFIG, encoding="utf-8")
    assert main(["cache", "prune", "--keep-builds", "0", "-f", str(tmp_path / "mkdocs.yml")]) == 2
    assert capsys.readouterr().err == (
        "llmbook cache prune: --keep-builds 0: keep 1 build or more\n"
    )

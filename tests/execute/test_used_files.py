"""The execution cache follows the files a page really used: a helper module beside the pages, a
data file, llmkit. Editing one re-runs exactly the pages that opened or imported it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import llmbook.execute.stages.cache
import pytest
from llmbook.core.project import Project
from llmbook.core.store import read_entry
from llmbook.execute import Executor

from .conftest import make_config

REPO = Path(__file__).resolve().parents[2]


def _page(code: str) -> str:
    return "```python\n" + textwrap.dedent(code).strip() + "\n```\n"


def _build(make_executor, pages: dict[str, str], **options: object) -> list[str]:
    executor = make_executor(**options)
    report = executor.run_pages(list(pages.items()))
    assert report.failures == []
    return executor.executed


def test_a_helper_module_beside_the_pages(make_executor, tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    helper = tmp_path / "docs" / "_helpers.py"
    helper.write_text("SCALE = 2\n", encoding="utf-8")
    pages = {
        "docs/a.md": _page("from _helpers import SCALE\nprint(SCALE)"),
        "docs/b.md": _page("print(3)"),
    }
    assert _build(make_executor, pages) == ["docs/a.md", "docs/b.md"]
    assert _build(make_executor, pages) == []
    helper.write_text("SCALE = 4\n", encoding="utf-8")
    executor = make_executor()
    report = executor.run_pages(list(pages.items()))
    assert executor.executed == ["docs/a.md"]
    assert report.plans["docs/a.md"].result.blocks[0].output == "4\n"


def test_a_data_file_read_by_a_page(make_executor, tmp_path: Path) -> None:
    data = tmp_path / "docs" / "data" / "lengths.txt"
    data.parent.mkdir(parents=True)
    data.write_text("512 1024\n", encoding="utf-8")
    reader = """
        from pathlib import Path
        path = Path(__file__).parent / "data" / "lengths.txt"
        print(sum(int(n) for n in path.read_text().split()))
    """
    pages = {"docs/a.md": _page("print(1)"), "docs/b.md": _page(reader)}
    assert _build(make_executor, pages) == ["docs/a.md", "docs/b.md"]
    data.write_text("512 2048\n", encoding="utf-8")
    executor = make_executor()
    report = executor.run_pages(list(pages.items()))
    assert executor.executed == ["docs/b.md"]
    assert report.plans["docs/b.md"].result.blocks[0].output == "2560\n"
    data.unlink()  # a file that is gone is a change too
    with pytest.raises(Exception, match="FileNotFoundError"):
        make_executor().run_page(pages["docs/b.md"], src="docs/b.md")


def test_llmkit_is_tracked_by_the_pages_that_import_it(tmp_path, monkeypatch) -> None:
    """The project itself (llmkit lives under its root): the page that imports llmkit records its
    files, the one that does not records none; a changed llmkit file re-runs only the first."""
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "cache"))

    def build() -> Executor:
        executor = Executor(
            make_config(execute_preamble=""), Project.from_config_file(REPO / "mkdocs.yml")
        )
        report = executor.run_pages(list(pages.items()))
        assert report.failures == []
        return executor

    pages = {
        "docs/_a.md": _page("import llmkit\nprint(llmkit.kv_cache_bytes(1, 1, 1, 1))"),
        "docs/_b.md": _page("import numpy\nprint(numpy.int64(4))"),
    }
    first = build()
    assert first.executed == ["docs/_a.md", "docs/_b.md"]
    entries = [read_entry(p).value for p in (tmp_path / "cache" / "results").glob("*.json")]
    used = {entry["src"]: entry["used"] for entry in entries}
    used_a, used_b = used["docs/_a.md"], used["docs/_b.md"]
    assert "llmkit/__init__.py" in used_a and "llmkit/config.py" in used_a
    assert used_b == {}
    assert build().executed == []
    real = llmbook.execute.stages.cache.file_digest
    edited = REPO / "llmkit" / "config.py"
    monkeypatch.setattr(
        llmbook.execute.stages.cache,
        "file_digest",
        lambda path: "edited" if Path(path) == edited else real(path),
    )
    assert build().executed == ["docs/_a.md"]


def test_installed_files_are_keyed_by_size_and_mtime_not_read(make_executor, tmp_path, monkeypatch):
    """A virtual environment inside the project (the SmolLM2 page opens a 100 MB model file that
    a package in .nox/… ships): its data files are keyed by size and mtime, never read for a hash
    on a warm build; its modules are not recorded; changing the file re-runs the page."""
    site = tmp_path / ".venv" / "lib" / "python3.11" / "site-packages"
    (site / "modelpkg").mkdir(parents=True)
    (tmp_path / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    weights = site / "modelpkg" / "weights.bin"
    weights.write_bytes(b"\x01" * 4096)
    (site / "modelpkg" / "__init__.py").write_text("SIZE = 4096\n", encoding="utf-8")
    shared = tmp_path / ".venv" / "share" / "modelpkg" / "vocab.txt"  # no site-packages here
    shared.parent.mkdir(parents=True)
    shared.write_text("a b c\n", encoding="utf-8")
    data = tmp_path / "docs" / "data.txt"  # the project's own file: hashed as always
    data.parent.mkdir(parents=True)
    data.write_text("7\n", encoding="utf-8")
    page = f"""
        import sys
        sys.path.insert(0, {str(site)!r})
        import modelpkg
        n = len(open({str(weights)!r}, "rb").read()) + len(open({str(shared)!r}).read())
        print(n + modelpkg.SIZE + int(open({str(data)!r}).read()))
    """
    pages = {"docs/a.md": _page(page)}
    assert _build(make_executor, pages) == ["docs/a.md"]
    results = tmp_path / ".llmbook-cache" / "results"
    entries = [read_entry(p).value for p in results.glob("*.json")]
    (used,) = [entry["used"] for entry in entries if entry.get("src") == "docs/a.md"]
    prefix = ".venv/lib/python3.11/site-packages/modelpkg"
    stat = weights.stat()
    assert used[f"{prefix}/weights.bin"] == f"stat:{stat.st_size}:{stat.st_mtime_ns}"
    assert used[".venv/share/modelpkg/vocab.txt"].startswith("stat:")
    assert f"{prefix}/__init__.py" not in used  # code of an installed package: not recorded
    assert len(used["docs/data.txt"]) == 64  # the project's own file: its content's SHA-256

    # A warm build reads no installed file for a hash.
    real = llmbook.execute.stages.cache.file_digest

    def no_installed(path):
        assert ".venv" not in Path(path).parts, f"hashed an installed file: {path}"
        return real(path)

    monkeypatch.setattr(llmbook.execute.stages.cache, "file_digest", no_installed)
    assert _build(make_executor, pages) == []
    weights.write_bytes(b"\x01" * 8192)  # an upgraded package: a new file
    executor = make_executor()
    report = executor.run_pages(list(pages.items()))
    assert executor.executed == ["docs/a.md"]
    assert report.plans["docs/a.md"].result.blocks[0].output == f"{8192 + 6 + 4096 + 7}\n"

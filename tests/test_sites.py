"""The test harness itself: what tests/sites.py promises the tests that build sites, and that only
browser tests load playwright."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sites import ROOT, build, once_per_run


class _WorkerTemp:
    """A worker's tmp_path_factory as pytest-xdist lays it out: `<run>/popen-gwN`."""

    def __init__(self, run: Path, worker: str) -> None:
        self.base = run / f"popen-{worker}"

    def getbasetemp(self) -> Path:
        return self.base


def test_once_per_run_makes_once_and_every_worker_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Path] = []

    def make(folder: Path) -> Path:
        made.append(folder)
        (folder / "site").mkdir()
        return folder / "site"

    results = []
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        results.append(once_per_run(_WorkerTemp(tmp_path, worker), "book", make))  # type: ignore[arg-type]
    assert made == [tmp_path / "book"]
    assert results == [tmp_path / "book" / "site"] * 2


def test_once_per_run_makes_again_after_a_worker_failed_halfway(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw0")

    def fail(folder: Path) -> Path:
        (folder / "half").write_text("x", encoding="utf-8")
        raise RuntimeError("build failed")

    with pytest.raises(RuntimeError, match="build failed"):
        once_per_run(_WorkerTemp(tmp_path, "gw0"), "book", fail)  # type: ignore[arg-type]
    site = once_per_run(_WorkerTemp(tmp_path, "gw1"), "book", lambda folder: folder)  # type: ignore[arg-type]
    assert site == tmp_path / "book" and list(site.iterdir()) == []


def test_an_unknown_engine_or_an_in_process_zensical_build_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="engine 'hugo' is not one of"):
        build(tmp_path / "mkdocs.yml", engine="hugo")
    with pytest.raises(ValueError, match="in-process builds run MkDocs' own build"):
        build(tmp_path / "mkdocs.yml", engine="zensical", in_process=True)


def test_the_shared_conftest_does_not_import_playwright() -> None:
    code = (
        "import sys; sys.path.insert(0, 'tests'); import conftest; "
        "print(sorted(m for m in sys.modules if m.startswith('playwright')))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]"

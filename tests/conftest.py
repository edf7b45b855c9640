"""Fixtures shared by every test folder.

  make_site  make_site(pages, config, site="site", **build_options) -> sites.Built: the pages and
             mkdocs.yml written into the test's tmp_path, then built (tests/sites.py says how)
  browser    one headless Chromium per session (Debian's, never `playwright install`). A second
             `sync_playwright()` in the same session would fail, so every browser test takes this.

Playwright is imported by the `browser` fixture only: a test that opens no browser never loads it.

Under pytest-xdist (`nox -s tests` runs two workers, `--dist loadfile`) a module runs on one
worker, so its module-scoped fixtures (a built site, a loaded model) are made once; what several
modules read (the project's site, the rendered demos) is made once per run by `sites.once_per_run`.
The workers take files in collection order (`--no-loadscope-reorder`), and collection puts the slow
ones first: a file with a test marked `slow`, and the book's executed pages (docs/). Each worker
runs torch on one thread (pytest_configure).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from sites import Built, build, write_config, write_pages

DOCS = Path(__file__).resolve().parents[1] / "docs"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist one torch thread per worker (and per process it starts): two workers
    on two cores whose thread pools each want both spin against each other, several times
    slower. A thread count set by the caller is kept."""
    if "PYTEST_XDIST_WORKER" in os.environ and "OMP_NUM_THREADS" not in os.environ:
        os.environ["OMP_NUM_THREADS"] = "1"
        if "torch" in sys.modules:  # imported before this hook: its pool reads no variable now
            sys.modules["torch"].set_num_threads(1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow files first, each file's tests kept in order: started last, a slow file would leave
    the other worker idle until it ends."""
    slow = {item.path for item in items if _is_slow(item)}
    items.sort(key=lambda item: item.path not in slow)  # stable: the rest keep their order


def _is_slow(item: pytest.Item) -> bool:
    return item.get_closest_marker("slow") is not None or DOCS in item.path.parents


@pytest.fixture
def make_site(tmp_path: Path) -> Callable[..., Built]:
    """Write `pages` under tmp_path/docs and `config` as tmp_path/mkdocs.yml, then build."""

    def make(
        pages: Mapping[str, str | bytes],
        config: Mapping[str, Any] | str,
        *,
        site: str = "site",
        dedent: bool = False,
        **options: Any,
    ) -> Built:
        write_pages(tmp_path / "docs", pages, dedent=dedent)
        return build(write_config(tmp_path, config), site=tmp_path / site, **options)

    return make


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()

"""Fixtures shared by every test folder.

  make_site  make_site(pages, config, site="site", **build_options) -> sites.Built: the pages and
             mkdocs.yml written into the test's tmp_path, then built (tests/sites.py says how)
  browser    one headless Chromium per session (Debian's, never `playwright install`). A second
             `sync_playwright()` in the same session would fail, so every browser test takes this.

Playwright is imported by the `browser` fixture only: a test that opens no browser never loads it.

Under pytest-xdist (`nox -s tests` runs two workers, `--dist loadgroup`), the tests of a module
that take one of its module-scoped fixtures (a built site, a loaded model) run on one worker, so
the fixture is made once; every other test goes to whichever worker is free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from sites import Built, build, write_config, write_pages

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


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook turns the marks into group names
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        # pytest keeps the fixtures an item takes in _fixtureinfo (no public spelling of it).
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(defs[-1].scope == "module" for defs in info.name2fixturedefs.values()):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


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

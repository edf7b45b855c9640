"""Browser harness: the built site opened from file:// in Debian's headless Chromium (playwright).

Fixtures for every browser test:
  site_dir     the project's site, built once per test run (execution cache off; pytest-xdist's
               workers share it)
  open_page    open_page("chapters/x.html", dark=False, site=None) -> playwright Page loaded from
               file://; every request is recorded (`page.llmbook_requests`) and any request that
               leaves file:// is blocked and fails the test
  open_shared_page  the same, once per module: a second call for the same page returns the page
               already loaded (a module whose tests set the state they read)
  screenshot   screenshot(page, "name") -> Path under artifacts/screenshots/ (git-ignored)
  build_temp_site  build_temp_site({"a.md": text, ...}) -> site dir of a small site on the
               project's mkdocs.yml (for tests that need pages the book does not have yet),
               built once per test run for the same arguments

Every test here is marked `browser`; all skip only when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route
from sitebuild import ROOT, build_site
from sites import once_per_run, project_site

CHROMIUM = Path("/usr/bin/chromium")  # the same browser as the session fixture in tests/conftest.py

SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.browser)
            if not CHROMIUM.exists():
                item.add_marker(
                    pytest.mark.skip(reason=f"{CHROMIUM} is missing (apt-get install chromium)")
                )


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built once per test run (shared by the workers) in a temporary folder."""
    return project_site(tmp_path_factory)


@pytest.fixture(scope="session")
def build_temp_site(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """Each distinct small site built once per test run: its name is a digest of its arguments."""

    def build(pages: dict[str, str], **kwargs: object) -> Path:
        key = json.dumps([pages, kwargs], sort_keys=True, ensure_ascii=False)
        name = "temp-site-" + hashlib.sha256(key.encode()).hexdigest()[:12]
        return once_per_run(tmp_path_factory, name, lambda root: build_site(root, pages, **kwargs))  # type: ignore[arg-type]

    return build


class PageOpener:
    """Opens pages of a site from file:// in fresh contexts, recording every request; a request
    that leaves file:// is blocked and recorded. `close()` closes them and fails on such a leak."""

    def __init__(self, browser: Browser, default_site: Callable[[], Path]) -> None:
        self.browser, self.default_site = browser, default_site
        self.contexts: list = []
        self.leaks: list[str] = []

    def __call__(self, rel_path: str, dark: bool = False, site: Path | None = None) -> Page:
        root = site if site is not None else self.default_site()
        context = self.browser.new_context(
            color_scheme="dark" if dark else "light", viewport={"width": 1280, "height": 900}
        )
        self.contexts.append(context)
        context.route("**/*", self._guard)
        page = context.new_page()
        page.llmbook_requests = []  # type: ignore[attr-defined]
        page.llmbook_errors = []  # type: ignore[attr-defined]
        page.on("request", lambda request: page.llmbook_requests.append(request.url))
        page.on("pageerror", lambda error: page.llmbook_errors.append(str(error)))
        page.goto((root / rel_path).as_uri())
        page.wait_for_load_state("load")
        return page

    def _guard(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:", "blob:", "about:")):
            route.continue_()
        else:
            self.leaks.append(url)
            route.abort()

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        if self.leaks:
            pytest.fail("requests left file://:\n" + "\n".join(sorted(set(self.leaks))))


@pytest.fixture
def open_page(
    browser: Browser, site_dir_for_pages: Callable[[], Path]
) -> Iterator[Callable[..., Page]]:
    """Open a page of the site from file://; fail the test if any request leaves file://."""
    opener = PageOpener(browser, site_dir_for_pages)
    yield opener
    opener.close()


@pytest.fixture(scope="module")
def open_shared_page(
    browser: Browser, request: pytest.FixtureRequest
) -> Iterator[Callable[..., Page]]:
    """open_page for a whole module: each (page, scheme, site) is loaded once, and every later
    call returns that loaded page as the tests before left it."""
    opener = PageOpener(browser, lambda: request.getfixturevalue("site_dir"))
    pages: dict[tuple, Page] = {}

    def open_(rel_path: str, dark: bool = False, site: Path | None = None) -> Page:
        key = (rel_path, dark, site)
        if key not in pages:
            pages[key] = opener(rel_path, dark, site)
        return pages[key]

    yield open_
    opener.close()


@pytest.fixture
def site_dir_for_pages(request: pytest.FixtureRequest) -> Callable[[], Path]:
    # Lazy, so a test that only opens pages of a temporary site never builds the whole book.
    return lambda: request.getfixturevalue("site_dir")


@pytest.fixture
def screenshot() -> Callable[..., Path]:
    def take(page: Page, name: str, *, full_page: bool = True) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take

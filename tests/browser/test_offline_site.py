"""The built site read offline: opened from file:// in Chromium, nothing fetched from the network,
search finding Chinese terms, navigation, math rendered from MathML, light and dark screenshots.

Two books: a small fixture book (always; it does not wait for the chapters to be written) and the
project's own site (its chapter pages, once docs/chapters/ has them).
"""

from __future__ import annotations

import functools
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route
from sitebuild import FIXTURE_NAV, FIXTURE_PAGES

OpenPage = Callable[..., Page]


@pytest.fixture(scope="module")
def book(build_temp_site: Callable[..., Path]) -> Path:
    return build_temp_site(FIXTURE_PAGES, nav=FIXTURE_NAV)


def search(page: Page, query: str) -> list[str]:
    """Type `query` into Material's search box; the absolute URLs of the result pages, best first."""
    page.keyboard.press("/")  # Material's shortcut: focus the search box
    page.fill("input.md-search__input", query)
    page.keyboard.press("End")  # Material reads the query on keyup, which fill() does not send
    page.wait_for_selector("li.md-search-result__item", timeout=30_000)
    return page.eval_on_selector_all(
        "li.md-search-result__item > a.md-search-result__link",
        "links => links.map(a => a.href.split(/[?#]/)[0])",
    )


def test_every_page_opens_from_file_without_network(book: Path, open_page: OpenPage) -> None:
    for rel in (
        "index.html",
        "chapters/norm.html",
        "chapters/attention.html",
        "chapters/math.html",
    ):
        page = open_page(rel, site=book)
        assert page.url.startswith("file://")
        assert page.llmbook_errors == []  # no script error
        requested = page.llmbook_requests
        assert any(url.endswith("iframe-worker/iframe-worker.js") for url in requested)
        assert all(url.startswith(("file:", "data:", "blob:", "about:")) for url in requested), (
            requested
        )
        # Material's stylesheet applied: the header is styled, so the CSS was found relative to the page.
        assert (
            page.eval_on_selector("header.md-header", "h => getComputedStyle(h).position")
            == "sticky"
        )


@pytest.mark.parametrize(
    ("query", "page", "best"),
    [
        ("均方根", "chapters/norm.html", True),  # in mid-sentence: "只除以均方根而不减均值"
        ("注意力", "chapters/attention.html", False),  # math.html says it more often
        (
            "分组查询注意力",
            "chapters/attention.html",
            True,
        ),  # a term of the project's jieba dictionary
        ("前置归一化", "chapters/norm.html", True),
    ],
)
def test_search_finds_chinese_terms_from_file(
    book: Path, open_page: OpenPage, query: str, page: str, best: bool
) -> None:
    tab = open_page("chapters/math.html", site=book)
    results = search(tab, query)
    assert (book / page).as_uri() in results
    if best:
        assert results[0] == (book / page).as_uri()
    # The search worker ran in the shim's iframe: Chromium refuses real Workers on file://.
    assert tab.evaluate("typeof IFrameWorker === 'function' && Worker === IFrameWorker")


def test_navigation_between_nested_pages(book: Path, open_page: OpenPage) -> None:
    page = open_page("index.html", site=book)
    page.click("nav.md-nav--primary a.md-nav__link[href$='chapters/attention.html']")
    page.wait_for_load_state("load")
    assert page.url == (book / "chapters/attention.html").as_uri()
    assert page.inner_text("article h1").rstrip("¶") == "分组查询注意力"
    page.click("nav.md-nav--primary a.md-nav__link[href$='norm.html']")  # relative from chapters/
    page.wait_for_load_state("load")
    assert page.url == (book / "chapters/norm.html").as_uri()
    page.click("nav.md-nav--primary a.md-nav__link[href$='index.html']")
    page.wait_for_load_state("load")
    assert page.url == (book / "index.html").as_uri()


def test_math_is_rendered_with_sum_limits_under_in_display_and_beside_inline(
    book: Path, open_page: OpenPage, screenshot: Callable[..., Path]
) -> None:
    page = open_page("chapters/math.html", site=book)
    source = FIXTURE_PAGES["chapters/math.md"].split("\n")
    formulas = sum(line == "$$" for line in source) // 2 + sum(
        len(re.findall(r"\$[^$]+\$", line)) for line in source if line != "$$"
    )
    boxes = page.eval_on_selector_all(
        "article math", "ms => ms.map(m => m.getBoundingClientRect().height)"
    )
    assert len(boxes) == formulas > 30 and min(boxes) > 8  # every formula, laid out as math
    # The RMS formula: display ∑ with its index centred under it; the inline copy with it beside.
    layout = page.evaluate(
        """() => [...document.querySelectorAll('article munder')].map(u => {
             const [op, i] = [u.children[0].getBoundingClientRect(), u.children[1].getBoundingClientRect()];
             return {display: u.closest('math').getAttribute('display'),
                     below: i.top >= op.bottom - 0.2 * op.height,
                     beside: i.left >= op.right - 0.1 * op.width};
           })"""
    )
    display = [box for box in layout if box["display"] == "block"]
    inline = [box for box in layout if box["display"] == "inline"]
    assert display and all(box["below"] and not box["beside"] for box in display)
    assert inline and all(box["beside"] and not box["below"] for box in inline)
    texts = page.eval_on_selector_all("article mtext", "ts => ts.map(t => t.textContent)")
    assert "bytes_per_elem" in texts and not any("\\" in t for t in texts)
    screenshot(page, "fixture-math-light")
    dark = open_page("chapters/math.html", dark=True, site=book)
    assert dark.get_attribute("body", "data-md-color-scheme") == "slate"
    screenshot(dark, "fixture-math-dark")


@pytest.mark.slow
def test_project_chapter_pages_offline(
    site_dir: Path, open_page: OpenPage, screenshot: Callable[..., Path]
) -> None:
    chapters = sorted((site_dir / "chapters").glob("*.html"))
    if not chapters:
        pytest.skip(
            "the project has no chapter pages yet (docs/chapters/*.md); the fixture book covers the rest"
        )
    rel = chapters[0].relative_to(site_dir).as_posix()
    page = open_page(rel)
    assert page.llmbook_errors == []
    assert page.locator("article math").count() > 0
    screenshot(page, "chapter-light")
    dark = open_page(rel, dark=True)
    assert dark.get_attribute("body", "data-md-color-scheme") == "slate"
    screenshot(dark, "chapter-dark")
    for query in ("均方根", "注意力"):
        results = search(page, query) if query == "均方根" else search(open_page(rel), query)
        best = Path(results[0].removeprefix("file://"))
        # a content page (the lab page measures attention too) or the glossary that defines
        # the term, not the guide or the index
        assert best.parent.name in {"chapters", "lessons", "labs"} or best.name == "glossary.html"
        assert best.parent.name != "guide" and best.name != "index.html", results
        assert query in best.read_text(encoding="utf-8")


@pytest.fixture
def served_book(book: Path, tmp_path: Path) -> Iterator[str]:
    """The fixture book under a sub-path of a local static host: http://127.0.0.1:PORT/books/llm/."""
    www = tmp_path / "www"
    shutil.copytree(book, www / "books" / "llm")
    handler = functools.partial(_QuietHandler, directory=str(www))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/books/llm/"
    finally:
        server.shutdown()
        server.server_close()


def test_search_and_math_from_a_sub_path_of_a_static_host(
    browser: Browser, served_book: str
) -> None:
    context = browser.new_context()
    outside: list[str] = []

    def guard(route: Route) -> None:
        if route.request.url.startswith(served_book):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", guard)
    try:
        page = context.new_page()
        page.goto(served_book + "chapters/math.html")
        # Over http Material starts a real Worker: the shim leaves `Worker` alone.
        assert page.evaluate("Worker !== IFrameWorker")
        assert search(page, "均方根")[0] == served_book + "chapters/norm.html"
        assert page.locator("article munder").count() > 0
    finally:
        context.close()
    assert outside == []


def test_an_unpacked_zip_opens_and_searches_from_file(
    book: Path, open_page: OpenPage, tmp_path: Path
) -> None:
    archive = shutil.make_archive(str(tmp_path / "book"), "zip", root_dir=book)
    unpacked = tmp_path / "解压后" / "llmbook"
    shutil.unpack_archive(archive, unpacked)
    page = open_page("chapters/attention.html", site=unpacked)
    assert search(page, "均方根")[0] == (unpacked / "chapters/norm.html").as_uri()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base's name)
        pass


def test_the_notebook_page_reads_offline_with_outputs_figures_and_its_download(
    site_dir: Path, open_page: OpenPage, screenshot: Callable[..., Path]
) -> None:
    import json

    page = open_page("notebooks/llama-kv-cache.html")
    assert page.llmbook_errors == []
    assert page.locator("article h1").first.inner_text().startswith("动手")
    assert page.locator("article .llmbook-output").count() >= 5
    figures = page.locator("article figure.llmbook-figure img")
    assert figures.count() == 2
    # Each figure is an SVG file of the site, loaded from file:// and drawn.
    for index in range(2):  # lazy images: scroll each into view, then it must load and draw
        figures.nth(index).scroll_into_view_if_needed()
    page.wait_for_function(
        "() => [...document.querySelectorAll('figure.llmbook-figure img')]"
        ".every(i => i.complete && i.naturalWidth > 200)",
        timeout=10_000,
    )
    checked = page.locator("article .llmbook-num:not(.llmbook-cited)")
    assert checked.count() >= 15
    assert page.locator("article .llmbook-num-drift").count() == 0
    link = page.locator("article .llmbook-download a")
    assert link.get_attribute("download") is not None
    executed = json.loads(
        (site_dir / "notebooks" / link.get_attribute("href")).read_text(encoding="utf-8")
    )
    code = [c for c in executed["cells"] if c["cell_type"] == "code"]
    assert all(c["execution_count"] for c in code)
    assert sum(o["output_type"] == "display_data" for c in code for o in c["outputs"]) == 2
    screenshot(page, "notebook-light")


def test_a_tap_shows_where_a_number_comes_from(site_dir: Path, open_page: OpenPage) -> None:
    page = open_page("chapters/ch10-modern-llm.html")
    number = page.locator("article .llmbook-num:not(.llmbook-cited)").first
    title = number.get_attribute("title")
    assert title and title.endswith("（构建时计算并核对）") and " = " in title
    number.scroll_into_view_if_needed()
    number.click()
    tip = page.locator(".llmbook-num-tip")
    assert tip.count() == 1 and tip.inner_text() == title  # expression and full value
    page.mouse.click(5, 5)
    assert page.locator(".llmbook-num-tip").count() == 0
    number.focus()
    page.keyboard.press("Enter")
    assert page.locator(".llmbook-num-tip").inner_text() == title
    cited = page.locator("article .llmbook-cited").first
    cited.click()
    assert page.locator(".llmbook-num-tip").inner_text().startswith("引用值，未经计算：")

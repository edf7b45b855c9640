"""Rendered pages are cached: a warm build renders nothing, and each input that can change a page's
HTML re-renders exactly the pages it reaches (one test per input). The replayed site is
byte-identical to a fresh rendering."""

from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest
from llmbook.core.store import Store, read_entry
from sites import build
from tiny_demos import forget_tiny_demos, write_tiny_demos

PAGES = {
    "index.md": """\
        # 首页

        ```python
        import torch
        print(torch.arange(3).tolist())
        ```

        ```python
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(2, 1))
        ax.plot([1, 2, 3])
        ax.set_title("一条线")
        ```

        一共 [[3 * 2 = 6]] 个，公式 $d = 1$。

        :::related
        依赖 | 第二页, 细节, 没有的话题
        :::
        """,
    "two.md": "# 第二页\n\n## 细节\n\n正文。\n",
    "plain.md": "# 第三页\n\n只有文字。\n",
}
ALL = ["docs/index.md", "docs/plain.md", "docs/two.md"]

CONFIG = """\
site_name: t
use_directory_urls: false
nav: [{首页: index.md}, {第二页: two.md}, {第三页: plain.md}]
plugins:
  - llmbook:
      language: zh
      offline_check: false
      execute_output_limit: LIMIT
markdown_extensions: [llmbook.extension, pymdownx.superfences, admonition]
"""


class Book:
    def __init__(self, root: Path) -> None:
        self.root = root
        for name, text in PAGES.items():
            self.write(name, textwrap.dedent(text))
        self.configure()

    def write(self, name: str, text: str) -> None:
        path = self.root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def edit(self, name: str, old: str, new: str) -> None:
        path = self.root / "docs" / name
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")

    def configure(self, limit: int = 100_000, extra: str = "", options: str = "") -> None:
        """mkdocs.yml: `options` are more llmbook options (lines), `extra` more top-level keys."""
        text = CONFIG.replace("LIMIT", f"{limit}\n{options}".rstrip()) + extra
        (self.root / "mkdocs.yml").write_text(text, encoding="utf-8")

    def build(self) -> tuple[list[str], dict[str, bytes]]:
        """(the pages this build rendered, the site's files)."""
        config = self.config = build(self.root / "mkdocs.yml", in_process=True).config
        site = self.root / "site"
        files = {
            p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"
        }
        return sorted(config.plugins["llmbook"].site.rendered), files


@pytest.fixture
def book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Book:
    monkeypatch.setenv("LLMBOOK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LLMBOOK_CACHE", raising=False)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    book = Book(tmp_path)
    assert book.build()[0] == ALL
    return book


def test_a_warm_build_renders_nothing_and_gives_the_same_site(book: Book) -> None:
    fresh = book.build
    rendered, warm = fresh()
    assert rendered == []
    for kept in ("pages", "converted"):  # force a fresh render and conversion
        (book.root / "cache" / kept).rename(book.root / "cache" / f"old-{kept}")
    again, cold = fresh()
    assert again == ALL and cold == warm
    html = warm["index.html"].decode()
    assert 'alt="一条线"' in html and '<span class="llmbook-num"' in html and "<math" in html
    figure = html.split('<img src="')[1].split('"')[0]
    assert figure in warm  # a replayed page still ships its figure


def test_the_page_source(book: Book) -> None:
    book.edit("plain.md", "只有文字", "只有一段文字")
    assert book.build()[0] == ["docs/plain.md"]


def test_the_execution_results(book: Book) -> None:
    """Same Markdown, other results (a changed library): the page renders again."""
    store = Store(book.root / "cache")
    for path in (book.root / "cache" / "results").glob("*.json"):
        entry = read_entry(path)
        if entry.value["src"] == "docs/index.md":
            entry.value["blocks"]["0"]["output"] = "[0, 1, 2, 3]\n"
            store.slot("results", "docs/index.md").put(entry.key, entry.value)
    rendered, files = book.build()
    assert rendered == ["docs/index.md"]
    assert "[0, 1, 2, 3]" in files["index.html"].decode()


def test_the_site_index_entries_a_page_read(book: Book) -> None:
    """Renaming the heading `:::related` links to re-renders the linking page, not the others."""
    book.edit("two.md", "## 细节", "## 细节与例子")
    rendered, files = book.build()
    assert rendered == ["docs/index.md", "docs/two.md"]
    assert '<span class="llmbook-chip">细节</span>' in files["index.html"].decode()


def test_the_options(book: Book) -> None:
    book.configure(extra="")  # unchanged
    assert book.build()[0] == []
    text = (book.root / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("offline_check: false", "offline_check: false\n      numbers_strict: true")
    (book.root / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert book.build()[0] == ALL


def test_options_that_only_steer_running_are_not_inputs(book: Book) -> None:
    """A smaller output limit re-renders only through the results it changes (none here)."""
    book.configure(limit=50_000)
    assert book.build()[0] == []


def test_the_markdown_settings(book: Book) -> None:
    text = (book.root / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("admonition]", "admonition, footnotes]")
    (book.root / "mkdocs.yml").write_text(text, encoding="utf-8")
    assert book.build()[0] == ALL


def test_the_page_url(book: Book) -> None:
    text = (book.root / "mkdocs.yml").read_text(encoding="utf-8")
    (book.root / "mkdocs.yml").write_text(text.replace("urls: false", "urls: true"), "utf-8")
    assert book.build()[0] == ALL


def test_llmbook_itself(book: Book, monkeypatch: pytest.MonkeyPatch) -> None:
    import llmbook.site.render_cache

    monkeypatch.setattr(llmbook.site.render_cache, "llmbook_hash", lambda: "another llmbook")
    assert book.build()[0] == ALL


DEMO_PAGE = "# 演示\n\n:::demo tiny 交互：小演示\n它用 tinydep 算。\n:::\n"


@pytest.fixture
def demo_book(book: Book, monkeypatch: pytest.MonkeyPatch) -> Book:
    """The book with a page showing the tiny book's demo (tests/tiny_demos.py), which computes
    with a package of its own, `tinydep`; llmkit cannot be imported (nor found) at all."""
    monkeypatch.setitem(sys.modules, "llmkit", None)
    write_tiny_demos(book.root / "packages", monkeypatch)
    book.write("demo.md", DEMO_PAGE)
    book.configure(options="      demos: [tinydemos]\n      locales: packages/locales")
    assert book.build()[0] == sorted([*ALL, "docs/demo.md"])  # the options changed
    return book


def test_a_book_without_llmkit_keys_and_keeps_its_pages(demo_book: Book) -> None:
    """The render cache names no package of any book: a book without llmkit has its key."""
    assert importlib.util.find_spec("llmkit") is None
    rendered, files = demo_book.build()
    assert rendered == []
    assert demo_book.config.plugins["llmbook"].site.render_cache_key()
    assert "<svg>小 1</svg>" in files["demo.html"].decode()


def test_a_demos_dependency_renders_the_pages_showing_it_again(
    demo_book: Book, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a demo computes with (its registration's DEPENDS) changed: its frame is drawn anew,
    and only the page that shows it renders again."""
    (demo_book.root / "packages" / "tinydep" / "__init__.py").write_text("VALUE = 2\n", "utf-8")
    forget_tiny_demos(monkeypatch)  # as a new build's process would import it
    rendered, files = demo_book.build()
    assert rendered == ["docs/demo.md"]
    assert "<svg>小 2</svg>" in files["demo.html"].decode()
    store = demo_book.config.plugins["llmbook"].site.store
    assert store.counts["demos"] == [0, 1]


def test_no_cache_renders_every_page(book: Book, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    assert book.build()[0] == ALL


def test_the_build_log_counts_rendered_and_cached_pages(book: Book, caplog) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
        book.build()
    assert "llmbook: 0 pages rendered, 3 from the render cache" in caplog.messages

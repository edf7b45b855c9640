"""CI sharding end to end (docs/guide/executable.md, "CI 分片"): two shard builds, each into its
own cache folder, merged by copying, then one build with LLMBOOK_EXECUTE=0, give the site a single
build gives, byte for byte; a merge that lacks a shard fails naming every page it lacks."""

from __future__ import annotations

import io
import logging
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from llmbook.core.store import Store, read_entry
from mkdocs.exceptions import Abort
from sites import build, masked_provenance, write_config, write_pages

# The shards of two (tests/execute/test_shard.py pins them): index.md in 1, the rest in 0.
PAGES = {
    "index.md": """\
        # 首页

        ```python
        total = sum(range(4))
        print(total)
        ```

        一共 [[total = 6]] 个，详见[第一页](one.md#details)。
        """,
    "one.md": """\
        # 第一页

        ## Details

        ```python
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(2, 1))
        ax.plot([1, 2, 3])
        ax.set_title("一条线")
        ```

        ```python
        import torch
        print(torch.arange(3).tolist())
        ```

        三个数之和是 [[sum(torch.arange(3).tolist()) = 3]]。
        """,
    "two.md": "# 第二页\n\n```python\nprint('二')\n```\n",
    "plain.md": "# 第三页\n\n只有文字。\n",
}
SHARD = {0: ["docs/one.md", "docs/plain.md", "docs/two.md"], 1: ["docs/index.md"]}
CONFIG = {
    "site_name": "t",
    "theme": {"name": "material", "font": False},  # nothing loaded from outside (offline check)
    "use_directory_urls": False,
    "nav": [
        {"首页": "index.md"},
        {"第一页": "one.md"},
        {"第二页": "two.md"},
        {"第三页": "plain.md"},
    ],
    "plugins": [{"llmbook": {}}],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


@contextmanager
def logged() -> Iterator[io.StringIO]:
    """Every INFO record and above of a build."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield stream
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


class Book:
    def __init__(self, root: Path) -> None:
        self.root = root
        write_pages(root / "docs", PAGES, dedent=True)
        write_config(root, CONFIG)
        self.logs: dict[str, str] = {}
        self.sites: dict[str, Any] = {}

    def build(self, name: str, cache: str, **env: str) -> Any:
        """Build into site-NAME with the cache in cache-CACHE; the llmbook plugin's Site."""
        env = {"SOURCE_DATE_EPOCH": "1700000000", **env}
        with logged() as log:
            done = build(
                self.root / "mkdocs.yml",
                site=self.root / f"site-{name}",
                in_process=True,
                strict=True,
                cache=self.root / f"cache-{cache}",
                env=env,
            )
        self.logs[name] = log.getvalue()
        self.sites[name] = done.config.plugins["llmbook"].site
        return self.sites[name]

    def files(self, name: str) -> dict[str, bytes]:
        site = self.root / f"site-{name}"
        # sitemap.xml.gz holds gzip's own timestamp; the record of what computed each page,
        # when and whether from the cache (sites.masked_provenance).
        return masked_provenance({
            p.relative_to(site).as_posix(): p.read_bytes()
            for p in sorted(site.rglob("*"))
            if p.is_file() and p.suffix != ".gz"
        })  # fmt: skip

    def merge(self, into: str, *caches: str) -> None:
        """Plain copies of the caches' folders, one over the other."""
        for cache in caches:
            shutil.copytree(
                self.root / f"cache-{cache}", self.root / f"cache-{into}", dirs_exist_ok=True
            )


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Book:
    with pytest.MonkeyPatch.context() as patch:
        for name in ("LLMBOOK_SHARD", "LLMBOOK_EXECUTE", "LLMBOOK_EDITIONS"):
            patch.delenv(name, raising=False)
        book = Book(tmp_path_factory.mktemp("sharded"))
        book.build("single", "single")
        for index in (0, 1):
            book.build(f"shard{index}", f"shard{index}", LLMBOOK_SHARD=f"{index}/2")
        book.merge("merged", "shard0", "shard1")
        book.build("assembled", "merged", LLMBOOK_EXECUTE="0")
        yield book


def test_each_shard_runs_its_own_pages(book: Book) -> None:
    for index in (0, 1):
        executor = book.sites[f"shard{index}"].executor
        coded = [src for src in SHARD[index] if src != "docs/plain.md"]
        assert executor.executed == coded
        assert sorted(executor.left_out) == [p for p in SHARD[1 - index] if p != "docs/plain.md"]
    log = book.logs["shard0"]
    assert "docs/index.md: left to shard 1/2: not run in this build" in log
    assert (
        "shard 0/2: 2 pages of this shard run; 1 pages of other shards neither run nor checked "
        "(shown without outputs: this site is not for publishing; merge the shards' cache "
        "folders and build with LLMBOOK_EXECUTE=0)"
    ) in log


def test_a_shard_builds_every_page_the_others_unchecked(book: Book) -> None:
    """The shard's site is whole (links and nav hold under --strict), its left-out pages bare."""
    files = book.files("shard0")
    # A page left to the other shard has no outputs here, so no notebook (page_notebook.py).
    assert set(files) == set(book.files("single")) - {"index.ipynb"}
    index = files["index.html"].decode()
    assert "llmbook-num-unchecked" in index and "<pre" in index
    assert "llmbook-num-unchecked" not in files["one.html"].decode()


def test_merged_shards_assemble_the_single_builds_site(book: Book) -> None:
    assembled = book.sites["assembled"]
    assert assembled.executor.executed == []  # every page's results came from the shards
    # Each page's render was kept by the shard that ran it: none is rendered again.
    assert sorted(assembled.replayed) == sorted(SHARD[0] + SHARD[1])
    single, merged = book.files("single"), book.files("assembled")
    assert merged.keys() == single.keys()
    assert [name for name in single if merged[name] != single[name]] == []
    assert '<span class="llmbook-num"' in merged["index.html"].decode()


def test_the_shards_caches_merge_without_conflicts(book: Book) -> None:
    """Every entry of a page comes from the shard that ran it; a file both shards wrote (the
    load stage of a page, a page with no code, site-wide memos) holds the same key in both, so
    either copy serves and the merge's order does not matter."""
    folders = [book.root / f"cache-shard{index}" for index in (0, 1)]
    written = [{p.relative_to(f).as_posix() for p in f.rglob("*") if p.is_file()} for f in folders]
    for name in written[0] & written[1]:
        first, second = (read_entry(folder / name) for folder in folders)
        assert first is not None and second is not None and first.key == second.key, name
    for index, folder in enumerate(folders):
        ran = sorted(read_entry(p).value["src"] for p in (folder / "results").iterdir())
        assert ran == [src for src in SHARD[index] if src != "docs/plain.md"]
    # Of the entries kept per page, both shards wrote only those of the page without code.
    plain = {
        Store(folders[0]).slot(namespace, "docs/plain.md").path.relative_to(folders[0]).as_posix()
        for namespace in ("pages", "converted")
    }
    both = written[0] & written[1]
    assert {n for n in both if n.startswith(("results/", "pages/", "converted/"))} == plain


def test_an_assembling_build_without_a_shard_names_every_page_it_lacks(book: Book) -> None:
    book.merge("half", "shard1")
    with logged() as log, pytest.raises(Abort):
        book.build("half", "half", LLMBOOK_EXECUTE="0")
    text = log.getvalue()
    assert "2 pages failed:" in text
    for src, line in (("docs/one.md", 5), ("docs/two.md", 3)):
        assert (
            f"{src}:{line}: execution is switched off (LLMBOOK_EXECUTE=0 or `execute: false` in "
            "mkdocs.yml), and this page has no cached results for its current code Fix: build "
            "once with execution on to fill the cache (sharded: copy the cache folders of all "
            "the LLMBOOK_SHARD builds into this one's first)"
        ) in text


def test_a_bad_shard_stops_the_build(book: Book) -> None:
    with logged() as log, pytest.raises(Abort):
        book.build("bad", "bad", LLMBOOK_SHARD="3/2")
    assert "LLMBOOK_SHARD=3/2 names no shard: the 2 shards are counted from 0" in log.getvalue()


def test_a_shard_makes_no_editions(book: Book) -> None:
    """A book from a build that left pages out would lack their outputs, and is never wanted."""
    dist = book.root / "dist"
    book.build(
        "editions",
        "editions",
        LLMBOOK_SHARD="0/2",
        LLMBOOK_EDITIONS="pdf",
        LLMBOOK_EDITIONS_DIR=str(dist),
    )
    assert "no editions from shard 0/2's build: it left pages out" in book.logs["editions"]
    assert not dist.exists()

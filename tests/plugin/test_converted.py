"""Whole conversions kept between MkDocs builds (converted.py): an unchanged page skips
Python-Markdown, yet the site, its tables of contents, titles and anchor checks are those of a
full build; a change re-converts the pages it touches; a warning comes back every build.

A site's first build runs in the test's process; every build that reads the cache runs in its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cached_builds import ROOT, cached_build, first_build_here
from mkdocs.structure.pages import Page
from sites import masked_provenance, write_config

pytestmark = pytest.mark.slow


# Build in this process, counting the pages Python-Markdown converted (whole or in sections,
# adapters/mkdocs/partial.py: each section is a `Page.render` of its page).
_BUILD = """
import logging
import sys
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.structure.pages import Page
pages = set()
render = Page.render
def counted(self, config, files):
    pages.add(self.file.src_uri)
    return render(self, config, files)
Page.render = counted
logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
build(load_config(sys.argv[1], site_dir=sys.argv[2]))
print("CONVERTED", len(pages))
"""

PAGES = {
    "index.md": "# 首页\n\n见[第二页的小节](two.md#细节)。\n\n## 概览\n\n正文。\n",
    "two.md": "# 第二页\n\n## 细节\n\n```python\nprint('hi')\n```\n\n### 更细\n\n完。\n",
}


def _site(root: Path, extensions: list | None = None, **options: object) -> None:
    docs = root / "docs"
    docs.mkdir(exist_ok=True)
    for name, text in PAGES.items():
        if not (docs / name).exists():
            (docs / name).write_text(text, encoding="utf-8")
    config: dict = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "docs_dir": str(docs),
        "nav": [{"首页": "index.md"}, {"第二页": "two.md"}],
        "validation": {"anchors": "warn"},
    }
    if options:
        # the plugins list replaces the book's: its demos' scripts, which mkdocs.yml still lists,
        # are not shipped, and the check of missing files would stop the build
        options.setdefault("offline_check", False)
        config["plugins"] = ["search", {"llmbook": dict(options)}]
    if extensions is not None:
        config["markdown_extensions"] = extensions
    write_config(root, config)


def _build(root: Path, site: str) -> tuple[int, str]:
    """(pages Python-Markdown converted, the build's log)."""
    done = cached_build(_BUILD, root, site)
    return int(re.search(r"CONVERTED (\d+)", done.stdout).group(1)), done.stderr


def _first_build(root: Path, site: str) -> tuple[int, str]:
    """_build for a site's first build, in this process (`first_build_here`), counted the same
    way: no process start, and the forkserver of the pages' code started once per process."""
    pages: set[str] = set()
    render = Page.render

    def counted(self: Page, config: object, files: object) -> None:
        pages.add(self.file.src_uri)
        return render(self, config, files)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Page, "render", counted)
        _, log = first_build_here(root, site)
    return len(pages), log


def _differ(one: Path, two: Path) -> list[str]:
    names = sorted(p.relative_to(one).as_posix() for p in one.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(two).as_posix() for p in two.rglob("*") if p.is_file())
    # the record of what computed each page (when, whether from the cache) masked
    first, second = (
        masked_provenance({n: (s / n).read_bytes() for n in names}) for s in (one, two)
    )
    return [n for n in names if first[n] != second[n]]


def test_unchanged_pages_skip_the_conversion_and_the_site_is_the_same(tmp_path: Path) -> None:
    _site(tmp_path)
    cold, _ = _first_build(tmp_path, "site1")
    assert cold == 2
    warm, log = _build(tmp_path, "site2")
    assert warm == 0
    assert "0 pages rendered, 2 from the render cache" in log
    assert "WARNING" not in log  # the anchor `two.md#细节` is known without converting two.md
    assert _differ(tmp_path / "site1", tmp_path / "site2") == []
    html = (tmp_path / "site2" / "two.html").read_text(encoding="utf-8")
    assert "<title>第二页" in html and 'href="#细节"' in html  # title and table of contents

    (tmp_path / "docs" / "two.md").write_text(PAGES["two.md"] + "\n再加一句。\n", "utf-8")
    edited, _ = _build(tmp_path, "site3")
    assert edited == 1
    assert _differ(tmp_path / "site1", tmp_path / "site3") != []

    (tmp_path / "docs" / "three.md").write_text("# 第三页\n", "utf-8")  # the site's files changed
    added, _ = _build(tmp_path, "site4")
    assert added == 3


def test_a_link_to_a_missing_anchor_is_reported_on_every_build(tmp_path: Path) -> None:
    # MkDocs checks anchors after all pages are converted: a kept page still takes part.
    _site(tmp_path)
    (tmp_path / "docs" / "index.md").write_text(
        "# 首页\n\n见[没有的小节](two.md#没有)。\n", "utf-8"
    )
    warning = (
        "Doc file 'index.md' contains a link 'two.md#没有', but the doc 'two.md' does not "
        "contain an anchor '#没有'."
    )
    first, log = _first_build(tmp_path, "site1")
    assert warning in log
    second, log = _build(tmp_path, "site2")
    assert (first, second) == (2, 0) and warning in log


def test_a_page_that_warns_while_converting_is_not_kept(tmp_path: Path) -> None:
    # the link to no file warns in MkDocs; llmbook's check of missing files would stop the build
    _site(tmp_path, offline_check=False)
    (tmp_path / "docs" / "index.md").write_text("# 首页\n\n见[别处](nope.md)。\n", "utf-8")
    warning = "Doc file 'index.md' contains a link 'nope.md', but the target is not found"
    first, log = _first_build(tmp_path, "site1")
    assert warning in log
    second, log = _build(tmp_path, "site2")
    assert (first, second) == (2, 1) and warning in log


def test_auto_leaves_the_cache_off_for_an_extension_it_cannot_vouch_for(tmp_path: Path) -> None:
    _site(tmp_path, extensions=["llmbook.extension", "toc", "pymdownx.snippets"])
    assert _first_build(tmp_path, "site1")[0] == 2
    warm, log = _build(tmp_path, "site2")
    assert warm == 2
    assert (
        "converted pages are not cached (cache_converted: auto): pymdownx.snippets may keep "
        "state a cached page would not give it"
    ) in log


def test_off_converts_every_page(tmp_path: Path) -> None:
    _site(tmp_path, cache_converted="off")
    _first_build(tmp_path, "site1")
    assert _build(tmp_path, "site2")[0] == 2


def test_a_site_with_the_plugin_disabled_keeps_no_conversion(tmp_path: Path) -> None:
    # Nothing went through llmbook's render: there is no figure or lookup record to keep with it.
    _site(tmp_path, enabled=False)
    assert _first_build(tmp_path, "site1")[0] == 2
    assert _build(tmp_path, "site2")[0] == 2

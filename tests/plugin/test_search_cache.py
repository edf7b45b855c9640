"""Material's search index made once per page content (llmbook/core/search_cache.py): the index a
build writes is the one the search plugin makes without llmbook's cache, and a warm build or a
punctuation edit never loads jieba."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from sites import build, write_config, write_pages

CONFIG = {
    "site_name": "搜索",
    "theme": {"name": "material", "font": False, "language": "zh"},
    "plugins": [{"search": {"lang": "zh"}}, {"llmbook": {"offline_check": False}}],
    "markdown_extensions": ["toc", "pymdownx.superfences", "llmbook.extension"],
}
PAGES = {
    "index.md": "# 首页\n\n键值缓存把算过的键和值留在显存里。\n\n## 分组查询注意力\n\n几个查询头共用一组键值。\n",
    "two.md": "---\ntags: [缓存]\n---\n# 第二页\n\n旋转位置编码按位置旋转向量。\n",
}
# Builds the site twice in one process (the second warm), then says whether jieba loaded.
TWICE = textwrap.dedent(
    """\
    import sys
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    build(load_config(sys.argv[1], site_dir=sys.argv[2]))
    import jieba
    loaded = jieba.dt.initialized
    jieba.dt.initialized = False  # what the second build loads, alone
    build(load_config(sys.argv[1], site_dir=sys.argv[2]))
    print("JIEBA", loaded, jieba.dt.initialized)
    """
)


def _index(site: Path) -> list:
    return json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))["docs"]


@pytest.fixture
def book(tmp_path: Path) -> Path:
    write_pages(tmp_path / "docs", PAGES)
    return write_config(tmp_path, CONFIG)


def test_the_index_is_the_search_plugins_own(book: Path, tmp_path: Path) -> None:
    plain = build(book, site=tmp_path / "plain", cache=False).ok()  # no llmbook cache
    done = build(book, site=tmp_path / "site", cache=True, script=TWICE).ok()
    assert "JIEBA True False" in done.stdout  # loaded to segment, then not at all
    assert _index(done.site) == _index(plain.site)
    assert "\u200b显存\u200b" in json.dumps(_index(done.site), ensure_ascii=False)


@pytest.mark.parametrize(
    ("old", "new", "loads"),
    [("。", "！", False), ("留在显存里", "存在内存里", True)],
    ids=["punctuation", "words"],
)
def test_an_edit_segments_only_its_new_words(
    book: Path, tmp_path: Path, old: str, new: str, loads: bool
) -> None:
    build(book, site=tmp_path / "site", cache=True).ok()
    page = tmp_path / "docs" / "index.md"
    page.write_text(PAGES["index.md"].replace(old, new, 1), encoding="utf-8")
    done = build(book, site=tmp_path / "site", cache=True, script=TWICE).ok()
    assert f"JIEBA {loads} False" in done.stdout
    plain = build(book, site=tmp_path / "plain", cache=False).ok()
    assert _index(done.site) == _index(plain.site)


def test_a_second_build_in_one_process_reads_what_the_first_kept(
    book: Path, tmp_path: Path
) -> None:
    """`mkdocs serve` builds again in its process: the search plugin names its dictionaries
    again, and the kept entries still match (jieba loaded for neither build)."""
    build(book, site=tmp_path / "site", cache=True).ok()
    done = build(book, site=tmp_path / "site", cache=True, script=TWICE).ok()
    assert "JIEBA False False" in done.stdout

"""The book's parts in a built site: numbered captions and equations, link titles, a stale
reference stopping the build (MkDocs and Zensical) or shown on its page (live preview), and a
warm build re-rendering exactly the pages whose references' targets changed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import ROOT, build, write_config, write_pages

pytestmark = pytest.mark.slow

NAV = [{"第 1 章": "ch1.md"}, {"实验": "lab.md"}, {"其他": "other.md"}]
CH1 = """\
# 第 1 章 · 注意力

## 1.1 缩放点积 {#scaled}

正文。

## 1.2 多头 {#heads}

| 头 | 维 |
| --- | --- |
| a | b |

/// table-caption | #tbl-heads
每个头的维度
///

$$
y = x
$$ {#eq-identity}
"""
LAB = "# 实验\n\n见[1.2 节](ch1.md#heads)、[表 1-1](ch1.md#tbl-heads)与[式 (1.1)](ch1.md#eq-identity)。\n"
OTHER = "# 其他\n\n没有引用。\n"
# In-process builds: the llmbook plugin and the Markdown the pages use, nothing else.
SMALL = """\
site_name: t
use_directory_urls: false
theme: {name: mkdocs, language: zh}
nav: [{第 1 章: ch1.md}, {实验: lab.md}, {其他: other.md}]
plugins:
  - llmbook:
      offline_check: false
markdown_extensions:
  - llmbook.extension
  - attr_list
  - tables
  - toc
  - pymdownx.superfences
  - pymdownx.blocks.caption:
      auto: false
"""


def _write(root: Path, **pages: str) -> Path:
    """A project folder both engines build from (docs/ and the search dictionary beside it)."""
    pages = {"index.md": "# 首页\n", **pages}  # the home page the theme links
    write_pages(root / "docs", {"ch1.md": CH1, "lab.md": LAB, "other.md": OTHER, **pages})
    return write_config(root, {"INHERIT": str(ROOT / "mkdocs.yml"), "nav": NAV})


def test_captions_equations_and_links_carry_their_numbers(tmp_path):
    built = build(_write(tmp_path), site=tmp_path / "site", strict=True, cache=False).ok()
    chapter, lab = built.page("ch1.html"), built.page("lab.html")
    assert re.search(
        r'<figure id="tbl-heads">.*<figcaption>\s*<p><span class="caption-prefix">表 1-1</span>'
        r" 每个头的维度</p>",
        chapter,
        re.S,
    )
    assert '<div class="llmbook-equation-anchor" id="eq-identity"></div>' in chapter
    assert '<span class="llmbook-equation__number">(1.1)</span>' in chapter
    assert '<a href="ch1.html#heads" title="多头">1.2 节</a>' in lab
    assert '<a href="ch1.html#tbl-heads" title="每个头的维度">表 1-1</a>' in lab
    assert "references: 3 checked, 0 unbound" in built.stderr


@pytest.mark.parametrize("engine", ["mkdocs", "zensical"])
def test_a_stale_reference_stops_the_build_at_its_line(tmp_path, engine):
    config = _write(tmp_path, **{"lab.md": "# 实验\n\n见[1.3 节](ch1.md#heads)。\n"})
    site = tmp_path / "site" if engine == "mkdocs" else None  # Zensical has no -d
    built = build(config, site=site, engine=engine, cache=False)
    assert built.returncode != 0
    assert (
        "docs/lab.md:3: written 1.3 节, the target is now 1.2 节 (多头): [1.3 节](ch1.md#heads) "
        "Fix: write 1.2 节, or link the section you mean"
    ) in built.stdout + built.stderr


def _small(root: Path, **pages: str) -> Path:
    write_pages(root / "docs", {"ch1.md": CH1, "lab.md": LAB, "other.md": OTHER, **pages})
    return write_config(root, SMALL)


def test_the_live_preview_shows_a_stale_reference_on_its_page(tmp_path):
    config = _small(tmp_path, **{"lab.md": "# 实验\n\n见[1.3 节](ch1.md#heads)。\n"})
    built = build(config, site=tmp_path / "site", in_process=True, command="serve", cache=False)
    lab = built.page("lab.html")
    assert 'class="llmbook-build-error"' in lab
    assert "docs/lab.md:3: written 1.3 节, the target is now 1.2 节 (多头)" in lab


def test_a_warm_build_re_renders_exactly_the_pages_that_reference_a_changed_heading(tmp_path):
    cache = tmp_path / "cache"
    config = _small(tmp_path)
    cold = build(config, site=tmp_path / "one", in_process=True, cache=cache)
    assert sorted(cold.config.plugins["llmbook"].site.rendered) == [
        "docs/ch1.md",
        "docs/lab.md",
        "docs/other.md",
    ]
    (tmp_path / "docs" / "ch1.md").write_text(CH1.replace("## 1.2 多头", "## 1.2 多头注意力"))
    warm = build(config, site=tmp_path / "two", in_process=True, cache=cache)
    site = warm.config.plugins["llmbook"].site
    assert sorted(site.rendered) == ["docs/ch1.md", "docs/lab.md"]
    assert site.replayed == ["docs/other.md"]
    assert 'title="多头注意力">1.2 节</a>' in warm.page("lab.html")

"""A page converted in sections (site/partial_render.py, adapters/mkdocs/partial.py): whatever the
page holds, the sections put together are byte for byte one conversion of the whole page (HTML,
table of contents, title, anchors, links), first, from the store, and after an edit; a page with
what crosses sections is one section."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from cached_builds import ROOT, cached_build
from llmbook.site.partial_render import crossing, local, relevant, sections
from sites import build, project_site, write_config

# In a build's process: every page converted whole and in sections (fresh, then from the store,
# then after one character of its prose changed), compared; what differs is printed.
COMPARE = """
import difflib, os, re, sys
from mkdocs.config import load_config
from mkdocs.structure.files import get_files
from mkdocs.structure.nav import get_navigation
from mkdocs.structure.pages import Page

def snap(page):
    toc = lambda items: [(i.level, i.id, i.title, toc(i.children)) for i in items]
    links = {f.src_uri: a for f, a in (page.links_to_anchors or {}).items()}
    return [page.content, toc(page.toc), page._title_from_render,
            sorted(page.present_anchor_ids or ()), links]

config = load_config(sys.argv[1], site_dir=sys.argv[2])
config.plugins.on_startup(command=sys.argv[3] if len(sys.argv) > 3 else "build", dirty=False)
config = config.plugins.on_config(config)
files = config.plugins.on_files(get_files(config), config=config)
config.plugins.on_nav(get_navigation(files, config), config=config, files=files)
plugin = config.plugins["llmbook"]
root = os.path.dirname(os.path.abspath(sys.argv[1]))
for file in files.documentation_pages():
    page = file.page or Page(None, file, config)
    page.read_source(config)
    source = config.plugins.on_page_markdown(page.markdown, page=page, config=config, files=files)
    src = os.path.relpath(file.abs_src_path, root).replace(os.sep, "/")
    stops = [m.start() for m in re.finditer("。|[.] ", source)] or [len(source) - 1]
    at = stops[len(stops) // 2]  # a sentence's end in the middle of the page
    edited = source[:at] + "．" + source[at + 1:]
    # a heading renamed as the last one: that one, kept, must take the id's `_1` now
    heads = re.findall("^## .*$", source, re.M)
    renamed = source.replace(heads[0], heads[-1], 1) if len(heads) > 1 else edited
    cases = [("fresh", source), ("stored", source)]
    if src.endswith(".md") and source == page.markdown:
        cases += [("edited", edited), ("renamed", renamed)]
    for case, text in cases:
        if case in ("edited", "renamed"):  # as the build sees the file: its plan for the text
            plugin.site.refresh(src, text.encode())
        page.markdown = text
        plugin._extension._rendered = None
        Page.render(page, config, files)
        whole = snap(page)
        plugin._extension._rendered = None
        partial = plugin._partial_pages(config, files)
        before = partial.converted
        partial.render(page, src, config, files)
        print("CONVERTED", src, case, partial.converted - before)
        for name, one, two in zip(("content", "toc", "title", "anchors", "links"), whole, snap(page)):
            if one != two:
                print("DIFF", src, case, name)
                print("\\n".join(difflib.unified_diff(str(one).split("\\n"), str(two).split("\\n"), lineterm="")))
    partial = plugin._partial_pages(config, files)
    print("PAGE", src, "SPLIT" if src in partial.split else partial.whole.get(src, "ONE"))
"""

TRICKY = {
    "index.md": """\
        # 首页

        正文。见 [式 (1)](tricky.md#eq-a) 与[重复](tricky.md#重复_1)。

        ## 1 概览

        概览的正文。
        """,
    "tricky.md": """\
        # 棘手的一页

        开头一段。

        ## 1 重复

        第一节。行内 $x^2$。

        ## 2 重复

        第二节，有表格：

        | a | b |
        |---|---|
        | 1 | 2 |

        $$
        E = mc^2
        $$ {#eq-a}

        见 [式 (1)](#eq-a)。

        !!! note "提示"

            正文在框里。

        ## 3 代码

        ```python
        # 不是标题
        print(1)
        ```

        <div markdown>

        ## 在 HTML 里

        还在 HTML 里。

        </div>

        ## 4 重复_1

        再来。
        {#甲}

        ## 甲

        末节。

        ## 5 缩进代码

            indented code


        ## 6 两个空行之后

        正文。


        ## 7 又是两个空行

        完。
        """,
    "notes.md": "# 脚注\n\n正文[^1]。\n\n## 1 二\n\n更多[^2]。\n\n[^1]: 一。\n[^2]: 二。\n",
    "refs.md": "# 引用\n\n见[首页][x]。\n\n## 1 二\n\n正文。\n\n[x]: index.md\n",
    "abbr.md": "# 缩写\n\nHTML 很好。\n\n## 1 二\n\nHTML 也好。\n\n*[HTML]: 超文本\n",
}


def _site(root: Path, pages: dict[str, str] = TRICKY) -> None:
    docs = root / "docs"
    docs.mkdir()
    for name, text in pages.items():
        (docs / name).write_text(re.sub(r"(?m)^        ", "", text), encoding="utf-8")
    config = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "docs_dir": str(docs),
        "nav": [{name: name} for name in pages],
        "plugins": ["search", {"llmbook": {"offline_check": False}}],
    }
    write_config(root, config)


def _compare(root: Path, command: str = "build") -> str:
    script = COMPARE.replace("sys.argv[3] if len(sys.argv) > 3 else", f"{command!r} or")
    return cached_build(script, root, "site").stdout


@pytest.mark.slow
def test_sections_put_together_are_the_whole_conversion(tmp_path: Path) -> None:
    _site(tmp_path)
    out = _compare(tmp_path)
    assert "DIFF" not in out, out
    assert "PAGE docs/tricky.md SPLIT" in out
    # the edit is in one section: the others come from the store
    # 9 headings outside code and HTML; none is cut after an indented line (an admonition's
    # body before `## 3`, indented code before `## 6`); one more cut before a paragraph
    assert "CONVERTED docs/tricky.md fresh 8" in out
    assert "CONVERTED docs/tricky.md stored 0" in out
    assert "CONVERTED docs/tricky.md edited 1" in out
    # the renamed heading's section and the last one (the id it held is taken now), a few at
    # most, converted again: the others are kept
    renamed = int(re.search(r"CONVERTED docs/tricky.md renamed (\d+)", out).group(1))
    assert 2 <= renamed <= 3
    assert "PAGE docs/index.md SPLIT" in out
    assert "PAGE docs/notes.md ['footnotes', 'reference-style link definitions']" in out
    assert "PAGE docs/refs.md ['reference-style link definitions']" in out
    assert "PAGE docs/abbr.md ['abbreviations', 'reference-style link definitions']" in out


@pytest.mark.slow
def test_the_live_preview_converts_in_sections_with_its_error_boxes(tmp_path: Path) -> None:
    broken = "# 有错的一页\n\n开头。\n\n## 1 错\n\n:::nosuch\n正文。\n:::\n\n## 2 后面\n\n完。\n"
    _site(tmp_path, {**TRICKY, "broken.md": broken})
    out = _compare(tmp_path, "serve")
    assert "DIFF" not in out, out
    assert "PAGE docs/broken.md SPLIT" in out
    assert "CONVERTED docs/broken.md edited 1" in out


@pytest.mark.slow
def test_the_books_pages_in_sections_are_their_whole_conversion(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Every page of this book: fresh, from the store, after an edit; its code's results from
    the cache of the project's site, built once per test run (its sections in a copy)."""
    cache = tmp_path / "cache"
    shutil.copytree(project_site(tmp_path_factory).parent / "cache", cache)
    shutil.rmtree(cache / "sections", ignore_errors=True)
    done = build(ROOT / "mkdocs.yml", site=tmp_path / "site", script=COMPARE, cache=cache, cwd=ROOT)
    out = done.ok().stdout
    assert "DIFF" not in out, out
    assert "PAGE docs/chapters/ch10-modern-llm.md SPLIT" in out
    assert "CONVERTED docs/chapters/ch10-modern-llm.md stored 0" in out
    assert "CONVERTED docs/chapters/ch10-modern-llm.md edited 1" in out


def test_a_page_is_cut_before_headings_outside_code_html_and_blocks() -> None:
    lines = (
        "# T\n\nA.\n\n## B\n\n```\n\n# no\n```\n\n<div>\n\n# no\n\n</div>\n\n"
        "/// caption\n\n# no\n\n///\n\n# C\n\n\n# D: two empty lines\n\n    code\n\n# no"
    ).split("\n")
    cuts = sections(lines)
    assert [lines[cut.start] for cut in cuts] == ["# T", "## B", "# C", "# D: two empty lines"]
    assert [lines[cut.stop - 1] for cut in cuts] == ["A.", "///", "# C", "# no"]


def test_a_long_section_is_cut_before_a_paragraph_too() -> None:
    lines = (
        "# T\n\nOne.\n\n- a list\n\n> a quote\n\n: a definition\n\n二。\n\n    code\n\nno".split(
            "\n"
        )
    )
    starts = [lines[cut.start] for cut in sections(lines, least=1)]
    assert starts == ["# T", "One.", "二。"]
    assert len(sections(lines)) == 1  # shorter than a section's least lines


def test_what_crosses_sections_is_named() -> None:
    assert crossing("a[^1]") == ["footnotes"]
    assert "abbreviations" in crossing("*[HTML]: x")
    assert crossing("- [x]: y") == ["reference-style link definitions"]
    assert crossing('[TOC]\n\n=== "a"') == ["[TOC] markers", "tabbed blocks"]
    assert crossing("d[k]: v and `x[1]:`, `[TOC]` in a sentence") == []


def test_a_sections_placeholders_count_from_its_first_piece() -> None:
    text = "a \x02wzxhzdk:3\x03 b"
    pieces = ["p0", "p1", "p2", "x \x02wzxhzdk:1\x03"]
    assert local(text, pieces) == ("a \x02wzxhzdk:1\x03 b", ["p1", "x \x02wzxhzdk:0\x03"])


def test_only_ids_of_the_same_stem_can_change_a_sections_ids() -> None:
    assert relevant({"a", "a_1", "b", "ab_2"}, {"a_2", "c"}) == ["a", "a_1"]

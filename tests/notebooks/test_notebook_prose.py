"""A page's Markdown as a Jupyter notebook's cells (site/notebook_prose.py): prose in a form Jupyter
shows, each directive in its notebook form, and a code cell where each block that ran stands."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from llmbook.directives import shipped
from llmbook.site import notebook_prose
from llmbook.site.notebook_lines import Links
from llmbook.site.notebook_prose import CodeCell, ProseCell, page_cells, prose_context
from sites import ROOT, build, project_site, write_config, write_pages

CONFIG = """\
site_name: t
use_directory_urls: false
theme: {name: mkdocs, language: zh}
plugins:
  - llmbook:
      offline_check: false
markdown_extensions:
  - llmbook.extension
  - attr_list
  - tables
  - toc
  - admonition
  - pymdownx.superfences
  - pymdownx.blocks.caption:
      auto: false
"""

INDEX = "# 首页\n\n见 [10.1 节](ch.md#cache)，图在 ![图](img/a.png)。\n"

PAGE = """\
---
chapter: 10
---
# 第 10 章 · 测试

!!! note "本页 [[1 + 1 = 2]] 个"
    缩进的正文 $x^2$。

```python hidden
x = 21
```

## 10.1 缓存 {#cache}

一共 [[x * 2 = 42]] 个，公式 $y = [[x = 21]]$，见[式 (10.1)](#eq-a)和[首页](index.md)。

$$
a = [[x * 100 = 2,100]]
$$ {#eq-a}

| a | b |
| --- | --- |
| [[x = 21]] | [[~2]] |
| [[5% @ 某论文, 表 1]] | 3 |

/// table-caption | #tbl-a
一张表
///

:::fold 工程里怎么用
先看：

```python
print(x)
```

然后 [[x = 21]]。
:::

```python norun
print("no")
```

```text
plain
```

```python
print(x + 1)
```
<!--pytest-codeblocks:expected-output-->
```
22
```

:::warning
小心 [[x = 21]]。
:::

:::hint
想一想。
:::

:::quiz
问题是 [[x = 21]] 吗？

A. 是 [[x = 21]]
B. 不是

答案: A
解析: 因为 x 是 [[x = 21]]。
第二行。
:::

:::exercise 练习题 [[x = 21]] {#ex-a}
题目

:::solution
解答 [[x = 21]]
:::
:::

:::interview 面试
**Q**

:::answer
答
:::
:::

:::tabs
:::tab 甲
一
:::
:::tab 乙
二
:::
:::

:::shapeflow
Q [B, 32, S, d] × Kᵀ [B, 32, d, S] → scores [B, 32, S, S]
:::

:::related
依赖 | 缓存, 不存在的话题
:::

:::glossary
:::
"""

LESSON = """\
# 第 3 课：卡片

:::progress
:::

:::card 1 第一张 [[2 + 1 = 3]] 个
正文。

:::walkthrough 走查
:::step Step 1：表
一步。
:::
:::step Step 2：再算
```python
y = 2
```
两步。
:::
:::
:::
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """A small book built in this process: its `Site`, as the build left it."""
    root = tmp_path_factory.mktemp("prose")
    write_pages(root / "docs", {"index.md": INDEX, "ch.md": PAGE, "lesson.md": LESSON})
    (root / "docs" / "img").mkdir()
    (root / "docs" / "img" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    built = build(write_config(root, CONFIG), site=root / "site", in_process=True, cache=False)
    return built.config.plugins["llmbook"].site


def cells_of(site: Any, src: str) -> list[ProseCell | CodeCell]:
    return page_cells(prose_context(site, src))


def prose(cells: list[ProseCell | CodeCell]) -> str:
    return "\n\n".join(c.markdown for c in cells if isinstance(c, ProseCell))


def line_of(src: Path | str, text: str) -> int:
    """The 1-based line of the page that starts with `text`."""
    lines = (PAGE if src == "ch" else LESSON).split("\n")
    return next(n for n, line in enumerate(lines, start=1) if line.startswith(text))


def test_every_block_that_ran_is_a_code_cell_in_order_hidden_and_nested_ones_too(site):
    cells = cells_of(site, "docs/ch.md")
    code = [c.line for c in cells if isinstance(c, CodeCell)]
    plan = site.report.plans["docs/ch.md"]
    assert code == [b.line for b in plan.page.blocks if b.runs]
    assert code == [
        line_of("ch", "```python hidden"),
        line_of("ch", "print(x)") - 1,
        line_of("ch", "print(x + 1)") - 1,
    ]


def test_front_matter_is_not_prose_and_a_cell_starts_at_each_section(site):
    cells = cells_of(site, "docs/ch.md")
    assert isinstance(cells[0], ProseCell)
    assert cells[0].markdown.startswith("# 第 10 章 · 测试\n")
    assert "chapter: 10" not in prose(cells)
    assert any(isinstance(c, ProseCell) and c.markdown.startswith("## 10.1 缓存\n") for c in cells)


def test_bound_numbers_show_their_values_and_none_is_left(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "一共 42 个" in text
    assert "| 21 | 2<sup>示意</sup> |" in text  # checked and illustrative, in a table
    assert "| 5%（某论文, 表 1） | 3 |" in text  # a cited number, its source after it
    assert "[[" not in text and "]]" not in text


def test_math_is_kept_for_jupyter_its_numbers_written_as_tex_writes_them(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "公式 $y = 21$" in text
    assert "$$\na = 2{,}100\n\\tag{10.1}$$" in text  # a labelled equation tagged with its number
    assert "缩进的正文 $x^2$" in text


def test_references_and_links_lead_to_the_sites_pages_from_the_notebook(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "见[式 (10.1)](ch.html#eq-a)和[首页](index.html)" in text
    assert "## 10.1 缓存\n" in text and "{#cache}" not in text
    home = prose(cells_of(site, "docs/index.md"))
    assert home == "# 首页\n\n见 [10.1 节](ch.html#cache)，图在 ![图](img/a.png)。"


def test_links_from_a_notebook_with_directory_urls():
    def url_of(uri: str) -> str:
        stem = uri.rsplit(".", 1)[0]
        return stem[: -len("index")] if stem.endswith("index") else stem + "/"

    links = Links("chapters/ch10.md", "chapters/ch10.ipynb", url_of)
    assert links.href("#gqa") == "ch10/#gqa"
    assert links.href("../lessons/lesson03.md#rope") == "../lessons/lesson03/#rope"
    assert links.href("../index.md") == "../"
    assert links.href("../assets/a.png") == "../assets/a.png"
    assert links.href("https://example.org/x.md") == "https://example.org/x.md"
    assert links.page() == "ch10/"


def test_a_directive_is_cut_around_a_block_that_ran_each_part_still_in_its_box(site):
    cells = cells_of(site, "docs/ch.md")
    at = next(i for i, c in enumerate(cells) if c == CodeCell(line_of("ch", "print(x)") - 1))
    before, after = cells[at - 1], cells[at + 1]
    assert isinstance(before, ProseCell) and isinstance(after, ProseCell)
    assert before.markdown.endswith("> **工程里怎么用**\n>\n> 先看：")
    assert after.markdown.startswith("> 然后 21。\n")


def test_fences_that_did_not_run_stay_fences_of_the_prose_without_their_tags(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert '```python\nprint("no")\n```' in text
    assert "```text\nplain\n```" in text
    assert "norun" not in text and "hidden" not in text
    assert "22" not in text  # an expected output: the code cell before shows it


def test_an_admonition_and_a_caption_as_jupyter_shows_them(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "> **本页 2 个**\n>\n> 缩进的正文 $x^2$。" in text
    assert "\n*表 10-1 一张表*\n" in text and "///" not in text


def test_boxes_are_blockquotes_under_their_titles_a_folding_one_folded(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "> **注意**\n>\n> 小心 21。" in text  # a box without a title: its default one
    assert "<details><summary>提示</summary>\n\n想一想。\n\n</details>" in text


def test_a_quiz_shows_its_question_its_options_and_its_answer_folded(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert (
        textwrap.dedent("""\
        > **小测验**
        >
        > 问题是 21 吗？
        >
        > - **A.** 是 21
        > - **B.** 不是
        >
        > <details><summary>答案与解析</summary>
        >
        > 答案：**A**
        >
        > 因为 x 是 21。
        > 第二行。
        >
        > </details>""")
        in text
    )


def test_an_exercise_is_numbered_and_its_solution_folded(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "> **练习 10-1 练习题 21**\n>\n> 题目\n>\n> <details><summary>解答</summary>" in text
    assert "> 解答 21\n>\n> </details>" in text


def test_an_interviews_answers_are_folded_in_its_box(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "> **面试**\n>\n> **Q**\n>\n> <details><summary>查看答案</summary>\n>\n> 答\n" in text


def test_tabs_shape_flows_related_topics_and_site_lists(site):
    text = prose(cells_of(site, "docs/ch.md"))
    assert "> **甲**\n>\n> 一\n\n> **乙**\n>\n> 二" in text
    assert "```text\nQ [B, 32, S, d] × Kᵀ [B, 32, d, S] → scores [B, 32, S, S]\n```" in text
    assert "- **依赖**: [缓存](ch.html#cache)、不存在的话题" in text
    assert "[（在术语表页上，这里展开为全书的术语）](ch.html)" in text
    assert ":::" not in text


def test_a_card_is_a_section_and_progress_is_left_out(site):
    cells = cells_of(site, "docs/lesson.md")
    text = prose(cells)
    assert "## 1、第一张 3 个\n\n正文。" in text
    assert "progress" not in text and ":::" not in text
    assert "> **走查**\n>\n> **Step 1：表**\n>\n> 一步。\n>\n> **Step 2：再算**" in text
    assert CodeCell(line_of("lesson", "```python")) in cells


def test_the_notebook_prose_names_no_directive():
    """It asks each directive for its form through the build's registry, as the editions do."""
    folder = Path(notebook_prose.__file__).parent
    text = "".join(
        (folder / f).read_text("utf-8") for f in ("notebook_prose.py", "notebook_lines.py")
    )
    named = [
        d.NAME
        for d in shipped()
        if re.search(rf":::{d.NAME}\b|llmbook-{d.NAME}(?![a-z0-9-])", text)
    ]
    assert named == []


def test_every_page_of_the_book_converts(site):
    for src in site.report.plans:
        assert cells_of(site, src)


# -- the book's own pages ---------------------------------------------------------------------


@pytest.fixture(scope="module", params=["mkdocs.yml", "mkdocs.en.yml"])
def book(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The project's site in one language, built again in this process for its Site object:
    its pages' results come from the cache of the run's one project build (`project_site`)."""
    site = tmp_path_factory.mktemp("book") / "site"
    cache = project_site(tmp_path_factory).parent / "cache"
    built = build(ROOT / request.param, site=site, in_process=True, cwd=ROOT, cache=cache)
    return built.config.plugins["llmbook"].site


@pytest.mark.slow
@pytest.mark.parametrize("page", ["chapters/ch10-modern-llm", "lessons/lesson03-five-upgrades"])
def test_chapter_10_and_lesson_3_leave_no_directive_and_no_binding(book, page):
    src = next(s for s in book.report.plans if re.fullmatch(rf"docs/{page}(\.en)?\.md", s))
    cells = cells_of(book, src)
    plan = book.report.plans[src]
    assert [c.line for c in cells if isinstance(c, CodeCell)] == [
        b.line for b in plan.page.blocks if b.runs
    ]
    text = prose(cells)
    assert not [line for line in text.split("\n") if line.lstrip("> ").startswith(":::")]
    assert "[[" not in text
    assert "](../glossary.html#term-" in text  # terms link the glossary on the site
    if page.startswith("chapters"):
        assert "](ch10-modern-llm.html#gqa)" in text  # a reference: the page on the site
        assert "\\tag{10.1}$$" in text
        assert text.count("](ch10-modern-llm.html)") >= 6  # each demo links its page

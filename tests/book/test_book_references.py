"""The book's parts and references (plugins/llmbook/book): section numbers in sequence, captions and
equations numbered per chapter, references checked against their targets, with exact messages.
Pages are read as the build reads them (collect stage → parts → index), without running code."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from book_locales import ZH
from llmbook.book.index import BookIndex, caption_setup
from llmbook.book.parts import page_parts
from llmbook.core.book_syntax import find_references
from llmbook.core.formulas import math_spans
from llmbook.core.lexer import lex
from llmbook.core.site_index import SiteIndex
from llmbook.directives import parse_structure
from llmbook.execute.stages.collect import collect_page
from llmbook.execute.stages.front_matter import split_front_matter
from mkdocs.config import load_config

ROOT = Path(__file__).resolve().parents[2]
CHAPTER = ROOT / "docs" / "chapters" / "ch10-modern-llm.md"
LAB = ROOT / "docs" / "labs" / "smollm2-135m.md"
LESSON = ROOT / "docs" / "lessons" / "lesson03-five-upgrades.md"


@pytest.fixture(scope="module")
def toc() -> SiteIndex:
    """Headings with the ids the project's own toc settings give them."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    return SiteIndex([], list(config["markdown_extensions"]), dict(config["mdx_configs"]))


def parts_of(uri: str, text: str, toc: SiteIndex):
    meta, body, first = split_front_matter(textwrap.dedent(text), src=f"docs/{uri}")
    source = collect_page(lex(body, first), src=f"docs/{uri}", meta=meta, execute=False)
    math = math_spans(source.lexed, src=source.src)
    doc = parse_structure(source.lexed, src=source.src)
    return page_parts(
        source.lexed,
        src=source.src,
        uri=uri,
        chapter=source.chapter,
        math=math,
        headings=toc.headings,
        doc=doc,
        locale=ZH,
    )


def check(toc: SiteIndex, pages: dict[str, str], strict: bool = True) -> list[str]:
    book = BookIndex.of([parts_of(uri, text, toc) for uri, text in pages.items()], ZH)
    return [str(e) for e in book.check({f"docs/{uri}": strict for uri in pages})]


CH1 = """\
    # 第 1 章 · 注意力

    ## 1.1 缩放点积 {#scaled}

    ### 1.1.1 为什么除以根号 d

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

    ![曲线](curve.png)

    /// figure-caption
        attrs: {id: fig-curve}
    注意力分数的曲线
    ///
"""


def test_sections_in_sequence_give_no_error_and_take_their_ids(toc):
    parts = parts_of("ch1.md", CH1, toc)
    assert parts.chapter == "1"
    assert [(p.kind, p.number, p.id) for p in parts.parts.values()] == [
        ("section", "1.1", "scaled"),
        ("section", "1.1.1", "111-为什么除以根号-d"),
        ("section", "1.2", "heads"),
        ("table", "1-1", "tbl-heads"),
        ("figure", "1-1", "fig-curve"),
        ("equation", "1.1", "eq-identity"),
    ]
    assert parts.errors == []


@pytest.mark.parametrize(
    ("headings", "message"),
    [
        (
            "## 1.1 甲\n\n## 1.3 乙\n",
            "docs/ch1.md:5: the section is numbered 1.3, after 1.1 Fix: number it 1.2 and "
            "renumber the sections after it (and the references to them: the build lists each)",
        ),
        (
            "## 2.1 甲\n",
            "docs/ch1.md:3: the section is numbered 2.1, but the page is chapter 1 Fix: number "
            "it 1.1",
        ),
        (
            "## 1.1 甲\n\n## 1.1.1 乙\n",
            "docs/ch1.md:5: a level-2 heading is numbered 1.1.1 (3 parts) Fix: give it 2 parts "
            "(`## 10.1`), or make it a level-3 heading",
        ),
    ],
)
def test_sections_out_of_sequence_fail_at_their_line(toc, headings, message):
    assert check(toc, {"ch1.md": "# 第 1 章 · 注意力\n\n" + headings}) == [message]


def test_a_page_without_a_chapter_numbers_its_sections_from_one(toc):
    parts = parts_of("guide.md", "# 指南\n\n## 1. 开始\n\n## 2. 然后\n", toc)
    assert parts.chapter is None and parts.errors == []
    assert [p.number for p in parts.numbered("section")] == ["1", "2"]


def test_front_matter_chapter_wins(toc):
    parts = parts_of("x.md", "---\nchapter: 7\n---\n# 标题\n\n## 7.1 甲\n", toc)
    assert parts.chapter == "7" and parts.errors == []


def test_references_are_found_in_prose_only():
    line = "见 [10.2 节](#gqa)、图 3-1 与 `10.4 节`，[[x = 1]]，式（10.4），代表 2 个，第 3 课"
    found = [(r.kind, r.number, r.bound) for r in find_references(line, 1, ZH)]
    assert found == [
        ("section", "10.2", True),
        ("figure", "3-1", False),
        ("equation", "10.4", False),
        ("lesson", "3", False),
    ]
    assert find_references("## 10.2 MHA → GQA", 1, ZH) == []  # a heading's number is its own


def test_true_references_pass_and_are_counted(toc):
    refs = """\
        # 实验

        见[第 1 章](ch1.md)、[1.2 节](ch1.md#heads)、[表 1-1](ch1.md#tbl-heads)、
        [图 1-1](ch1.md#fig-curve)、[式 (1.1)](ch1.md#eq-identity)与[第 1 章 1.1 节](ch1.md#scaled)。
    """
    book = BookIndex.of([parts_of("ch1.md", CH1, toc), parts_of("lab.md", refs, toc)], ZH)
    assert book.check({"docs/lab.md": True}) == []
    assert book.counts.summary() == "references: 7 checked, 0 unbound"


@pytest.mark.parametrize(
    ("written", "message"),
    [
        (
            "[1.3 节](ch1.md#heads)",
            "docs/lab.md:3: written 1.3 节, the target is now 1.2 节 (多头): "
            "[1.3 节](ch1.md#heads) Fix: write 1.2 节, or link the section you mean",
        ),
        (
            "[图 1-2](ch1.md#fig-curve)",
            "docs/lab.md:3: written 图 1-2, the target is now 图 1-1 (注意力分数的曲线): "
            "[图 1-2](ch1.md#fig-curve) Fix: write 图 1-1, or link the figure you mean",
        ),
        (
            "[1.2 节](ch1.md#nowhere)",
            "docs/lab.md:3: the reference [1.2 节](ch1.md#nowhere): docs/ch1.md has no section "
            "#nowhere Fix: link one of its sections: #scaled (1.1 节), "
            "#111-为什么除以根号-d (1.1.1 节), #heads (1.2 节)",
        ),
        (
            "[表 1-1](ch1.md#heads)",
            "docs/lab.md:3: the reference [表 1-1](ch1.md#heads): #heads is a section, not a "
            "table Fix: write 1.2 节, or link the table you mean",
        ),
        (
            "[1.2 节](ch9.md#heads)",
            "docs/lab.md:3: the reference [1.2 节](ch9.md#heads) links to ch9.md, which is no "
            "page of the book Fix: link a page of the docs folder (a relative path to its .md "
            "or .ipynb file)",
        ),
        (
            "[第 2 章](ch1.md)",
            "docs/lab.md:3: written 第 2 章, the target is now 第 1 章 (第 1 章 · 注意力): "
            "[第 2 章](ch1.md) Fix: write 第 1 章, or link the chapter you mean",
        ),
        (
            "1.2 节",
            "docs/lab.md:3: the reference 1.2 节 has no target (it is not checked) Fix: link "
            "it to its target: [1.2 节](ch1.md#heads)",
        ),
        (
            "4.2 节",
            "docs/lab.md:3: the reference 4.2 节 has no target (it is not checked) Fix: link "
            "it to its target, e.g. [4.2 节](../chapters/page.md#label); no section of the "
            "book is numbered 4.2",
        ),
    ],
)
def test_a_false_reference_fails_at_its_line_with_the_fix(toc, written, message):
    pages = {"ch1.md": CH1, "lab.md": f"# 实验\n\n见{written}。\n"}
    assert check(toc, pages) == [message]


def test_unbound_references_are_only_counted_off_strict(toc):
    pages = {"ch1.md": CH1, "lab.md": "# 实验\n\n见 1.2 节。\n"}
    assert check(toc, pages, strict=False) == []


def test_renumbering_chapter_10_fails_every_stale_reference_at_its_line(toc):
    """A section inserted before 10.2, the later ones renumbered as the sequence check asks:
    every reference of the lab page to 10.2 … 10.8 now fails, each at its own line."""
    chapter = CHAPTER.read_text(encoding="utf-8")
    lab = LAB.read_text(encoding="utf-8")
    lesson = LESSON.read_text(encoding="utf-8")
    pages = {
        "chapters/ch10-modern-llm.md": chapter,
        "labs/smollm2-135m.md": lab,
        "lessons/lesson03-five-upgrades.md": lesson,
    }
    assert check(toc, pages) == []
    for number in range(8, 1, -1):
        chapter = chapter.replace(f"\n## 10.{number} ", f"\n## 10.{number + 1} ")
    chapter = chapter.replace("\n## 10.3 MHA", "\n## 10.2 新的一节\n\n正文。\n\n## 10.3 MHA")
    errors = check(toc, {**pages, "chapters/ch10-modern-llm.md": chapter})
    stale = [e for e in errors if "the target is now" in e]
    lab_lines = [
        n
        for n, text in enumerate(lab.split("\n"), start=1)
        if any(f"[10.{k} 节]" in text or f"10.{k} 节](" in text for k in range(2, 9))
    ]
    assert sorted({int(e.split(":")[1]) for e in stale if e.startswith("docs/labs/")}) == (
        lab_lines
    )
    assert (
        "docs/labs/smollm2-135m.md:74: written 10.2 节, the target is now 10.3 节 "
        "(MHA → MQA → GQA ★): [10.2 节](../chapters/ch10-modern-llm.md#gqa)"
    ) in "\n".join(stale)


@pytest.mark.parametrize(
    ("extensions", "configs", "problem"),
    [
        (
            [],
            {},
            "the caption needs pymdownx.blocks.caption, which is not among the site's "
            "Markdown extensions",
        ),
        (
            ["pymdownx.blocks.caption"],
            {},
            "pymdownx.blocks.caption numbers captions itself (its `auto` option is on)",
        ),
    ],
)
def test_captions_need_the_caption_extension_without_its_own_numbers(
    toc, extensions, configs, problem
):
    parts = parts_of("ch1.md", CH1, toc)
    assert [str(e) for e in caption_setup([parts], extensions, configs)] == [
        f"docs/ch1.md:13: {problem} Fix: list `pymdownx.blocks.caption: {{auto: false}}` under "
        "markdown_extensions in mkdocs.yml"
    ]
    configs = {"pymdownx.blocks.caption": {"auto": False}}
    assert caption_setup([parts], ["pymdownx.blocks.caption"], configs) == []


def test_a_reference_into_a_notebook_is_checked_like_any_page(toc):
    """A notebook is a page of the book (its Markdown cells, laid out by the load stage)."""
    notebook = "# 动手\n\n## 1. 搭模型 {#model}\n\n## 2. 加缓存 {#cache}\n"
    pages = {
        "notebooks/nb.ipynb": notebook,
        "labs/lab.md": "# 实验\n\n共 2 节；见[第 2 节](../notebooks/nb.ipynb#cache)。\n",
    }
    assert check(toc, pages) == []  # `2 节` counts sections; `第 2 节` names one
    pages["labs/lab.md"] = "# 实验\n\n见[第 1 节](../notebooks/nb.ipynb#cache)。\n"
    assert check(toc, pages) == [
        "docs/labs/lab.md:3: written 第 1 节, the target is now 第 2 节 (加缓存): "
        "[第 1 节](../notebooks/nb.ipynb#cache) Fix: write 第 2 节, or link the section you mean"
    ]

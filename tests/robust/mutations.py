"""Grammar-aware mutations of the files an author hands llmbook, as hypothesis strategies: each
draws a mutated copy of one file's text (a Markdown page, a notebook's JSON, front matter,
`references.bib`, `glossary.yml`, or llmbook's options in mkdocs.yml).

Lines are the unit: a mutation inserts a line of the file's own grammar (a directive's opening or
closing, a fence, math, a bound number, a reference, a term, a citation, a marker) or of its
whitespace (tabs, a line of spaces, CR, NUL), deletes, repeats, swaps or truncates lines, or
rewrites part of one line. What the tests assert of each: a site, or an error naming the file.
"""

from __future__ import annotations

import json

import yaml
from hypothesis import strategies as st

__all__ = ["OPTIONS", "mutated_bib", "mutated_glossary", "mutated_notebook", "mutated_options",
           "mutated_page"]  # fmt: skip

PAGE_LINES = [
    ":::", "::::", ":::note 标题", ":::warning", ":::fold 展开", ":::unfold", ":::quiz 小测",
    "- [x] 对", "- [ ] 错", ":::tabs", "::tab A", ":::shapeflow", "x [B, H, S, D] → y [B, S, H·D]",
    ":::demo kv-cache 演示", ":::demo no-such-demo", ":::interview 问", ":::related",
    ":::card 卡片", ":::editions", ":::showcase", "```python", "```", "~~~", "````python hide-input",
    "```python norun", "```python raises-exception", "```python remove-input remove-cell",
    "<!--pytest.mark.skip-->", "<!--pytest-codeblocks:expected-output-->", "<!--pytest.mark.x-->",
    "$$", "$$x^2$$", "$$\\frac{a}{b", "$\\sum_i x$", "$$ {#eq:x}", "\\$5",
    "[[x = 1]]", "[[1 + 1 = 2]]", "[[2.1 @ 论文]]", "[[~3]]", "[[]]", "[[x =]]", "[[= 1]]",
    "[[undefined_name = 1]]", "[[1/0 = 1]]", "[[[1, 2] = [1, 2]]]", "[[10 = 1e1]]",
    "[10.2 节](#gqa)", "[第 10 章](chapters/ch10-modern-llm.md)", "[图 10-1](#fig)",
    "[表 3-1](#t)", "[式 (10.4)](#eq:x)", "[1.1 节](nowhere.md#x)", "{term}`GQA`", "{term}`无此术语`",
    "[@shazeer2020glu]", "[@nokey]", "[@shazeer2020glu, p. 3]", "## 10.9 新节 {#new}",
    "# 第 99 章 · 新章", "### 小节 {#kv-cache}", "| a | b |", "| --- | --- |", "<div>", "</div>",
    "---", "chapter: 3", "    indented code", "\tx = 1", "        ", "\t", " \t ", "\r", "\x00",
    "\ufeff", "\u2028", "\x02\x03", "x = 1", "print(x)", "def f():", "    return 1", "import os",
    "raise SystemExit(3)", "import sys; sys.exit(0)", "while False: pass", "[[f() = 1]]",
    "Table: 标题", "/// caption", "///", "![图](x.png){#fig}", "<!-- comment", "-->",
]  # fmt: skip
CODE_LINES = ["x = 1", "print(x)", "\tpass", "    ", "if x:", "1/0", "'''", '"""', "#", "x =="]
BIB_LINES = [
    "@article{shazeer2020glu,", "@book{dup,", "@misc{x,", "}", "{", "author = {A and B},",
    "title = {A {B} c},", "year = 2020,", "year = {twenty},", "note = {\\emph{x}}", "@comment{",
    "% comment", "@string{a = {b}}", "journal = a,", "author = {{,}},", "pages = {1--2},",
]  # fmt: skip
GLOSSARY_LINES = [
    "- term: GQA", "- term: 新词", "  zh: 分组", "  definition: 定义。", "  aliases: [a, b]",
    "  aliases: 3", "term:", "- x", "  - y", ": z", "\tzh: tab", "- term: GQA", "definition: |",
    "  see: [MQA]", "  see: nowhere",
]  # fmt: skip
# llmbook's options a mutation sets, and values of every type. Left out: execute_cluster (it waits
# for a scheduler), editions (each build would make a PDF), cache_dir (it moves the shared cache).
OPTIONS = [
    "execute", "execute_pages", "execute_timeout", "execute_page_timeout", "execute_workers",
    "execute_output_limit", "execute_memory_mb", "execute_seed", "execute_shard",
    "execute_show_last", "execute_ipython", "execute_preamble", "execute_sandbox",
    "execute_file_size_mb", "execute_env", "execute_network", "execute_read", "numbers_strict",
    "bibliography", "cache", "cache_converted", "offline_check", "enabled", "demos",
    "nonexistent_option",
]  # fmt: skip
VALUES = st.one_of(
    st.booleans(),
    st.integers(-5, 10**6),
    st.floats(-1, 1e3, allow_nan=False),
    st.sampled_from(
        [
            "",
            "x",
            "**",
            "1/2",
            "2/2",
            "0/1",
            "auto",
            "off",
            "pages",
            "references.bib",
            "import llmkit",
            "x = (",
            "[",
            "../..",
        ]
    ),  # fmt: skip
    st.lists(st.sampled_from(["**", "a.md", "*", "HOME", "/tmp", ""]), max_size=3),
    st.dictionaries(st.sampled_from(["a", "GPU"]), st.integers(-1, 3), max_size=2),
    st.none(),
)


@st.composite
def mutated_lines(draw: st.DrawFn, text: str, pool: list[str]) -> str:
    """`text` after one to three line mutations, with lines drawn from `pool`."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, max(len(lines) - 1, 0)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "swap", "edit", "space",
                                     "truncate", "long"]))  # fmt: skip
        if kind == "insert" or not lines:
            lines.insert(at, draw(st.sampled_from(pool)))
        elif kind == "delete":
            del lines[at]
        elif kind == "repeat":
            lines.insert(at, lines[at])
        elif kind == "swap" and at + 1 < len(lines):
            lines[at], lines[at + 1] = lines[at + 1], lines[at]
        elif kind == "edit":
            line = lines[at]
            a = draw(st.integers(0, len(line)))
            b = draw(st.integers(a, len(line)))
            lines[at] = (
                line[:a] + draw(st.sampled_from(pool + ["", "`", "]]", "[[", ":::"])) + line[b:]
            )
        elif kind == "space":
            line = lines[at]
            body = line.lstrip(" ")
            lines[at] = draw(st.sampled_from([
                line + "   ", "\t" * ((len(line) - len(body)) // 4) + body, " " * 8, line + "\r",
                "\t" + line, " " + line,
            ]))  # fmt: skip
        elif kind == "truncate":
            lines = lines[:at]
        elif kind == "long":
            lines.insert(at, draw(st.sampled_from(["ab ", "[[", "`", "$", "字"])) * 200_000)
    return "\n".join(lines)


@st.composite
def mutated_page(draw: st.DrawFn, text: str) -> str:
    """A Markdown page: its lines mutated, or front matter put in front."""
    if draw(st.booleans()):
        return draw(mutated_lines(text, PAGE_LINES))
    keys = ["chapter", "execute", "numbers", "execute_env", "execute_resources",
            "execute_network", "title", "hide"]  # fmt: skip
    meta = draw(st.dictionaries(st.sampled_from(keys), VALUES, min_size=1, max_size=3))
    front = yaml.safe_dump(meta, allow_unicode=True)
    if text.startswith("---\n"):
        text = text.split("\n---\n", 1)[-1]
    return f"---\n{front}---\n{text}"


@st.composite
def mutated_notebook(draw: st.DrawFn, text: str) -> str:
    """A notebook's JSON: a cell's source mutated, or the cell or the notebook's structure."""
    data = json.loads(text)
    cells = data["cells"]
    kind = draw(st.sampled_from(["source", "source", "type", "tags", "key", "version", "json"]))
    cell = cells[draw(st.integers(0, len(cells) - 1))] if cells else {}
    if kind == "source" and cells:
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        pool = CODE_LINES + PAGE_LINES if cell["cell_type"] == "code" else PAGE_LINES
        cell["source"] = draw(mutated_lines(source, pool))
    elif kind == "type" and cells:
        cell["cell_type"] = draw(st.sampled_from(["markdown", "code", "raw", "heading", ""]))
    elif kind == "tags" and cells:
        tags = ["remove-input", "remove-output", "remove-cell", "hide-input", "hide-output",
                "hide-cell", "raises-exception", "skip-execution", "x"]  # fmt: skip
        cell.setdefault("metadata", {})["tags"] = draw(st.lists(st.sampled_from(tags), max_size=3))
    elif kind == "key" and cells:
        cell.pop(draw(st.sampled_from(["source", "metadata", "outputs", "cell_type", "id"])), None)
    elif kind == "version":
        data["nbformat_minor"] = draw(st.integers(0, 6))
        data["metadata"]["kernelspec"] = draw(st.sampled_from(
            [{}, {"language": "julia"}, {"name": "python3"}, None]))  # fmt: skip
    else:
        return json.dumps(data)[: draw(st.integers(0, 2000))]
    return json.dumps(data, ensure_ascii=False)


def mutated_bib(text: str) -> st.SearchStrategy[str]:
    return mutated_lines(text, BIB_LINES)


def mutated_glossary(text: str) -> st.SearchStrategy[str]:
    return mutated_lines(text, GLOSSARY_LINES)


@st.composite
def mutated_options(draw: st.DrawFn, options: dict) -> dict:
    """llmbook's options with one to three set to values of any type."""
    changed = dict(options)
    for _ in range(draw(st.integers(1, 3))):
        changed[draw(st.sampled_from(OPTIONS))] = draw(VALUES)
    return changed

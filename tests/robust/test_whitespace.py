"""Pages as real editors leave them: each builds, its code run as the reader sees it. Before the
load stage normalised the text as Python-Markdown does, each of these stopped the build with
`RuntimeError: … the plan was made for another text`."""

from __future__ import annotations

import json

import pytest
from book_locales import ZH

CONFIG = {
    "site_name": "Whitespace",
    "theme": {"name": "material", "font": False, "language": "zh"},
    "plugins": [{"llmbook": {"offline_check": False}}],
    "markdown_extensions": ["pymdownx.superfences", "llmbook.extension"],
}
CHECKED = 'title="f() = 1（构建时计算并核对）">1</span>'

# The smallest page of the issue: a line of eight spaces inside a function.
WHITESPACE_LINE = "# x\n\n```python\ndef f():\n    a = 1\n        \n    return a\nprint(f())\n```\n\nf is [[f() = 1]].\n"


@pytest.mark.parametrize(
    "page",
    [
        pytest.param(WHITESPACE_LINE.encode(), id="whitespace-only line"),
        pytest.param(WHITESPACE_LINE.replace("    ", "\t").encode(), id="tab indentation"),
        pytest.param(WHITESPACE_LINE.replace("\n", "  \r\n").encode(), id="CRLF, trailing spaces"),
        pytest.param(b"\xef\xbb\xbf" + WHITESPACE_LINE.encode(), id="BOM"),
        pytest.param(WHITESPACE_LINE.encode() + b"\n   \t ", id="whitespace at the end"),
        pytest.param(WHITESPACE_LINE.replace("a = 1", "a = 1\x02").encode(), id="STX"),
    ],
)
def test_a_page_with_whitespace_builds(page: bytes, make_site) -> None:
    built = make_site({"index.md": page}, CONFIG, in_process=True, cache=False, strict=True)
    html = built.page()
    assert CHECKED in html
    assert "return" in html and '<div class="llmbook-output"' in html


def test_a_notebook_markdown_cell_quoting_code_is_prose(make_site) -> None:
    """Jupyter never runs a Markdown cell: its fence is shown, highlighted, and not run (before:
    NameError at `cell 1, line 4`). A fence left open there ends with its cell."""
    cells = [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": "# Use\n\n```python\nmodel.generate(undefined_name)\n```\n\n```python\nleft_unclosed",
        },
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": "x = 3\nprint('```')",
        },
        {"cell_type": "markdown", "metadata": {}, "source": "x is [[x = 3]]."},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    built = make_site(
        {"index.ipynb": json.dumps(notebook)}, CONFIG, in_process=True, cache=False, strict=True
    )
    html = built.page()
    assert "undefined_name" in html and '<span class="n">left_unclosed</span>' in html
    assert 'title="x = 3（构建时计算并核对）">3</span>' in html
    assert "```" in html  # the code cell's own backticks are its output, not a fence's end


@pytest.mark.parametrize(
    "first", ["\n# Title", "Author: someone\n# Title", "---\ntitle: x\n---\n# Title"]
)
def test_a_notebook_whose_first_lines_mkdocs_would_take_as_metadata(first: str, make_site) -> None:
    """MkDocs drops a page's leading blank lines and reads `key: value` or `---` lines at its top
    as metadata; the notebook's Markdown keeps them as text, its lines where the build read them
    (found by the fuzzer: `the page changed after collect`)."""
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": first},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": "x = 3",
        },
        {"cell_type": "markdown", "metadata": {}, "source": "x is [[x = 3]]."},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    built = make_site(
        {"index.ipynb": json.dumps(notebook)}, CONFIG, in_process=True, cache=False, strict=True
    )
    assert 'title="x = 3（构建时计算并核对）">3</span>' in built.page()


@pytest.mark.timing
@pytest.mark.parametrize("run", ["[[", "[", "`", "$", "字", "ab "])
def test_a_very_long_line_reads_in_linear_time(run: str) -> None:
    """A 400,000-character line of one token (found by the fuzzer: a line of `[[` hung the build
    in the bindings, then in the book's references, each of which tried every `[[` to the line's
    end). Each reader of a prose line finishes in well under a second."""
    import time

    from llmbook.core.book_syntax import find_references
    from llmbook.core.cite_syntax import find_citations
    from llmbook.core.errors import AuthorError
    from llmbook.core.lexer import lex
    from llmbook.core.term_syntax import find_terms
    from llmbook.execute.stages.collect import collect_page

    line = run * (400_000 // len(run))
    start = time.perf_counter()
    find_references(line, 1, ZH)
    find_citations(line, 1)
    find_terms(line, 1)
    if run == "`":  # a line of backticks opens a fence that nothing closes
        with pytest.raises(
            AuthorError, match=r"opened with ```… \(400,000 ` characters\) is never"
        ):
            collect_page(lex(f"# x\n\n{line}\n"), src="docs/x.md", meta={})
    else:
        collect_page(lex(f"# x\n\n{line}\n"), src="docs/x.md", meta={})
    assert time.perf_counter() - start < 3.0

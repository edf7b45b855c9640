"""A translation runs as its source (results.py, the executor's companion): the source's code
runs once, for both editions (the English build after the Chinese one takes its results from
the shared cache), each of the translation's blocks shows its counterpart's output and figure,
and its bound numbers are checked against the source's values at the translation's lines."""

from __future__ import annotations

import logging
import re

from .conftest import Book

# A block with an output and a figure, the same in both (only comments are translated).
FIGURE = """
```python
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 1))
ax.plot([1, x]){comment}
ax.set_title("growth")
print("x is", x)
```
"""


def _log(book: Book) -> list[str]:
    """The executor's lines about docs/x.md or its translation, and the build's total."""
    lines = [r.getMessage() for r in book.caplog.records if r.name.endswith("executor")]
    return [line for line in lines if "docs/x." in line or "pages run" in line]


def test_a_drifted_number_in_the_translation_fails_at_its_line(book: Book) -> None:
    book.write({"x.en.md": book.read("docs/x.en.md").replace("[[x = 2]]", "[[x = 3]]")})
    book.build("zh").ok()  # the source's own numbers hold
    assert book.errors("en") == ["docs/x.en.md:20: written 3, computed 2"]


def test_the_english_build_runs_no_page_after_the_chinese_one(book: Book) -> None:
    book.write(
        {
            "x.md": book.read("docs/x.md") + FIGURE.format(comment="  # 曲线"),
            "x.en.md": book.read("docs/x.en.md") + FIGURE.format(comment="  # the curve"),
        }
    )
    book.mark()
    with book.caplog.at_level(logging.INFO):
        zh = book.build("zh").ok()
        assert _log(book) == [
            "llmbook: docs/x.md: ran in a worker process; numbers: 2 checked, 0 cited, "
            "0 illustrative, 2 structural, 0 unaccounted",
            "llmbook: checked 2 numbers on 1 executed pages (1 pages run)",
        ]
        book.caplog.clear()
        en = book.build("en").ok()
        assert _log(book) == [
            "llmbook: docs/x.en.md: results from the cache; numbers: 2 checked, 0 cited, "
            "0 illustrative, 2 structural, 0 unaccounted",
            "llmbook: checked 2 numbers on 1 executed pages (0 pages run)",
        ]
    ours, theirs = en.page("x.html"), zh.page("x.html")
    figure = re.compile(r'<img src="(assets/llmbook/figures/\w+\.svg)" alt="growth"')
    assert figure.findall(ours) == figure.findall(theirs) != []
    svg = figure.findall(ours)[0]
    assert (en.site / svg).read_bytes() == (zh.site / svg).read_bytes()
    output = re.compile(r"<pre><code>x is 2</code></pre>")
    assert len(output.findall(ours)) == len(output.findall(theirs)) == 1
    assert "# the curve" in ours and "# 曲线" in theirs


def test_a_cold_english_build_says_the_translations_source_ran(book: Book) -> None:
    with book.caplog.at_level(logging.INFO):
        book.build("en").ok()
    assert _log(book) == [
        "llmbook: docs/x.en.md: ran in a worker process; numbers: 2 checked, 0 cited, "
        "0 illustrative, 2 structural, 0 unaccounted",
        "llmbook: checked 2 numbers on 1 executed pages (1 pages run)",
    ]

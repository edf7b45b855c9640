"""An English book is a first-class book: its pages' interface text is English (its locale,
from `theme.language`), its references are written and checked in English forms."""

from __future__ import annotations

from book_locales import EN, ZH
from llmbook.core.book_syntax import find_references
from llmbook.core.i18n import load_locale

CONFIG = {
    "site_name": "t",
    "use_directory_urls": False,
    "theme": {"name": "mkdocs", "language": "en"},
    "plugins": [{"llmbook": {"offline_check": False}}],
    "markdown_extensions": [
        "llmbook.extension",
        "pymdownx.superfences",
        {"pymdownx.blocks.caption": {"auto": False}},
        "attr_list",
    ],
}
INTEREST = """# Interest

## 1. Simple {#simple}

```python
rate = 0.05
years = 14
```

## 2. Doubling {#doubling}

Money doubles in about [[round((1 + rate) ** years, 2) = 1.98]] times.

![a curve](curve.png)

/// figure-caption | #fig-curve
Growth over time.
///
"""


def _index(reference: str) -> str:
    return f"# Home\n\nSee {reference}.\n"


def test_both_languages_have_every_string() -> None:
    assert ZH.data["ui"].keys() == EN.data["ui"].keys()
    assert load_locale("en-US").ui("output") == "Output" and ZH.ui("output") == "输出"


def test_english_references_are_read_with_their_language() -> None:
    text = "[Section 2](a.md#x), [Chapter 10](b.md), [Figure 10-3](#f), [Table 3-1](#t), "
    text += "[Equation (10.4)](#e), [Lesson 3](c.md) and Section 4.1"
    found = [(r.kind, r.number, r.bound, r.language) for r in find_references(text, 1, EN)]
    assert found == [
        ("section", "2", True, "en"),
        ("chapter", "10", True, "en"),
        ("figure", "10-3", True, "en"),
        ("table", "3-1", True, "en"),
        ("equation", "10.4", True, "en"),
        ("lesson", "3", True, "en"),
        ("section", "4.1", False, "en"),
    ]
    assert EN.part_text("equation", "10.4") == "Equation (10.4)"
    assert EN.part_text("section", "2") == "Section 2"


def test_a_stale_english_reference_fails_at_its_line(make_site) -> None:
    pages = {"index.md": _index("[Section 1](interest.md#doubling)"), "interest.md": INTEREST}
    built = make_site(pages, CONFIG, cache=False, strict=True)
    assert built.returncode == 1
    assert (
        "docs/index.md:3: written Section 1, the target is now Section 2 (Doubling): "
        "[Section 1](interest.md#doubling) Fix: write Section 2, or link the section you mean"
    ) in built.stderr


def test_an_english_site_shows_english_text(make_site) -> None:
    pages = {"index.md": _index("[Section 2](interest.md#doubling)"), "interest.md": INTEREST}
    pages["curve.png"] = b"\x89PNG"
    built = make_site(pages, CONFIG, cache=False, strict=True).ok()
    page = built.page("interest.html")
    assert '<span class="caption-prefix">Figure 1</span>' in page
    assert "(computed and checked at build time)" in page
    assert "1 numbers on this page are checked by code run at build time." in page
    assert "输出" not in page and "本页" not in page and "核对" not in page


QUIZ_AND_CARDS = """\
# Widgets

:::quiz
Which cache grows with the context?
A. The KV cache
B. The weights
Answer: A
Explanation: one key and one value per token and layer.
:::

:::warning
Mind the memory.
:::

:::card 1 One card
Its text.
:::

:::progress
:::
"""


def test_an_english_site_writes_its_widgets_in_english(make_site) -> None:
    """The quiz (with `Answer:`/`Explanation:`), a box without a title, a card and the progress
    line follow `theme.language`; the Chinese forms stay the book's."""
    built = make_site({"index.md": QUIZ_AND_CARDS}, CONFIG, cache=False, strict=True).ok()
    page = built.page("index.html")
    assert '<p class="admonition-title">Quiz</p>' in page
    assert "<summary>Answer and explanation</summary>" in page
    assert '<p class="llmbook-quiz__key">Answer: <strong>A</strong></p>' in page
    assert '<p class="admonition-title">Note</p>' in page
    assert ">Mark as done</button>" in page and "/ 1 cards done" in page
    assert not any(word in page for word in ("小测验", "答案", "注意", "标记为已完成", "卡片"))


def test_a_notebook_figure_without_a_title_is_described_in_english(make_site) -> None:
    """Jupyter asks no alt text: a title-less figure is described by its cell and axes, in the
    site's language (the worker writes it; the results are keyed on the language)."""
    import json

    code = "import matplotlib.pyplot as plt\nplt.plot([1, 2])\nplt.xlabel('time')\nplt.show()"
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": "# Plot"},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": code,
        },
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4}
    built = make_site({"index.ipynb": json.dumps(notebook)}, CONFIG, cache=False, strict=True).ok()
    assert 'alt="Figure drawn by cell 2; x axis: time"' in built.page()

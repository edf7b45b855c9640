"""A translation checked against its source (correspond.py), each error at the translation's
line, in the English build: the same sections (level, number, id), and in each the same code
(only comments translated), bound numbers and parts."""

from __future__ import annotations

from .conftest import TRANSLATION, Book

HEADING_FIX = (
    "Fix: give it the source's heading level, section number and {#id}; translate only its text"
)
DOUBLING = "## 2. Doubling {#doubling}\n\nDoubling takes [[x * 2 = 4]] years.\n"


def _errors(book: Book, translation: str) -> list[str]:
    """The English build's errors with `translation` as docs/x.en.md (its record kept first)."""
    record = book.read("docs/x.en.md").split("---\n", 2)[1]
    book.write({"x.en.md": f"---\n{record}---\n{translation}"})  # the text starts at line 10
    return book.errors("en")


def test_a_translated_comment_and_prose_pass(book: Book) -> None:
    text = book.read("docs/x.en.md").replace("two years", "2 years, as")
    book.write({"x.en.md": text.replace("x = 1 + 1", "x = 1+1")})  # and spaces
    built = book.build("en").ok()
    assert "# 2 years, as of interest" in built.page("x.html")
    assert "The result is" in built.page("x.html")


def test_a_missing_section_fails_where_it_belongs(book: Book) -> None:
    assert _errors(book, TRANSLATION.split("## 1. Simple")[0] + DOUBLING) == [
        'docs/x.en.md:13: the source\'s section "## 1. 简单 {#simple}" (docs/x.md:3) has no '
        "counterpart in the translation Fix: translate it here (before this line), with the "
        "source's heading level, section number and {#id}",
        "docs/x.en.md:13: the section is numbered 2, as the first section Fix: number it 1 and "
        "renumber the sections after it (and the references to them: the build lists each)",
    ]


def test_a_missing_last_section_fails_at_the_pages_end(book: Book) -> None:
    assert _errors(book, TRANSLATION.replace(DOUBLING, "")) == [
        'docs/x.en.md:13: the source\'s section "## 2. 翻倍 {#doubling}" (docs/x.md:12) has no '
        "counterpart in the translation Fix: translate it after this section, at the page's end, "
        "with the source's heading level, section number and {#id}"
    ]


def test_an_extra_section_fails_at_its_heading(book: Book) -> None:
    assert _errors(book, TRANSLATION + "\n## 3. Tripling {#tripling}\n\nMore.\n") == [
        'docs/x.en.md:26: the section "## 3. Tripling {#tripling}" has no counterpart in the '
        "source docs/x.md Fix: a translation has its source's sections only: remove it, or give "
        "it the heading level, number and {#id} of the source's section it translates"
    ]


def test_a_heading_whose_id_differs_fails_at_its_line(book: Book) -> None:
    assert _errors(book, TRANSLATION.replace("{#doubling}", "{#double}")) == [
        'docs/x.en.md:22: this heading does not match its source\'s "## 2. 翻倍 {#doubling}" '
        f"(docs/x.md:12): id #double, the source's #doubling {HEADING_FIX}"
    ]


def test_a_heading_whose_number_differs_fails_at_its_line(book: Book) -> None:
    assert _errors(book, TRANSLATION.replace("## 2. Doubling", "## 3. Doubling")) == [
        'docs/x.en.md:22: this heading does not match its source\'s "## 2. 翻倍 {#doubling}" '
        f"(docs/x.md:12): section number 3, the source's 2 {HEADING_FIX}",
        # the book's own numbering check, as in any page
        "docs/x.en.md:22: the section is numbered 3, after 1 Fix: number it 2 and renumber the "
        "sections after it (and the references to them: the build lists each)",
    ]


def test_code_that_differs_from_the_source_fails_at_the_block(book: Book) -> None:
    assert _errors(book, TRANSLATION.replace("x = 1 + 1", "x = 1 + 2")) == [
        "docs/x.en.md:15: this python block differs from its source's (docs/x.md:5): a "
        "translation runs its source's code, and only comments may be translated Fix: copy the "
        "block from docs/x.md:5 and translate only its comments"
    ]


def test_a_missing_and_an_extra_block_fail(book: Book) -> None:
    block = "```python\n# two years of interest\nx = 1 + 1\n```\n"
    moved = TRANSLATION.replace(block, "").replace("years.\n", f"years.\n\n{block}")
    assert _errors(book, moved) == [
        "docs/x.en.md:13: the source's python block `# 两年的利息` (docs/x.md:5) is missing from "
        'the section "## 1. Simple {#simple}" Fix: carry it over from the source into this '
        "section unchanged",
        "docs/x.en.md:22: this python block `# two years of interest` is not in its source's "
        'section "## 2. 翻倍 {#doubling}" Fix: remove it, or add it to the source first (a '
        "translation says what its source says)",
    ]


def test_a_missing_bound_number_fails(book: Book) -> None:
    assert _errors(book, TRANSLATION.replace("[[x * 2 = 4]]", "four")) == [
        "docs/x.en.md:22: the source's bound number `[[x * 2 = 4]]` (docs/x.md:14) is missing "
        'from the section "## 2. Doubling {#doubling}" Fix: carry it over from the source into '
        "this section unchanged"
    ]

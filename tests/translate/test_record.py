"""A translation goes stale when its source moves (record.py): each kind of change in the source
since `mark` named with its section, first as the pure function (`changes` of a record against
the source's fingerprint now), then as builds report it (an error under `translations_strict`,
a warning without, a prose-only change only logged)."""

from __future__ import annotations

import logging

import pytest
from book_locales import ZH
from llmbook.execute.stages.load import load_page
from llmbook.translate.fingerprint import Fingerprint, fingerprint
from llmbook.translate.record import Change, changes, make_record

from .conftest import Book

PAGE = """\
# 注意力 {#attention}

## 10.1 缓存 {#cache}

```python
x = 1 + 1
```

缓存省下 [[x = 2]] 倍的计算 [@vaswani2017]。

:::quiz
缓存的作用？

A. 省显存
B. 省计算

答案: B
:::

## 10.2 分组 {#groups}

{term}`GQA` 让几个查询头共用 K/V。
"""
CACHE, GROUPS = '"## 10.1 缓存 {#cache}"', '"## 10.2 分组 {#groups}"'
AT_CACHE, AT_GROUPS = "(docs/x.md:3)", "(docs/x.md:20)"  # where each section now is
PARTS = "parts changed (labels, directives, quiz answers, citations or terms)"


def _fingerprint(text: str) -> Fingerprint:
    return fingerprint(load_page("docs/x.md", text).source, ZH)


def _changes(old: str, new: str) -> list[Change]:
    return changes(make_record(_fingerprint(old), "x.md"), _fingerprint(new))


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        pytest.param(
            lambda t: t + "\n## 10.3 旋转 {#rope}\n\n按位置旋转。\n",
            [("added", 'section added: "## 10.3 旋转 {#rope}" (docs/x.md:24)')],
            id="section added",
        ),
        pytest.param(
            lambda t: t.split("\n## 10.2")[0],
            [("removed", f"section removed: {GROUPS}")],
            id="section removed",
        ),
        pytest.param(
            lambda t: t.replace("## 10.2 分组 {#groups}", "## 10.2 分组查询 {#groups}"),
            [
                (
                    "renamed",
                    f'section renamed: {GROUPS} → "## 10.2 分组查询 {{#groups}}" {AT_GROUPS}',
                )
            ],
            id="section renamed",
        ),
        pytest.param(
            lambda t: t.replace("x = 1 + 1", "x = 1 + 2"),
            [("code", f"code changed in {CACHE} {AT_CACHE}")],
            id="code changed",
        ),
        pytest.param(
            lambda t: t.replace("[[x = 2]]", "[[x + 0 = 2]]"),
            [("numbers", f"numbers changed in {CACHE} {AT_CACHE}")],
            id="numbers changed",
        ),
        # A written value is checked against its computation (a drift), never the translation's.
        pytest.param(lambda t: t.replace("[[x = 2]]", "[[x = 3]]"), [], id="written value"),
        # A citation or a quiz answer is a part; its line is prose too.
        pytest.param(
            lambda t: t.replace("[@vaswani2017]", "[@shazeer2019]"),
            [
                ("parts", f"{PARTS} in {CACHE} {AT_CACHE}"),
                ("prose", f"prose changed in {CACHE} {AT_CACHE}"),
            ],
            id="citation changed",
        ),
        pytest.param(
            lambda t: t.replace("答案: B", "答案: A"),
            [
                ("parts", f"{PARTS} in {CACHE} {AT_CACHE}"),
                ("prose", f"prose changed in {CACHE} {AT_CACHE}"),
            ],
            id="quiz answer changed",
        ),
        pytest.param(
            lambda t: t.replace("{term}`GQA`", "{term}`MQA`"),
            [
                ("parts", f"{PARTS} in {GROUPS} {AT_GROUPS}"),
                ("prose", f"prose changed in {GROUPS} {AT_GROUPS}"),
            ],
            id="term changed",
        ),
        pytest.param(
            lambda t: t.replace("缓存省下", "缓存能省下"),
            [("prose", f"prose changed in {CACHE} {AT_CACHE}")],
            id="prose changed",
        ),
        # Comments are not compared: a translation translates them.
        pytest.param(lambda t: t.replace("x = 1 + 1", "x = 1 + 1  # 两个"), [], id="comment"),
    ],
)
def test_each_change_of_the_source_is_named_with_its_section(edit, expected) -> None:
    found = _changes(PAGE, edit(PAGE))
    assert [(c.kind, c.text) for c in found] == expected
    assert [c.prose_only for c in found] == [kind == "prose" for kind, _ in expected]


def test_an_unchanged_source_has_no_changes() -> None:
    assert changes(make_record(_fingerprint(PAGE), "x.md"), _fingerprint(PAGE)) == []


@pytest.mark.parametrize("record", [None, "x.md", {"source": "x.md", "digest": "abc"}])
def test_a_translation_without_a_record_is_unmarked(record) -> None:
    assert changes(record, _fingerprint(PAGE)) == [
        Change("unmarked", "the translation records no source (it was never marked)")
    ]


def test_the_record_is_the_sources_sections() -> None:
    record = make_record(_fingerprint(PAGE), "x.md")
    assert record["source"] == "x.md" and len(record["digest"]) == 12 and record["format"] == 2
    assert [s["heading"] for s in record["sections"]] == [
        "# 注意力 {#attention}",
        "## 10.1 缓存 {#cache}",
        "## 10.2 分组 {#groups}",
    ]
    assert set(record["sections"][1]) == {"heading", "code", "numbers", "parts", "prose"}


def _format_1(record: dict) -> dict:
    """The record as llmbook wrote it before format 2 (its numbers' digests: other values)."""
    old = {k: v for k, v in record.items() if k != "format"}
    old["digest"] = "0" * 12
    old["sections"] = [{**s, "numbers": "written1"} for s in record["sections"]]
    return old


def test_a_record_of_format_1_is_compared_on_all_but_its_numbers() -> None:
    old = _format_1(make_record(_fingerprint(PAGE), "x.md"))
    assert changes(old, _fingerprint(PAGE)) == []
    assert changes(old, _fingerprint(PAGE.replace("[[x = 2]]", "[[x + 0 = 2]]"))) == []
    assert [c.kind for c in changes(old, _fingerprint(PAGE.replace("1 + 1", "1 + 2")))] == ["code"]


def test_mark_writes_a_record_of_format_1_anew(book: Book) -> None:
    import json

    path = book.root / "docs" / "x.en.md"
    text = book.read("docs/x.en.md")
    record = make_record(_fingerprint(book.read("docs/x.md")), "x.md")
    head, rest = text.split("  sections:\n", 1)
    old = _format_1(record)
    head = head.replace("  format: 2\n", "").replace(
        json.dumps(record["digest"]), json.dumps(old["digest"])
    )
    path.write_text(head + "  sections:\n" + rest, encoding="utf-8")
    assert book.cli("status")[1].splitlines()[1] == "docs/x.en.md      current"
    status, out, _ = book.cli("mark", "docs/x.en.md")
    assert (status, out.split(" (")[0]) == (0, "docs/x.en.md: marked")
    assert "  format: 2\n" in book.read("docs/x.en.md")


# -- in a build ----------------------------------------------------------------------------------

STALE_CODE = (
    "docs/x.en.md:2: stale translation: its source docs/x.md changed since it was marked: "
    'code changed in "## 1. 简单 {#simple}" (docs/x.md:3) Fix: bring the translation up to date, then run '
    "`python -m llmbook.translate mark docs/x.en.md`"
)


def test_a_stale_translation_fails_both_builds_under_translations_strict(book: Book) -> None:
    book.write({"x.md": book.read("docs/x.md").replace("x = 1 + 1", "x = 1 + 1 + 0")})
    assert book.errors("zh") == [STALE_CODE]
    # The English build also finds its code differs from the source's (correspond.py).
    assert book.errors("en") == [
        "docs/x.en.md:2: " + STALE_CODE.split(":2: ", 1)[1],
        "docs/x.en.md:15: this python block differs from its source's (docs/x.md:5): a "
        "translation runs its source's code, and only comments may be translated Fix: copy the "
        "block from docs/x.md:5 and translate only its comments",
    ]


def test_a_drift_in_the_source_is_one_error_and_no_stale_translation(book: Book) -> None:
    """The source writes a wrong value: that is its drift, and its translation (whose own values
    are proven against the same results) is not stale for it."""
    book.write({"x.md": book.read("docs/x.md").replace("[[x = 2]]", "[[x = 3]]")})
    assert book.errors("zh") == ["docs/x.md:10: written 3, computed 2"]
    book.write({"x.md": book.read("docs/x.md").replace("[[x = 3]]", "[[x + 0 = 2]]")})
    assert book.errors("zh") == [STALE_CODE.replace("code changed", "numbers changed")]


def test_a_sources_error_comes_before_the_errors_of_its_translation(book: Book) -> None:
    """The English build runs the source for its translation: the source's failure is listed
    first, then what the translation has wrong (here: its source moved since it was marked)."""
    book.write(
        {
            "x.md": book.read("docs/x.md").replace("x = 1 + 1\n", "x = 1 + 1\nx / 0\n"),
            "x.en.md": book.read("docs/x.en.md").replace("x = 1 + 1\n", "x = 1 + 1\nx / 0\n"),
        }
    )
    assert [line.split(": ")[0] for line in book.errors("en")] == [
        "docs/x.md:8",
        "docs/x.en.md:2",
    ]


def test_a_stale_translation_is_a_warning_without_translations_strict(book: Book) -> None:
    book.write_config(translations_strict=False)
    book.write({"x.md": book.read("docs/x.md").replace("x = 1 + 1", "x = 1 + 1 + 0")})
    with book.caplog.at_level(logging.WARNING):
        book.build("zh").ok()
    assert [r.getMessage() for r in book.caplog.records if "stale" in r.getMessage()] == [
        f"llmbook: {STALE_CODE}"
    ]


def test_a_prose_only_change_is_logged_not_failed(book: Book) -> None:
    book.write({"x.md": book.read("docs/x.md").replace("结果是", "结果等于")})
    with book.caplog.at_level(logging.INFO):
        book.build("zh").ok()
    assert [r.getMessage() for r in book.caplog.records if "stale" in r.getMessage()] == [
        "llmbook: docs/x.en.md:2: stale translation: its source docs/x.md changed since it was "
        'marked: prose changed in "## 1. 简单 {#simple}" (docs/x.md:3) (prose only: not an error)'
    ]


def test_an_unmarked_translation_fails_under_translations_strict(book: Book) -> None:
    book.write({"x.en.md": book.read("docs/x.en.md").split("---\n", 2)[2]})
    assert book.errors("zh") == [
        "docs/x.en.md:1: the translation of docs/x.md records no source (it was never marked) "
        "Fix: once it says what its source says, run "
        "`python -m llmbook.translate mark docs/x.en.md`"
    ]

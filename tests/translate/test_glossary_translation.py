"""A translated glossary (`docs/glossary.en.yml`, book.py `_glossary_errors`): its source's
entries in order, with the same terms and aliases, only the definitions translated; checked
by both builds, each error at the translated glossary's line."""

from __future__ import annotations

import pytest

from .conftest import Book

GLOSSARY = """\
- term: GQA
  zh: 分组查询注意力
  definition: 查询头分组，每组共用一对 K/V 头。
  aliases: [Grouped-Query Attention]
- term: KV Cache
  zh: 键值缓存
  definition: 存下已算过的 K/V。
"""
ENGLISH = """\
- term: GQA
  zh: 分组查询注意力
  definition: Query heads in groups, each group sharing one K/V head.
  aliases: [Grouped-Query Attention]
- term: KV Cache
  zh: 键值缓存
  definition: The K/V already computed, kept.
"""
RULE = "a translated glossary has its source's entries in order, with the same term and aliases"


@pytest.fixture
def glossary(book: Book) -> Book:
    book.write({"glossary.yml": GLOSSARY, "glossary.en.yml": ENGLISH})
    return book


def test_a_translated_glossary_passes(glossary: Book) -> None:
    glossary.build("en").ok()


def test_a_renamed_term_fails_at_its_entry(glossary: Book) -> None:
    glossary.write({"glossary.en.yml": ENGLISH.replace("term: KV Cache", "term: KV cache")})
    assert glossary.errors("zh") == [
        "docs/glossary.en.yml:5: entry 2 does not translate docs/glossary.yml's entry 'KV Cache' "
        f"(docs/glossary.yml:5): {RULE} Fix: give it `term: KV Cache`; translate only its "
        "definition"
    ]


def test_a_changed_alias_fails_at_its_entry(glossary: Book) -> None:
    glossary.write(
        {
            "glossary.en.yml": ENGLISH.replace(
                "[Grouped-Query Attention]", "[Grouped Query Attention]"
            )
        }
    )
    assert glossary.errors("en") == [
        "docs/glossary.en.yml:1: entry 1 does not translate docs/glossary.yml's entry 'GQA' "
        f"(docs/glossary.yml:1): {RULE} Fix: give it `term: GQA` and `aliases: [Grouped-Query "
        "Attention]`; translate only its definition"
    ]


def test_a_missing_term_fails_after_the_last_entry(glossary: Book) -> None:
    glossary.write({"glossary.en.yml": ENGLISH.split("- term: KV")[0]})
    assert glossary.errors("en") == [
        "docs/glossary.en.yml:1: docs/glossary.yml's entry 'KV Cache' (docs/glossary.yml:5) is "
        f"missing: {RULE} Fix: add it after this entry, with `term: KV Cache`; translate only "
        "its definition"
    ]


def test_an_extra_term_fails_at_its_entry(glossary: Book) -> None:
    extra = ENGLISH + "- term: RoPE\n  zh: 旋转位置编码\n  definition: Rotate by position.\n"
    glossary.write({"glossary.en.yml": extra})
    assert glossary.errors("en") == [
        "docs/glossary.en.yml:8: the entry 'RoPE' is not in docs/glossary.yml Fix: add it to the "
        "source glossary first, or remove it"
    ]

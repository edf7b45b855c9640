"""A translated glossary (`docs/glossary.en.yml`, book.py `_glossary_errors`): its source's
entries in order, with the same terms and aliases, only the definitions translated (and, if it
likes, names in its language); checked by both builds, each error at the translated glossary's
line. The English edition names a term in English, its Chinese name (the book's own) beside it."""

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
# The Chinese names are glossary.yml's: a translation need not repeat them.
ENGLISH = """\
- term: GQA
  definition: Query heads in groups, each group sharing one K/V head.
  aliases: [Grouped-Query Attention]
- term: KV Cache
  en: key-value cache
  definition: The K/V already computed, kept.
"""
RULE = "a translated glossary has its source's entries in order, with the same term and aliases"


@pytest.fixture
def glossary(book: Book) -> Book:
    book.write({"glossary.yml": GLOSSARY, "glossary.en.yml": ENGLISH})
    return book


def test_a_translated_glossary_passes(glossary: Book) -> None:
    glossary.build("en").ok()


def test_the_english_edition_names_terms_in_english_with_the_chinese_beside(
    glossary: Book,
) -> None:
    glossary.write(
        {"x.md": "# 页\n\n{term}`GQA`\n", "glossary.md": "# 术语表\n\n:::glossary\n:::\n"}
    )
    glossary.write({"x.en.md": "# Page\n\n{term}`GQA`\n"})
    glossary.mark()
    site = glossary.build("en").ok()
    assert (
        'title="GQA (分组查询注意力): Query heads in groups, each group sharing one K/V head." '
        'data-term="GQA" data-name="GQA (分组查询注意力)" '
    ) in site.page("x.html")
    listing = site.page("glossary.html")
    assert (
        '<dt id="term-kv-cache"><dfn class="llmbook-glossary__term">key-value cache</dfn> '
        '<span class="llmbook-glossary__other">键值缓存</span></dt>'
    ) in listing
    chinese = glossary.build("zh").ok().page("glossary.html")
    assert (
        '<dt id="term-kv-cache"><dfn class="llmbook-glossary__term">键值缓存</dfn> '
        '<span class="llmbook-glossary__other">KV Cache</span></dt>'
    ) in chinese


def test_a_renamed_term_fails_at_its_entry(glossary: Book) -> None:
    glossary.write({"glossary.en.yml": ENGLISH.replace("term: KV Cache", "term: KV cache")})
    assert glossary.errors("zh") == [
        "docs/glossary.en.yml:4: entry 2 does not translate docs/glossary.yml's entry 'KV Cache' "
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
    extra = ENGLISH + "- term: RoPE\n  definition: Rotate by position.\n"
    glossary.write({"glossary.en.yml": extra})
    assert glossary.errors("en") == [
        "docs/glossary.en.yml:7: the entry 'RoPE' is not in docs/glossary.yml Fix: add it to the "
        "source glossary first, or remove it"
    ]

"""Which file translates which (layout.py) and what each edition shows of it (book.py
`banner`): `x.en.md` is the English `x.md`; a page inside `guide/en/` is written in English
(never missing a translation, no note); a page without a translation is shown in the source's
language with a note; a translation without a source fails."""

from __future__ import annotations

import pytest
from llmbook.translate.layout import Languages

from .conftest import Book

BOOK = Languages(("zh", "en"), "zh")
ENGLISH = Languages(("zh", "en"), "en")
NOTE = '<p class="llmbook-untranslated">'
GUIDE = "# Options\n\nWritten in English.\n"


def test_a_translation_is_named_after_its_source() -> None:
    assert [ENGLISH.language_of(p) for p in ("docs/x.en.md", "docs/x.md", "docs/x.fr.md")] == [
        "en",
        None,
        None,  # not one of the book's languages
    ]
    assert ENGLISH.source_of("docs/a/x.en.ipynb") == "docs/a/x.ipynb"
    assert ENGLISH.source_of("docs/x.md") == "docs/x.md"
    assert ENGLISH.translation_of("docs/x.md") == "docs/x.en.md"
    assert (BOOK.translating, ENGLISH.translating) == (False, True)


def test_a_page_in_a_languages_folder_is_written_in_it() -> None:
    assert ENGLISH.written_in("docs/guide/en/options.md") == "en"
    assert ENGLISH.written_in("docs/guide/options.md") is None
    assert ENGLISH.written_in("docs/en.md") is None  # a file, not a folder


def test_the_switcher_links_the_same_page_in_the_other_site() -> None:
    assert BOOK.link("chapters/x.html", "en") == "../en/chapters/x.html"
    assert ENGLISH.link("chapters/x.html", "zh") == "../../chapters/x.html"
    assert ENGLISH.link("index.html", "zh") == "../index.html"


def test_a_page_written_in_english_is_neither_missing_nor_noted(book: Book) -> None:
    book.write({"guide/en/options.md": GUIDE})
    assert book.cli("status")[1] == (
        "docs/index.en.md  missing\n"
        "docs/x.en.md      current\n"
        "1 current, 0 stale, 0 unmarked, 1 missing\n"
    )
    built = book.build("en").ok()
    assert NOTE not in built.page("guide/en/options.html")
    assert NOTE not in built.page("x.html")
    assert NOTE in built.page("index.html")  # shown in Chinese: noted, in English
    assert (
        f"{NOTE}This page has not been translated into English yet: it is shown in Chinese, the "
        "language it was written in.</p>"
    ) in built.page("index.html")
    switcher = '<a href="../x.html" hreflang="zh" lang="zh">中文</a> · '
    assert switcher + '<span class="llmbook-languages__current" lang="en">English</span>' in (
        built.page("x.html")
    )


def test_a_translation_without_a_source_fails(book: Book) -> None:
    book.write({"y.en.md": "# Orphan\n"})
    assert book.errors("zh") == [
        "docs/y.en.md:1: this translation's source docs/y.md does not exist Fix: rename the "
        "translation after its source (x.md → x.en.md), or remove it"
    ]
    assert book.cli("status")[1].splitlines()[2] == (
        "docs/y.en.md      no source (docs/y.md does not exist)"
    )


def test_a_build_in_a_language_the_book_does_not_list_stops_with_the_fix(tmp_path) -> None:
    from llmbook.core.errors import LLMBookError
    from llmbook.core.i18n import Locale, load_locale
    from llmbook.core.project import Project
    from llmbook.translate.book import Translations

    options = {"languages": ["zh", "en"], "language": "fr"}
    french = Locale("fr", load_locale("en").data)  # only its code matters here
    with pytest.raises(LLMBookError) as raised:
        Translations.from_options(options, Project.at(tmp_path), french)
    assert str(raised.value) == (
        "mkdocs.yml: this build's language 'fr' (theme.language, or the llmbook option "
        "`language`) is not one of the book's `languages` ['zh', 'en']: add it to `languages`, "
        "or build with one of them"
    )

"""A book's own locale files (the folder its `locales` option names): one overrides a word of a
shipped language or adds a language; an unknown language, an incomplete file and a field llmbook
does not fill in are refused, naming what to fix."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from llmbook.core.i18n import LocaleError, load_locale

from .conftest import read


def test_a_language_without_a_locale_is_refused_naming_the_shipped_ones() -> None:
    with pytest.raises(LocaleError) as error:
        load_locale("pt")
    assert str(error.value) == (
        "llmbook has no words for the language 'pt': it ships de, en, es, fr, ja, zh. Fix: set "
        "theme.language to one of those, or add the file pt.yml to the folder the llmbook "
        "option `locales` names (a copy of llmbook/locales/en.yml translated: "
        "docs/guide/en/languages.md)"
    )


def test_a_language_in_neither_place_names_the_books_folder(tmp_path: Path) -> None:
    with pytest.raises(LocaleError) as error:
        load_locale("it", tmp_path)
    assert str(error.value) == (
        f"llmbook has no words for the language 'it': it ships de, en, es, fr, ja, zh, and "
        f"{tmp_path} has no it.yml. Fix: set theme.language to one of those, or add the file "
        "it.yml to the folder the llmbook option `locales` names (a copy of "
        "llmbook/locales/en.yml translated: docs/guide/en/languages.md)"
    )


def test_a_books_file_overrides_one_word_of_a_shipped_language(tmp_path: Path) -> None:
    (tmp_path / "fr.yml").write_text("ui:\n  quiz: Questionnaire\n", encoding="utf-8")
    original, book = load_locale("fr"), load_locale("fr", tmp_path)
    assert original.ui("quiz") == "Quiz" and book.ui("quiz") == "Questionnaire"
    changed = [k for k in original.data["ui"] if original.ui(k) != book.ui(k)]
    assert changed == ["quiz"]
    assert {k: v for k, v in book.data.items() if k != "ui"} == {
        k: v for k, v in original.data.items() if k != "ui"
    }
    assert book.digest != original.digest  # what a cache keys on changes with it


def test_a_books_file_adds_a_language(tmp_path: Path) -> None:
    english = read("en")
    portuguese = {
        **english,
        "code": "pt",
        "name": "Português",
        "ui": {**english["ui"], "quiz": "Questionário"},
    }
    (tmp_path / "pt.yml").write_text(
        yaml.safe_dump(portuguese, allow_unicode=True), encoding="utf-8"
    )
    locale = load_locale("pt-BR", tmp_path)
    assert (locale.code, locale.name, locale.ui("quiz")) == ("pt-BR", "Português", "Questionário")


def test_a_books_new_language_that_lacks_words_is_refused_naming_them(tmp_path: Path) -> None:
    english = read("en")
    ui = {k: v for k, v in english["ui"].items() if k not in ("quiz", "languages")}
    portuguese = {**english, "code": "pt", "ui": ui, "quiz": {"answer": ["Resposta"]}}
    (tmp_path / "pt.yml").write_text(
        yaml.safe_dump(portuguese, allow_unicode=True), encoding="utf-8"
    )
    with pytest.raises(LocaleError) as error:
        load_locale("pt", tmp_path)
    assert str(error.value) == (
        f"{tmp_path / 'pt.yml'}: the locale lacks ui.quiz, ui.languages, quiz.explanation. "
        "Fix: add them, as llmbook/locales/en.yml has them"
    )


def test_a_books_file_with_a_name_only_is_refused_with_the_count_of_the_rest(
    tmp_path: Path,
) -> None:
    (tmp_path / "pt.yml").write_text("code: pt\nname: Português\n", encoding="utf-8")
    with pytest.raises(LocaleError) as error:
        load_locale("pt", tmp_path)
    assert str(error.value) == (
        f"{tmp_path / 'pt.yml'}: the locale lacks quiz, references, examples, ui, ui.output, "
        "ui.stderr, ui.show_code, ui.show_cell, ui.show_output, ui.not_run_norun, "
        "ui.not_run_skip, ui.checked_title and 103 more. Fix: add them, as llmbook/locales/en.yml "
        "has them"
    )


def test_a_ui_field_english_does_not_fill_in_is_refused(tmp_path: Path) -> None:
    (tmp_path / "fr.yml").write_text("ui:\n  build_error: Erreur {numero}\n", encoding="utf-8")
    with pytest.raises(LocaleError) as error:
        load_locale("fr", tmp_path)
    assert str(error.value) == (
        f"{tmp_path / 'fr.yml'}: ui.build_error fills in {{numero}}, which llmbook does not "
        "give it. Fix: use only {number}"
    )
    (tmp_path / "fr.yml").write_text("ui:\n  quiz: Quiz {number}\n", encoding="utf-8")
    with pytest.raises(LocaleError) as error:
        load_locale("fr", tmp_path)
    assert str(error.value) == (
        f"{tmp_path / 'fr.yml'}: ui.quiz fills in {{number}}, which llmbook does not give it. "
        "Fix: write the text without {number}"
    )


def test_a_locales_option_naming_no_folder_is_refused(tmp_path: Path) -> None:
    from llmbook.core.i18n import options_locale

    with pytest.raises(LocaleError) as error:
        options_locale({"language": "en", "locales": "words"}, tmp_path)
    assert str(error.value) == (
        f"mkdocs.yml: the llmbook option `locales` names words, which is no folder (beside "
        f"mkdocs.yml: {tmp_path / 'words'}). Fix: create it with the book's <language>.yml "
        "files, or correct the path"
    )

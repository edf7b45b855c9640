"""The shipped locales (llmbook/locales/<code>.yml): each loads, has every word English's has and
fills in the same fields, is written in its language, names every shipped language (the
untranslated note reads with those names), and knows its quiz keywords."""

from __future__ import annotations

import re

import pytest
import yaml
from llmbook.core.i18n import load_locale, shipped_languages

from .conftest import LANGUAGES, fields, keys, read, shipped

# Each language's own name, as the language switcher shows it.
NAMES = {
    "de": "Deutsch",
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "ja": "日本語",
    "zh": "中文",
}


def test_llmbook_ships_six_languages() -> None:
    assert shipped_languages() == LANGUAGES


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_shipped_locale_loads_with_its_own_name(code: str) -> None:
    locale = load_locale(code)
    assert locale.code == code == read(code)["code"]
    assert locale.name == NAMES[code]


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_locale_has_every_key_of_englishs(code: str) -> None:
    # `write_whole` is optional: a language whose whole section number reads differently has it;
    extra = {k for k in keys(read(code)) - keys(read("en")) if not k.endswith(".write_whole")}
    extra -= {"tag"}  # optional too: the language as EPUB and Typst name it, where not its code
    assert keys(read("en")) - keys(read(code)) == set()
    assert extra == set()


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_locale_fills_in_the_fields_englishs_does(code: str) -> None:
    english, own = read("en"), read(code)
    for section in ("ui", "examples"):
        for key, text in english[section].items():
            assert fields(str(own[section][key])) == fields(str(text)), f"{section}.{key}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_locale_names_every_shipped_language(code: str) -> None:
    locale = load_locale(code)
    assert sorted(read(code)["names"]) == LANGUAGES
    assert locale.language_name(code) in (locale.name, locale.name.lower())


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_quiz_keywords_start_the_answer_and_explanation_lines(code: str) -> None:
    locale = shipped(code)
    for word in read(code)["quiz"]["answer"]:
        for line in (
            f"{word}: B",
            f"{word} : B",
            f"{word}\u00a0: B",
            f"{word}：B",
            f"  {word}:B  ",
        ):
            found = locale.quiz_answer.match(line)
            assert found is not None and found.group("letter") == "B", line
    for word in read(code)["quiz"]["explanation"]:
        found = locale.quiz_explanation.match(f"{word} : parce que")
        assert found is not None and found.group("text") == "parce que"
    # A quiz copied from an English book is read in every language.
    assert locale.quiz_answer.match("Answer: C").group("letter") == "C"
    assert locale.quiz_word("answer") == read(code)["quiz"]["answer"][0]


def test_each_languages_quiz_keywords() -> None:
    words = {
        code: (shipped(code).quiz_word("answer"), shipped(code).quiz_word("explanation"))
        for code in LANGUAGES
    }
    assert words == {
        "de": ("Antwort", "Erklärung"),
        "en": ("Answer", "Explanation"),
        "es": ("Respuesta", "Explicación"),
        "fr": ("Réponse", "Explication"),
        "ja": ("正解", "解説"),
        "zh": ("答案", "解析"),
    }
    assert shipped("ja").quiz_answer.match("答え：A").group("letter") == "A"


@pytest.mark.parametrize(
    ("code", "note"),
    [
        (
            "fr",
            "Cette page n'est pas encore traduite en français\u00a0: elle est montrée en "
            "chinois, sa langue d'origine.",
        ),
        (
            "de",
            "Diese Seite liegt noch nicht auf Deutsch vor; sie wird im Original auf Chinesisch gezeigt.",
        ),
        (
            "es",
            "Esta página aún no está traducida al español: se muestra en chino, el idioma en que se escribió.",
        ),
        ("ja", "このページはまだ日本語に翻訳されていません。原文の中国語で表示しています。"),
    ],
)
def test_the_untranslated_note_reads_with_the_languages_names(code: str, note: str) -> None:
    locale = shipped(code)
    text = locale.ui(
        "untranslated", language=locale.language_name(code), source=locale.language_name("zh")
    )
    assert text == note


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_untranslated_note_names_both_languages_for_every_pair(code: str) -> None:
    locale = shipped(code)
    for source in LANGUAGES:
        language, written = locale.language_name(code), locale.language_name(source)
        text = locale.ui("untranslated", language=language, source=written)
        assert language in text and written in text and "{" not in text


@pytest.mark.parametrize("code", ["fr", "de", "es", "ja"])
def test_a_locale_is_written_in_its_language_not_copied_from_englishs(code: str) -> None:
    """Every word differs from English's but for names, symbols and words both languages share."""
    same = {k for k, v in read(code)["ui"].items() if v == read("en")["ui"][k]}
    shared = {
        "cited_source",
        "footer_join",
        "footer_end",
        "list_join",
        "citation",
        "et_al",
        "print_card_number",
        "shapeflow_label",
        "term_other_name",
        "term_title",
        "citation_join",
        "figure_join",
        "shapeflow_join",
        "print_page",
        "quiz",
        "print_quiz",
        "print_key_item",
        "solution",
        "colophon_title",  # French has the word too
    }
    assert same <= shared, sorted(same - shared)
    assert not re.search(r"\bthe\b|\bbuild time\b", yaml.safe_dump(read(code)["ui"]))

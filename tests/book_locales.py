"""The locales the tests read and write pages in: this repository's book is Chinese with an English
edition, so each reads the other's forms, as its builds do (i18n.options_locale)."""

from __future__ import annotations

from llmbook.core.i18n import Locale, load_locale

__all__ = ["EN", "ZH", "with_section"]

ZH = load_locale("zh").reading([load_locale("en")])
EN = load_locale("en").reading([load_locale("zh")])


def with_section(locale: Locale, name: str, words: dict) -> Locale:
    """`locale` with a section of a book's own locale file (`demos: {ID: {key: text}}`)."""
    return Locale(locale.code, {**locale.data, name: words}, locale.read_from)

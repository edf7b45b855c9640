"""The locales the tests read and write pages in: this repository's book is Chinese with an English
edition, so each reads the other's forms, as its builds do (i18n.options_locale)."""

from __future__ import annotations

from llmbook.i18n import load_locale

__all__ = ["EN", "ZH"]

ZH = load_locale("zh").reading([load_locale("en")])
EN = load_locale("en").reading([load_locale("zh")])

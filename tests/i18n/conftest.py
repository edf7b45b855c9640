"""What the tests of the shipped locales share: the languages, each locale loaded once, its file
as written."""

from __future__ import annotations

import functools
import string

import yaml
from llmbook.core.i18n import SHIPPED, Locale, load_locale

LANGUAGES = ["de", "en", "es", "fr", "ja", "zh"]
KINDS = ("section", "chapter", "lesson", "figure", "table", "equation")
# Numbers each kind is written with: a section's has dots (or none, `第 3 节`), a figure's and a
# table's a hyphen after the chapter, an equation's a dot.
NUMBERS = {
    "section": ["3", "3.2", "10.2.1"],
    "chapter": ["3", "12"],
    "lesson": ["3", "12"],
    "figure": ["3", "3-1", "10-12"],
    "table": ["3", "3-2", "10-12"],
    "equation": ["3", "3.4", "10.12"],
}


@functools.cache
def shipped(code: str) -> Locale:
    """The shipped locale `code`, loaded once for the module (a test of loading calls
    load_locale itself)."""
    return load_locale(code)


@functools.cache
def read(code: str) -> dict:
    return yaml.safe_load((SHIPPED / f"{code}.yml").read_text(encoding="utf-8"))


def keys(data: dict, prefix: str = "") -> set[str]:
    """Every key, dotted (`ui.output`); a grouping's number words are the language's own."""
    found = set()
    for key, value in data.items():
        found.add(f"{prefix}{key}")
        if isinstance(value, dict) and key != "numbers":
            found |= keys(value, f"{prefix}{key}.")
    return found


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def found_references(locale: Locale, text: str) -> list[tuple[str, str, str]]:
    """(kind, number, matched text) of every reference pattern of `locale` that finds one."""
    return [
        (kind, m.group("number"), m.group(0))
        for kind, _, pattern in locale.reference_patterns
        for m in pattern.finditer(text)
    ]

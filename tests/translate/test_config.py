"""The project's English edition (mkdocs.en.yml) is the same book as mkdocs.yml: the same
llmbook options, its own language and site folder (site/en)."""

from __future__ import annotations

from llmbook.adapters.config import load_options
from llmbook.core.project import read_mkdocs_yml
from sites import ROOT


def test_the_english_config_has_the_books_options() -> None:
    book, english = load_options(ROOT / "mkdocs.yml"), load_options(ROOT / "mkdocs.en.yml")
    assert (book["language"], english["language"]) == ("zh", "en")
    assert {**book, "language": "en"} == dict(english)
    assert book["languages"] == ["zh", "en"] and book["translations_strict"] is True
    assert read_mkdocs_yml(ROOT / "mkdocs.en.yml")["site_dir"] == "site/en"

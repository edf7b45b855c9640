"""Any book, any language: an English book (`languages: [en, fr]`) with a French edition, whose
words come from the book's own locale folder (`locales: locales`, a complete `fr.yml`). The
French build's note on an untranslated page names both languages in French; its glossary names
each term in French (a `fr:` name, from glossary.yml or glossary.fr.yml) with the English name
beside it, defined as glossary.fr.yml says; the English build shows no other name."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
import yaml
from llmbook.core.i18n import SHIPPED
from sites import Built, build, write_config, write_pages

NOTE = (
    "Cette page n'est pas encore traduite en français\u00a0: elle est montrée en anglais, sa "
    "langue d'origine."
)
GLOSSARY = """\
- term: GQA
  definition: Query heads in groups, each group sharing one K/V head.
  fr: Attention à requêtes groupées
  aliases: [Grouped-Query Attention]
- term: KV Cache
  definition: The K/V already computed, kept.
"""
# The French definitions; the French name of KV Cache given here, GQA's taken from glossary.yml.
FRENCH_GLOSSARY = """\
- term: GQA
  definition: Des têtes de requête en groupes, chacun partageant une tête K/V.
  aliases: [Grouped-Query Attention]
- term: KV Cache
  fr: Cache clé-valeur
  definition: Les K/V déjà calculés, gardés.
"""
PAGES = {
    "index.md": "# Home\n\n{term}`GQA` keeps a smaller {term}`KV Cache`.\n",
    "glossary.md": "# Glossary\n\n:::glossary\n:::\n",
    "glossary.yml": GLOSSARY,
    "glossary.fr.yml": FRENCH_GLOSSARY,
}


def french_locale() -> str:
    """A complete French locale, as a book gives one llmbook does not ship: English's file,
    its names and the words these tests read translated."""
    data = yaml.safe_load((SHIPPED / "en.yml").read_text(encoding="utf-8"))
    data["code"], data["name"] = "fr", "Français"
    data["names"] = {"en": "anglais", "fr": "français", "zh": "chinois"}
    data["ui"].update(
        untranslated="Cette page n'est pas encore traduite en {language}\u00a0: elle est montrée "
        "en {source}, sa langue d'origine.",
        languages="Langues",
        term_used_on="Utilisé dans\u00a0: ",
        term_title="{term}\u00a0: {definition}",
    )
    return yaml.safe_dump(data, allow_unicode=True)


@pytest.fixture
def book(tmp_path: Path) -> Path:
    """The book's folder: mkdocs.yml (English) and mkdocs.fr.yml (the French edition)."""
    write_pages(tmp_path / "docs", PAGES)
    write_pages(tmp_path / "locales", {"fr.yml": french_locale()})
    config = {
        "site_name": "t",
        "use_directory_urls": False,
        "theme": {"name": "mkdocs", "language": "en"},
        "nav": [{"Home": "index.md"}, {"Glossary": "glossary.md"}],
        "plugins": [
            {
                "llmbook": {
                    "offline_check": False,
                    "languages": ["en", "fr"],
                    "locales": "locales",
                    "translations_strict": True,
                }
            }
        ],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences", "attr_list"],
    }
    write_config(tmp_path, config)
    french = "INHERIT: mkdocs.yml\ntheme:\n  language: fr\nsite_dir: site/fr\n"
    (tmp_path / "mkdocs.fr.yml").write_text(french, encoding="utf-8")
    return tmp_path


def built(root: Path, language: str) -> Built:
    config = root / ("mkdocs.yml" if language == "en" else f"mkdocs.{language}.yml")
    return build(config, in_process=True, cache=root / "cache")


def test_the_french_note_names_both_languages_in_french(book: Path) -> None:
    page = built(book, "fr").page("index.html")
    assert f'<p class="llmbook-untranslated">{html.escape(NOTE)}</p>' in page
    assert '<nav class="llmbook-languages" aria-label="Langues">' in page
    assert '<span class="llmbook-languages__current" lang="fr">Français</span>' in page


def test_the_french_glossary_names_terms_in_french_with_the_english_beside(book: Path) -> None:
    site = built(book, "fr")
    index = site.page("index.html")
    assert (
        'title="Attention à requêtes groupées (GQA)\u00a0: Des têtes de requête en groupes, '
        'chacun partageant une tête K/V." data-term="GQA" '
        'data-name="Attention à requêtes groupées (GQA)" '
        'data-definition="Des têtes de requête en groupes, chacun partageant une tête K/V.">GQA</a>'
    ) in index
    listing = site.page("glossary.html")
    assert (
        '<dt id="term-kv-cache"><dfn class="llmbook-glossary__term">Cache clé-valeur</dfn> '
        '<span class="llmbook-glossary__other">KV Cache</span></dt><dd><p '
        'class="llmbook-glossary__definition">Les K/V déjà calculés, gardés.</p><p '
        'class="llmbook-glossary__used">Utilisé dans\u00a0: <a href="index.html">Home</a></p>'
    ) in listing


def test_the_english_glossary_shows_no_other_name(book: Path) -> None:
    site = built(book, "en")
    index = site.page("index.html")
    assert (
        'title="GQA: Query heads in groups, each group sharing one K/V head." data-term="GQA" '
        'data-name="GQA" '
    ) in index
    listing = site.page("glossary.html")
    assert '<dfn class="llmbook-glossary__term">GQA</dfn></dt>' in listing
    assert "llmbook-glossary__other" not in listing and "Attention à" not in listing

"""Where a page links the editions this build makes: the files the build copies to the site's root,
named per language (`llmbook.pdf` in the book's own language, `llmbook.en.pdf` in English)."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from llmbook.core.i18n import Locale

__all__ = ["edition_links", "edition_name"]


def edition_name(kind: str, language: str, languages: Sequence[str] = ()) -> str:
    """The file of the edition `kind` built in `language`: `llmbook.<kind>` in the book's own
    language (the first of the `languages` option, or any when the option names none),
    `llmbook.<language>.<kind>` in another, so the editions of one book share a folder."""
    if not languages or not language or language == languages[0]:
        return f"llmbook.{kind}"
    return f"llmbook.{language}.{kind}"


def edition_links(
    kinds: Sequence[str], page_url: str, locale: Locale, languages: Sequence[str] = ()
) -> str:
    """The download links (HTML), relative to the page at `page_url`, that the site's list of
    editions shows."""
    folder = posixpath.dirname(page_url) or "."
    links = [
        f'<a href="{posixpath.relpath(edition_name(kind, locale.code, languages), folder)}" download>'
        f"{locale.ui(f'edition_{kind}')}</a>"
        for kind in kinds
    ]
    return " · ".join(links)

"""Where a page links the editions this build makes: the files the build copies to the site's root."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from llmbook.strings import ui

__all__ = ["edition_links"]


def edition_links(kinds: Sequence[str], page_url: str, language: str = "zh") -> str:
    """The HTML paragraph of download links, relative to the page at `page_url`."""
    folder = posixpath.dirname(page_url) or "."
    links = [
        f'<a href="{posixpath.relpath(f"llmbook.{kind}", folder)}" download>'
        f"{ui(language, f'edition_{kind}')}</a>"
        for kind in kinds
    ]
    return f'<p class="llmbook-editions">{ui(language, "editions")}{" · ".join(links)}</p>'

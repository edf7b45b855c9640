"""Where a page links the editions this build makes: the files the build copies to the site's root."""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

__all__ = ["edition_links"]

_NAMES = {"pdf": "PDF 版（A4，可打印）", "epub": "EPUB 版（电子书阅读器）"}


def edition_links(kinds: Sequence[str], page_url: str) -> str:
    """The HTML paragraph of download links, relative to the page at `page_url`."""
    folder = posixpath.dirname(page_url) or "."
    links = [
        f'<a href="{posixpath.relpath(f"llmbook.{kind}", folder)}" download>{_NAMES[kind]}</a>'
        for kind in kinds
    ]
    return f'<p class="llmbook-editions">下载本书：{" · ".join(links)}</p>'

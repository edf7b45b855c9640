"""The editions' last part: a colophon of the book-wide versions that computed its results
(Python, the platform, the union of the distributions the pages imported), in the book's language,
read from the site's `provenance.json` (site/provenance.py) for the book's pages."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from llmbook.core.i18n import Locale
from llmbook.editions.model import BookPage

__all__ = ["PROVENANCE_FILE", "book_versions", "colophon_html"]

PROVENANCE_FILE = "provenance.json"  # at the site's root: every executed page's record


def book_versions(
    records: Iterable[Mapping[str, Any]],
) -> tuple[list[str], list[str], dict[str, str]]:
    """The book-wide versions: (its Pythons, its platforms, the union of the distributions with
    their versions; a distribution found at two versions lists both)."""
    pythons: set[str] = set()
    platforms: set[str] = set()
    found: dict[str, set[str]] = {}
    for record in records:
        pythons.add(str(record["python"]))
        platforms.add(str(record["platform"]))
        for name, version in record["distributions"].items():
            found.setdefault(name, set()).add(str(version))
    names = sorted(found, key=str.lower)
    return sorted(pythons), sorted(platforms), {n: ", ".join(sorted(found[n])) for n in names}


def colophon_html(site_dir: Path, pages: Sequence[BookPage], locale: Locale) -> str:
    """The colophon as HTML for the editions' end; "" when no page of the book ran code."""
    path = site_dir / PROVENANCE_FILE
    if not path.is_file():
        return ""
    records = json.loads(path.read_text(encoding="utf-8"))
    chosen = [records[page.url] for page in pages if page.url in records]
    if not chosen:
        return ""
    pythons, platforms, union = book_versions(chosen)
    join = locale.ui("list_join")
    text = locale.ui(
        "colophon_text",
        python=html.escape(join.join(pythons)),
        platform=html.escape(join.join(platforms)),
    )
    items = "".join(
        f"<li><code>{html.escape(name)} {html.escape(version)}</code></li>"
        for name, version in union.items()
    )
    title = html.escape(locale.ui("colophon_title"))
    return f'<h1 id="llmbook-colophon">{title}</h1>\n<p>{text}</p>\n<ul>{items}</ul>\n'

"""The book's nav as one value: its pages in order, each with the title the nav gives it.

The engine adapter reads it once from the engine's own config (MkDocs: `config["nav"]`, with
INHERIT merged and `-f` honoured; Zensical: its resolved nav) and every layer receives it through
the site index: `:::related` titles, the glossary's page order, the editions' page list.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["NavPage", "nav_pages"]


@dataclass(frozen=True)
class NavPage:
    uri: str  # the page's source, relative to the docs folder: "chapters/ch10.md"
    title: str  # as the nav names it ("" when it gives none)


def nav_pages(nav: Any) -> list[NavPage]:
    """Every page of a nav as mkdocs.yml writes it (`- 标题: page.md`, `- page.md`, sections
    nested, external links left out), in its order."""
    found: list[NavPage] = []
    for item in nav if isinstance(nav, list) else []:
        entries = item.items() if isinstance(item, dict) else [("", item)]
        for title, target in entries:
            if isinstance(target, list):
                found += nav_pages(target)
            elif isinstance(target, str) and "://" not in target:
                found.append(NavPage(target, str(title or "")))
    return found

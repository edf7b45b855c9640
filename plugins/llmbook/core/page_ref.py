"""The page being rendered, as the core knows it: the adapters make one from their engine's page."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["PageRef"]


@dataclass(frozen=True)
class PageRef:
    src: str  # "docs/chapters/x.md", relative to the project root: how errors name the page
    url: str  # "chapters/x.html", relative to the site root: links are made relative to it
    uri: str  # "chapters/x.md", relative to docs_dir: a stable key (storage, element ids)

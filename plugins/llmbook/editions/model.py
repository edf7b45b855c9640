"""What the editions are made of, as plain data: the book's pages and its cover. Importing this
(or the package) needs none of the editions' tools: a site built without editions never loads them."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.directives.registry import Registry

__all__ = ["Book", "BookPage"]


@dataclass(frozen=True)
class BookPage:
    src: str  # docs/chapters/ch10-modern-llm.md, as errors name it
    url: str  # chapters/ch10-modern-llm.html: the built file, relative to the site folder
    title: str


@dataclass(frozen=True)
class Book:
    title: str
    subtitle: str
    date: str
    locale: Locale  # the build's (`theme.language`): the text the editions print, their tag
    # the build's directives (None: llmbook's own), each of which prints its web form
    directives: Registry | None = field(default=None, compare=False)

    @property
    def registry(self) -> Registry:
        from llmbook.directives.shipped import shipped  # only when an edition is made

        return self.directives if self.directives is not None else shipped()

    @classmethod
    def dated(
        cls, title: str, subtitle: str, locale: Locale, directives: Registry | None = None
    ) -> Book:
        """The book as of its build: SOURCE_DATE_EPOCH's day (reproducible builds), else today."""
        epoch = os.environ.get("SOURCE_DATE_EPOCH")
        day = (
            datetime.fromtimestamp(int(epoch), timezone.utc)
            if epoch
            else datetime.now(timezone.utc)
        )
        return cls(title, subtitle, day.strftime("%Y-%m-%d"), locale, directives)

    @property
    def language_tag(self) -> str:
        """The book's language as EPUB and Typst name it: its locale's `tag` (`zh-CN`), else
        the build's language as written (`en`, `pt-BR`)."""
        return str(self.locale.data.get("tag") or self.locale.code).replace("_", "-")

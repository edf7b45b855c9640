"""What a directive's print form works with: the page being put in print form and two helpers.

A directive's `print_form(soup, page)` (base.py) changes its own web form, found by the classes
it wrote, into what paper and an e-reader show, and may add to the page's end (`page.add_end`):
the quiz its answer key, the exercise its solutions. The editions call every directive of the
build's registry; they know none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from llmbook.core.i18n import Locale

if TYPE_CHECKING:
    from bs4 import BeautifulSoup, Tag

__all__ = ["PrintPage", "new_tag", "print_box"]


@dataclass
class PrintPage:
    html: str  # the page's article in print form
    locale: Locale  # the build's (`theme.language`): the text the print form adds
    svgs: dict[str, str] = field(default_factory=dict)  # file name → an inline drawing's SVG
    # what directives add to the page's end, by rank (the quiz's key 10, the solutions 20)
    ends: list[tuple[int, Any]] = field(default_factory=list)

    def ui(self, key: str, **fields: object) -> str:
        return self.locale.ui(key, **fields)

    def add_end(self, rank: int, tag: Tag) -> None:
        """Put `tag` at the page's end, after those of a lower rank."""
        self.ends.append((rank, tag))


def new_tag(soup: BeautifulSoup, name: str, text: str = "", **attrs: str) -> Tag:
    tag = soup.new_tag(name, attrs=attrs)
    if text:
        tag.string = text
    return tag


def print_box(soup: BeautifulSoup, kind: str, title: Tag | str | None) -> Tag:
    """An empty print box of `kind` (a Material admonition type) whose first child is its title."""
    box = new_tag(soup, "div", **{"class": "llmbook-box", "data-kind": kind})
    if title is not None:
        strong = new_tag(soup, "strong")
        if isinstance(title, str):
            strong.string = title
        else:
            strong.extend(list(title.contents))
        heading = new_tag(soup, "p", **{"class": "llmbook-box__title"})
        heading.append(strong)
        box.append(heading)
    return box

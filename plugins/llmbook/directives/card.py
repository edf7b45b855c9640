"""`:::card NUMBER TITLE` — one lesson card; cards.js adds a done toggle kept in localStorage."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from llmbook.core.errors import quoted
from llmbook.directives.base import REQUIRED, Context, Directive, escape
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = ["Card", "card_number"]

_ARG = re.compile(r"^(?P<number>\d+)\s+(?P<title>\S.*)$")


def card_number(node: Block, ctx: Context) -> tuple[int, str]:
    match = _ARG.match(node.arg)
    if match is None:
        raise ctx.error(
            node.line,
            f"card needs a number and a title, got {quoted(repr(node.arg))}",
            f'write ":::card 1 {ctx.locale.example("title")}" (the card\'s number, a space, '
            "its title)",
        )
    return int(match.group("number")), match.group("title")


class Card(Directive):
    NAME = "card"
    FLOW = True
    ARGUMENT = REQUIRED
    CLASSES = ("llmbook-card__number",)
    WORDS = ("card_done", "print_card_number")

    def validate(self, node: Block, ctx: Context) -> None:
        number, _ = card_number(node, ctx)
        for other in ctx.doc.walk():
            match = (
                _ARG.match(other.arg) if other.name == "card" and other.line < node.line else None
            )
            if match and int(match.group("number")) == number:
                raise ctx.error(
                    node.line,
                    f"card number {number} is used twice (lines {other.line} and {node.line})",
                    "number the cards 1, 2, 3, … once each",
                )

    def render(self, node: Block, ctx: Context) -> list[str]:
        number, title = card_number(node, ctx)
        key = escape(f"{ctx.page_key}#{number}")
        opening = (
            f'<section class="llmbook-card" id="card-{number}" data-llmbook-card="{key}">'
            f'<header class="llmbook-card__header"><span class="llmbook-card__number">{number}</span>'
            f'<span class="llmbook-card__title">{ctx.inline(title)}</span></header>'
        )
        closing = (
            '<footer class="llmbook-card__footer"><button type="button" class="md-button llmbook-card__done"'
            f' aria-pressed="false" hidden>{ctx.ui("card_done")}</button></footer></section>'
        )
        return ctx.wrap(node, opening, closing, ctx.children(node))

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """A section of the notebook: a heading with its number and title, then its body."""
        number, _, title = page.title(node).partition(" ")
        heading = f"## {number}{page.ui('print_card_number')}{title.strip()}"
        return ["", heading, "", *page.children(node), ""]

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Its number says what it is (its done button goes with every button)."""
        for tag in soup.select(".llmbook-card__number"):
            tag.append(page.ui("print_card_number"))

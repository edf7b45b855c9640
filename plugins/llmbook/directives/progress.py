"""`:::progress` — "k / N 卡片已完成" for the page's N cards (cards.js fills k from localStorage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.directives.base import FORBIDDEN, Context, Directive, escape, refuse_body
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = ["Progress"]


class Progress(Directive):
    NAME = "progress"
    ARGUMENT = FORBIDDEN
    NESTED = ()
    CLASSES = ("llmbook-progress",)
    WORDS = ("progress", "progress_done")

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Paper keeps no progress: it goes."""
        for tag in soup.select(".llmbook-progress"):
            tag.decompose()

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """A notebook keeps no progress: nothing."""
        return []

    def _total(self, ctx: Context) -> int:
        return sum(1 for block in ctx.doc.walk() if block.name == "card")

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(node, ctx, "progress takes no body", "leave the :::progress block empty")
        if not self._total(ctx):
            raise ctx.error(
                node.line,
                "progress counts cards, but the page has no :::card",
                "add :::card blocks or remove :::progress",
            )

    def render(self, node: Block, ctx: Context) -> list[str]:
        total = self._total(ctx)
        html_text = (
            f'<div class="llmbook-progress" data-llmbook-progress="{escape(ctx.page_key)}" data-total="{total}">'
            f'<progress class="llmbook-progress__bar" max="{total}" value="0" aria-label="{ctx.ui("progress")}"></progress>'
            f'<span class="llmbook-progress__text" role="status"><span class="llmbook-progress__done">0</span> / {total} {ctx.ui("progress_done")}</span>'
            "</div>"
        )
        return ctx.single(node, html_text)

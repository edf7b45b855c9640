"""`:::glossary` — the glossary page's list of every term (docs/glossary.yml), each with its
Chinese name, definition and the pages that use it; the book layer makes the list."""

from __future__ import annotations

from llmbook.directives.base import FORBIDDEN, Context, Directive, register
from llmbook.directives.nodes import Block

__all__ = ["GlossaryList"]


@register
class GlossaryList(Directive):
    NAME = "glossary"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        written = [number for number, line in node.text_lines() if line.strip()]
        if written:
            raise ctx.error(
                written[0],
                ":::glossary takes no body (its list comes from docs/glossary.yml)",
                "move the text above the :::glossary block, or into docs/glossary.yml",
            )

    def render(self, node: Block, ctx: Context) -> list[str]:
        if ctx.glossary is None:  # a text rendered without the book: nothing to list
            return ctx.single(node, '<dl class="llmbook-glossary"></dl>')
        return ctx.single(node, ctx.glossary.listing())

"""`:::glossary` — the glossary page's list of every term (docs/glossary.yml), each with its
name in the site's language, definition and the pages that use it; the book layer makes the list."""

from __future__ import annotations

from llmbook.directives.base import (
    FORBIDDEN,
    Context,
    Directive,
    escape,
    refuse_body,
)
from llmbook.directives.nodes import Block

__all__ = ["GlossaryList"]


class GlossaryList(Directive):
    NAME = "glossary"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(
            node,
            ctx,
            ":::glossary takes no body (its list comes from docs/glossary.yml)",
            "move the text above the :::glossary block, or into docs/glossary.yml",
        )

    def render(self, node: Block, ctx: Context) -> list[str]:
        if ctx.glossary is None:  # a text rendered without the book (a showcase's example)
            note = escape(ctx.ui("glossary_note"))
            return ctx.single(node, f'<p class="llmbook-glossary__note">{note}</p>')
        return ctx.single(node, ctx.glossary.listing())

"""`:::editions` — links to the book's PDF and EPUB editions, where this build makes them
(the llmbook option `editions`, or LLMBOOK_EDITIONS); elsewhere a note of how to make them."""

from __future__ import annotations

from llmbook.directives.base import (
    FORBIDDEN,
    Context,
    Directive,
    escape,
    refuse_body,
)
from llmbook.directives.nodes import Block

__all__ = ["Editions"]


class Editions(Directive):
    NAME = "editions"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(
            node,
            ctx,
            "editions takes no body: it links the editions this build makes",
            "leave the :::editions block empty",
        )

    def render(self, node: Block, ctx: Context) -> list[str]:
        links = ctx.made.get("editions")
        if links is None:
            note = escape(ctx.ui("editions_note"))
            return ctx.single(node, f'<p class="llmbook-editions">{note}</p>')
        return ["", *links.splitlines(), ""]

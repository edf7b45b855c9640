"""`:::bibliography` — the book's bibliography page: every entry of the .bib file, each with the
pages that cite it. The list is made by the site's citation step (`book/cite_render.py`)."""

from __future__ import annotations

from llmbook.directives.base import (
    FORBIDDEN,
    Context,
    Directive,
    escape,
    refuse_body,
)
from llmbook.directives.nodes import Block

__all__ = ["Bibliography"]


class Bibliography(Directive):
    NAME = "bibliography"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(
            node,
            ctx,
            "bibliography takes no body: it lists the .bib file's entries",
            "leave the :::bibliography block empty",
        )

    def render(self, node: Block, ctx: Context) -> list[str]:
        listing = ctx.made.get("bibliography")
        if listing is None:  # rendered without the site: a showcase (a site without a .bib fails)
            note = escape(ctx.ui("bibliography_note"))
            return ctx.single(node, f'<p class="llmbook-bibliography-note">{note}</p>')
        return ["", *listing.splitlines(), ""]

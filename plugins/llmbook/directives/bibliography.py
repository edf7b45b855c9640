"""`:::bibliography` — the book's bibliography page: every entry of the .bib file, each with the
pages that cite it. The list is made by the site's citation step (`book/cite_render.py`)."""

from __future__ import annotations

from llmbook.directives.base import FORBIDDEN, Context, Directive, register
from llmbook.directives.nodes import Block

__all__ = ["Bibliography"]


@register
class Bibliography(Directive):
    NAME = "bibliography"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        for number, line in node.text_lines():
            if line.strip():
                raise ctx.error(
                    number,
                    "bibliography takes no body: it lists the .bib file's entries",
                    "leave the :::bibliography block empty",
                )

    def render(self, node: Block, ctx: Context) -> list[str]:
        listing = ctx.made.get("bibliography")
        if listing is None:  # rendered without the site (its start reports the missing file)
            return [""]
        return ["", *listing.splitlines(), ""]

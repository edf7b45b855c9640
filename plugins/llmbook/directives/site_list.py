"""A list the site supplies, else a note: `:::bibliography`, `:::glossary` and `:::editions`.

Each takes no title and no body; where the build made its list (the book layer's bibliography
and glossary, the editions' links), the block shows it, elsewhere (a showcase, a site without
that list) a note in the page's words.
"""

from __future__ import annotations

from typing import ClassVar

from llmbook.directives.base import FORBIDDEN, Context, Directive, escape, refuse_body
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage

__all__ = ["Bibliography", "Editions", "GlossaryList", "SiteList"]


class SiteList(Directive):
    """One list the site supplies (`listing`), shown by `show`; the note `NOTE` without it."""

    ARGUMENT = FORBIDDEN
    NESTED = ()
    NOTE: ClassVar[str] = ""  # the locale key of the note shown when the site supplies no list
    NOTE_CLASS: ClassVar[str] = ""
    EMPTY: ClassVar[tuple[str, str]] = ("", "")  # the problem and fix of a body written in it

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(node, ctx, *self.EMPTY)

    def listing(self, ctx: Context) -> str | None:
        """What the site's book steps made for it (None: nothing)."""
        return ctx.made.get(self.NAME)

    def show(self, node: Block, listing: str, ctx: Context) -> list[str]:
        """The list as Markdown lines in the page."""
        return ["", *listing.splitlines(), ""]

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Its note, linked to the page where the site shows the list."""
        return ["", f"[{page.ui(self.NOTE)}]({page.page_link()})", ""]

    def render(self, node: Block, ctx: Context) -> list[str]:
        listing = self.listing(ctx)
        if listing is None:
            note = escape(ctx.ui(self.NOTE))
            return ctx.single(node, f'<p class="{self.NOTE_CLASS}">{note}</p>')
        return self.show(node, listing, ctx)


class Bibliography(SiteList):
    """Every entry of the .bib file, each with the pages that cite it (`book/cite_render.py`)."""

    NAME = "bibliography"
    NOTE, NOTE_CLASS = "bibliography_note", "llmbook-bibliography-note"
    WORDS = ("bibliography_note",)
    EMPTY = (
        "bibliography takes no body: it lists the .bib file's entries",
        "leave the :::bibliography block empty",
    )


class GlossaryList(SiteList):
    """Every term of docs/glossary.yml, with its name in the site's language, its definition and
    the pages that use it (the book layer's `GlossaryView`)."""

    NAME = "glossary"
    NOTE, NOTE_CLASS = "glossary_note", "llmbook-glossary__note"
    WORDS = ("glossary_note",)
    EMPTY = (
        ":::glossary takes no body (its list comes from docs/glossary.yml)",
        "move the text above the :::glossary block, or into docs/glossary.yml",
    )

    def listing(self, ctx: Context) -> str | None:
        return ctx.glossary.listing() if ctx.glossary is not None else None

    def show(self, node: Block, listing: str, ctx: Context) -> list[str]:
        return ctx.single(node, listing)


class Editions(SiteList):
    """Links to the book's PDF and EPUB editions, where this build makes them (the llmbook option
    `editions`, or LLMBOOK_EDITIONS; the links: editions/links.py)."""

    NAME = "editions"
    NOTE, NOTE_CLASS = "editions_note", "llmbook-editions"
    WORDS = ("editions", "editions_note")
    EMPTY = (
        "editions takes no body: it links the editions this build makes",
        "leave the :::editions block empty",
    )

    def show(self, node: Block, listing: str, ctx: Context) -> list[str]:
        html = f'<p class="llmbook-editions">{escape(ctx.ui("editions"))}{listing}</p>'
        return ctx.single(node, html)

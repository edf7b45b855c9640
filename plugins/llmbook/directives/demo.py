"""`:::demo ID TITLE` — embeds a demo the book registers; its body is the description shown
with it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.core.errors import quoted
from llmbook.demos import DemoError
from llmbook.directives.base import REQUIRED, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage, titled

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = ["DemoDirective"]


class DemoDirective(Directive):
    NAME = "demo"
    ARGUMENT = REQUIRED
    NESTED = ()
    # its frame's, as demos/base.py writes it
    CLASSES = ("llmbook-demo", "llmbook-demo__widget", "llmbook-widget", "llmbook-demo__narrow")
    WORDS = ("print_online", "notebook_demo")

    def _resolve(self, node: Block, ctx: Context) -> tuple[str, str]:
        # Known IDs come from the book's catalog: validating a page imports no demo (no torch).
        demo_id, _, title = node.arg.partition(" ")
        known = ctx.demos.known_ids() if ctx.demos is not None else []
        if demo_id not in known:
            raise ctx.error(
                node.line,
                f"unknown demo {quoted(repr(demo_id))}",
                f"use one of: {', '.join(known)}"
                if known
                else "this book registers no demos: name the module that registers it in the "
                "llmbook option `demos` of mkdocs.yml, e.g. `demos: [mybook_demos]`",
            )
        if not title.strip():
            raise ctx.error(
                node.line,
                f":::demo {demo_id} needs a title after its ID",
                f'write it on the same line, e.g. ":::demo {ctx.locale.example("demo", id=demo_id)}"',
            )
        return demo_id, title.strip()

    def validate(self, node: Block, ctx: Context) -> None:
        self._resolve(node, ctx)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Its title and description, and a link to the page where it is interactive."""
        title = page.title(node).partition(" ")[2].strip()
        link = f"[{page.ui('notebook_demo')}]({page.page_link()})"
        return titled(title, [*page.children(node), "", link])

    def render(self, node: Block, ctx: Context) -> list[str]:
        demo_id, title = self._resolve(node, ctx)
        description = ctx.fragment("\n".join(line for _, line in node.text_lines()))
        assert ctx.demos is not None  # _resolve found the ID among them
        try:
            # The demo's frame in the page's language (its figure, controls and script's words).
            frame = ctx.demos.render(demo_id, title, description, ctx.locale)
        except DemoError as error:
            raise ctx.error(node.line, f":::demo {demo_id} {error.problem}", error.fix) from None
        return ctx.single(node, frame)

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Its static drawing and caption, with a note that it is interactive online."""
        for demo in soup.select("figure.llmbook-demo"):
            # the widget, and the narrow screen's copy of the drawing: paper has the wide one
            for gone in demo.select(
                ".llmbook-demo__widget, .llmbook-widget, .llmbook-demo__narrow"
            ):
                gone.decompose()
            caption = demo.find("figcaption")
            if caption is not None:
                demo.append(caption.extract())  # under the drawing, as every figure's
                caption.append(f" {page.ui('print_online')}")

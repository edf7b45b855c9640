"""`:::step TITLE` — one step of a `:::walkthrough` (rendered by it, as a content tab)."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage

__all__ = ["Step"]


class Step(Directive):
    NAME = "step"
    FLOW = True
    ARGUMENT = REQUIRED
    PARENTS = ("walkthrough",)

    def render(self, node: Block, ctx: Context) -> list[str]:
        return ctx.children(node)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Its title in bold, its body after it, inside its walkthrough's box."""
        return ["", f"**{page.title(node)}**", "", *page.children(node), ""]

"""`:::walkthrough TITLE` holding `:::step TITLE` blocks — a worked example, steps as content tabs."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, Context, Directive
from llmbook.directives.box import box_close, box_open
from llmbook.directives.nodes import Block
from llmbook.directives.tab_set import render_tab_set
from llmbook.directives.tabs import check_only_blocks

__all__ = ["Walkthrough"]


class Walkthrough(Directive):
    NAME = "walkthrough"
    ARGUMENT = REQUIRED
    NESTED = ("step",)

    def validate(self, node: Block, ctx: Context) -> None:
        check_only_blocks(node, "step", ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        opening = box_open(
            "example", ctx.inline(node.arg), collapse=None, extra="llmbook-walkthrough"
        )
        return ctx.wrap(
            node, opening, box_close(None), render_tab_set(node, node.blocks("step"), ctx)
        )

"""`:::step TITLE` — one step of a `:::walkthrough` (rendered by it, as a content tab)."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, Context, Directive
from llmbook.directives.nodes import Block

__all__ = ["Step"]


class Step(Directive):
    NAME = "step"
    FLOW = True
    ARGUMENT = REQUIRED
    PARENTS = ("walkthrough",)

    def render(self, node: Block, ctx: Context) -> list[str]:
        return ctx.children(node)

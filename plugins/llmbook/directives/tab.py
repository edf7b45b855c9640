"""`:::tab TITLE` — one tab of a `:::tabs` set (rendered by the set)."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, Context, Directive
from llmbook.directives.nodes import Block

__all__ = ["Tab"]


class Tab(Directive):
    NAME = "tab"
    FLOW = True
    ARGUMENT = REQUIRED
    PARENTS = ("tabs",)

    def render(self, node: Block, ctx: Context) -> list[str]:
        return ctx.children(node)  # only reached through the set, which wraps each tab

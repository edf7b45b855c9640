"""`:::tabs` holding `:::tab TITLE` blocks — Material content tabs (e.g. Pre-Norm vs Post-Norm)."""

from __future__ import annotations

from llmbook.directives.base import FORBIDDEN, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.tab_set import render_tab_set

__all__ = ["Tabs"]


def check_only_blocks(node: Block, child: str, ctx: Context) -> None:
    """A tab set holds its tabs and nothing else (text there would have no tab to live in)."""
    for number, line in node.text_lines():
        if line.strip():
            raise ctx.error(
                number,
                f"text inside :::{node.name} outside any :::{child}",
                f"move it into a :::{child} block (or out of the :::{node.name} block)",
            )
    if not node.blocks(child):
        raise ctx.error(
            node.line,
            f":::{node.name} has no :::{child} block",
            f"add :::{child} TITLE … ::: blocks inside it",
        )


class Tabs(Directive):
    NAME = "tabs"
    ARGUMENT = FORBIDDEN
    NESTED = ("tab",)

    def validate(self, node: Block, ctx: Context) -> None:
        check_only_blocks(node, "tab", ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        return render_tab_set(node, node.blocks("tab"), ctx)

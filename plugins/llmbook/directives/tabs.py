"""`:::tabs` holding `:::tab TITLE` blocks — Material content tabs (e.g. Pre-Norm vs Post-Norm)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.directives.base import FORBIDDEN, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage
from llmbook.directives.printing import new_tag
from llmbook.directives.tab_set import render_tab_set

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

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
    CLASSES = ("tabbed-set", "tabbed-labels", "tabbed-content", "tabbed-block")

    def validate(self, node: Block, ctx: Context) -> None:
        check_only_blocks(node, "tab", ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        return render_tab_set(node, node.blocks("tab"), ctx)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """Every tab, one after the other, each a box under its label."""
        return page.children(node)

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Every tab shown, under its label."""
        for tabs in soup.select("div.tabbed-set"):
            labels = [
                label.get_text(" ", strip=True) for label in tabs.select(".tabbed-labels label")
            ]
            blocks = tabs.select(".tabbed-content > .tabbed-block")
            shown = new_tag(soup, "div", **{"class": "llmbook-tabs"})
            for label, block in zip(labels, blocks, strict=True):
                heading = new_tag(soup, "p", **{"class": "llmbook-tab__label"})
                heading.append(new_tag(soup, "strong", label))
                shown.append(heading)
                shown.extend(list(block.contents))
            tabs.replace_with(shown)

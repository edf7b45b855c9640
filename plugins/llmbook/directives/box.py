"""The shared shape of the box directives: a Material admonition or a collapsible details element.

Material styles both from the type class (note, tip, warning, …), so icons and dark mode apply.
"""

from __future__ import annotations

from typing import ClassVar

from llmbook.directives.base import Context, Directive
from llmbook.directives.nodes import Block

__all__ = ["BoxDirective", "box_close", "box_open"]


def box_open(
    kind: str, title_html: str, *, collapse: str | None, extra: str = "", attrs: str = ""
) -> str:
    """Opening HTML: `collapse` None → admonition; "open"/"closed" → details (open or not)."""
    classes = f"{kind} {extra}".strip()
    if collapse is None:
        return (
            f'<div class="admonition {classes}"{attrs}><p class="admonition-title">{title_html}</p>'
        )
    opened = ' open="open"' if collapse == "open" else ""
    return f'<details class="{classes}"{opened}{attrs}><summary>{title_html}</summary>'


def box_close(collapse: str | None) -> str:
    return "</div>" if collapse is None else "</details>"


class BoxDirective(Directive):
    """A titled box around Markdown; subclasses set the Material type and how it collapses."""

    KIND: ClassVar[str] = "note"
    COLLAPSE: ClassVar[str | None] = None
    FLOW = True
    DEFAULT_TITLE: ClassVar[str] = ""

    def render(self, node: Block, ctx: Context) -> list[str]:
        title = ctx.inline(node.arg) if node.arg else self.DEFAULT_TITLE
        extra = f"llmbook-{self.NAME}"
        return ctx.wrap(
            node,
            box_open(self.KIND, title, collapse=self.COLLAPSE, extra=extra),
            box_close(self.COLLAPSE),
            ctx.children(node),
        )

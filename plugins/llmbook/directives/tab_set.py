"""Material content tabs (pymdownx.tabbed, alternate style) around Markdown bodies.

The HTML is the one pymdownx.tabbed emits, so Material's CSS and its tab linking apply; ids are
unique on the page because they come from the page's stash counter.
"""

from __future__ import annotations

from llmbook.directives.base import Context
from llmbook.directives.nodes import Block

__all__ = ["render_tab_set"]


def render_tab_set(parent: Block, tabs: list[Block], ctx: Context) -> list[str]:
    """Tab labels from each block's title; each block's body becomes one tab."""
    group = f"__tabbed_llmbook{ctx.unique()}"
    checked = ' checked="checked"'
    inputs = "".join(
        f'<input{checked if i == 1 else ""} id="{group}_{i}" name="{group}" type="radio" />'
        for i in range(1, len(tabs) + 1)
    )
    labels = "".join(
        f'<label for="{group}_{i}">{ctx.inline(tab.arg)}</label>' for i, tab in enumerate(tabs, 1)
    )
    head = (
        f'<div class="tabbed-set tabbed-alternate llmbook-{parent.name}" data-tabs="0:{len(tabs)}">'
        f'{inputs}<div class="tabbed-labels">{labels}</div><div class="tabbed-content">'
    )
    lines: list[str] = ["", parent.indent + ctx.token(head), ""]
    for tab in tabs:
        lines.extend(ctx.wrap(tab, '<div class="tabbed-block">', "</div>", ctx.children(tab)))
    lines.extend(["", parent.indent + ctx.token("</div></div>"), ""])
    return lines

"""`:::related` — lines `label | item, item, …`; items the site teaches become links, the rest chips."""

from __future__ import annotations

import re

from llmbook.core.errors import quoted
from llmbook.directives.base import FORBIDDEN, Context, Directive, escape
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage

__all__ = ["Related"]

_ITEM_SPLIT = re.compile(r"\s*[,，、]\s*")


class Related(Directive):
    NAME = "related"
    ARGUMENT = FORBIDDEN
    NESTED = ()
    WORDS = ("list_join",)

    def rows(self, node: Block, ctx: Context) -> list[tuple[str, list[str]]]:
        rows = []
        for number, line in node.text_lines():
            if not line.strip():
                continue
            if "|" not in line:
                raise ctx.error(
                    number,
                    f"related line {quoted(repr(line.strip()))} has no '|'",
                    f'write "label | item, item", e.g. "{ctx.locale.example("related")}"',
                )
            label, items = line.split("|", 1)
            names = [item for item in _ITEM_SPLIT.split(items.strip()) if item]
            if not label.strip() or not names:
                raise ctx.error(
                    number,
                    f"related line {quoted(repr(line.strip()))} needs a label before '|' and "
                    "items after it",
                    f'write "label | item, item", e.g. "{ctx.locale.example("related")}"',
                )
            rows.append((label.strip(), names))
        if not rows:
            raise ctx.error(node.line, "related block is empty", 'add lines "label | item, item"')
        return rows

    def validate(self, node: Block, ctx: Context) -> None:
        node.data = self.rows(node, ctx)

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """A list, a row an item: its label, then its topics, linked where the site teaches
        them."""
        assert isinstance(node.data, list), "a related block is validated before it is shown"
        items = []
        for label, names in node.data:
            links = [
                f"[{name}]({href})" if (href := page.topic_link(name)) is not None else name
                for name in names
            ]
            items.append(f"- **{label}**: {page.ui('list_join').join(links)}")
        return ["", *items, ""]

    def render(self, node: Block, ctx: Context) -> list[str]:
        parts = ['<div class="llmbook-related">']
        for label, names in self.rows(node, ctx):
            chips = []
            for name in names:
                target = ctx.site.lookup(name) if ctx.site is not None else None
                text = ctx.inline(name)
                if target is None:
                    chips.append(f'<span class="llmbook-chip">{text}</span>')
                else:
                    href = escape(ctx.site.href(target, ctx.page))
                    chips.append(
                        f'<a class="llmbook-chip llmbook-chip--link" href="{href}"'
                        f' title="{escape(target.title)}">{text}</a>'
                    )
            parts.append(
                f'<div class="llmbook-related__row"><span class="llmbook-related__label">{ctx.inline(label)}</span>'
                f'<span class="llmbook-related__items">{"".join(chips)}</span></div>'
            )
        parts.append("</div>")
        return ctx.single(node, "".join(parts))

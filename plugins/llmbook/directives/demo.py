"""`:::demo ID TITLE` — embeds a registered demo; its body is the description shown with it."""

from __future__ import annotations

from llmbook import demos
from llmbook.directives.base import REQUIRED, Context, Directive, register
from llmbook.directives.nodes import Block

__all__ = ["DemoDirective"]


@register
class DemoDirective(Directive):
    NAME = "demo"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::demo kv-cache 交互：有无缓存的对比"
    NESTED = ()

    def _resolve(self, node: Block, ctx: Context) -> tuple[demos.Demo, str]:
        demo_id, _, title = node.arg.partition(" ")
        demo = demos.get_demo(demo_id)
        if demo is None:
            raise ctx.error(
                node.line,
                f"unknown demo {demo_id!r}",
                f"use one of: {', '.join(demos.known_ids())}",
            )
        if not title.strip():
            raise ctx.error(
                node.line,
                f":::demo {demo_id} needs a title after its ID",
                f'write it on the same line, e.g. ":::demo {demo_id} 交互：…"',
            )
        return demo, title.strip()

    def validate(self, node: Block, ctx: Context) -> None:
        self._resolve(node, ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        demo, title = self._resolve(node, ctx)
        description = ctx.fragment("\n".join(line for _, line in node.text_lines()))
        return ctx.single(node, demo.render_html(title, description))

"""`:::demo ID TITLE` — embeds a registered demo; its body is the description shown with it."""

from __future__ import annotations

from llmbook import demos
from llmbook.directives.base import REQUIRED, Context, Directive, register
from llmbook.directives.nodes import Block
from llmbook.errors import quoted

__all__ = ["DemoDirective"]

# How to install what a built-in demo imports: llmkit is the llmbook repository's own distribution
# (not on PyPI), and it brings torch.
_INSTALL = {
    "torch": "torch (`pip install torch`)",
    "llmkit": "llmkit (`pip install -e .` in the llmbook repository's root; it brings torch)",
}


@register
class DemoDirective(Directive):
    NAME = "demo"
    ARGUMENT = REQUIRED
    NESTED = ()

    def _resolve(self, node: Block, ctx: Context) -> tuple[str, str]:
        # Known IDs come from the catalog: validating a page imports no demo (and no torch).
        demo_id, _, title = node.arg.partition(" ")
        if demo_id not in demos.known_ids():
            raise ctx.error(
                node.line,
                f"unknown demo {quoted(repr(demo_id))}",
                f"use one of: {', '.join(demos.known_ids())}",
            )
        if not title.strip():
            raise ctx.error(
                node.line,
                f":::demo {demo_id} needs a title after its ID",
                f'write it on the same line, e.g. ":::demo {ctx.locale.example("demo", id=demo_id)}"',
            )
        return demo_id, title.strip()

    def validate(self, node: Block, ctx: Context) -> None:
        self._resolve(node, ctx)

    def render(self, node: Block, ctx: Context) -> list[str]:
        demo_id, title = self._resolve(node, ctx)
        description = ctx.fragment("\n".join(line for _, line in node.text_lines()))
        try:
            frame = self._frame(demo_id, title, description, ctx)
        except demos.DemoNeeds as missing:
            # The plugin ships without torch and llmkit; the built-in demos compute with both.
            raise ctx.error(
                node.line,
                f":::demo {demo_id} computes with {missing.package}, which is not installed",
                f"install {_INSTALL.get(missing.package, f'`{missing.package}`')} beside llmbook, "
                "or remove the demo",
            ) from None
        return ctx.single(node, frame)

    @staticmethod
    def _frame(demo_id: str, title: str, description: str, ctx: Context) -> str:
        """The demo's frame in the page's language (its figure, controls and script's words)."""
        if ctx.demo_cache is not None:
            return ctx.demo_cache.render(demo_id, title, description, ctx.locale.code)
        demo = demos.get_demo(demo_id, ctx.locale.code)
        assert demo is not None  # known_ids() listed it
        return demo.render_html(title, description)

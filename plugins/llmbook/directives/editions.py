"""`:::editions` — links to the book's PDF and EPUB editions, where this build makes them
(the llmbook option `editions`, or LLMBOOK_EDITIONS); elsewhere a note of how to make them."""

from __future__ import annotations

from llmbook.directives.base import FORBIDDEN, Context, Directive, refuse_body, register
from llmbook.directives.nodes import Block

__all__ = ["Editions"]

NOTE = "本书另有 PDF 与 EPUB 版，由 `nox -s pdf`、`nox -s epub` 从同一次构建生成。"


@register
class Editions(Directive):
    NAME = "editions"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        refuse_body(
            node,
            ctx,
            "editions takes no body: it links the editions this build makes",
            "leave the :::editions block empty",
        )

    def render(self, node: Block, ctx: Context) -> list[str]:
        links = ctx.made.get("editions")
        if links is None:
            return ctx.single(node, f'<p class="llmbook-editions">{ctx.inline(NOTE)}</p>')
        return ["", *links.splitlines(), ""]

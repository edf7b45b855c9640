"""`:::interview TITLE` — interview questions, each answered in a nested `:::answer` block."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, Context
from llmbook.directives.box import BoxDirective
from llmbook.directives.nodes import Block

__all__ = ["Interview"]


class Interview(BoxDirective):
    NAME = "interview"
    ARGUMENT = REQUIRED
    KIND = "question"
    NESTED = ("answer",)

    def validate(self, node: Block, ctx: Context) -> None:
        if not node.blocks("answer"):
            raise ctx.error(
                node.line,
                "interview has no :::answer block",
                "put each question's answer in a :::answer … ::: block below the question",
            )

"""`:::chain TITLE` — the lesson's reasoning chain: a numbered Markdown list, one item per step."""

from __future__ import annotations

import re

from llmbook.directives.base import REQUIRED, Context
from llmbook.directives.box import BoxDirective
from llmbook.directives.nodes import Block

__all__ = ["Chain"]

_ITEM = re.compile(r"^\s{0,3}\d+[.)]\s+\S")


class Chain(BoxDirective):
    NAME = "chain"
    ARGUMENT = REQUIRED
    KIND = "info"
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        if not any(_ITEM.match(line) for _, line in node.text_lines()):
            raise ctx.error(
                node.line,
                "chain has no numbered steps",
                "write the steps as a numbered list: "
                f'"{ctx.locale.example("chain_item")}", one item per step',
            )

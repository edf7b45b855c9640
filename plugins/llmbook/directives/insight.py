"""`:::insight TITLE` — the key insight that closes a card."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["Insight"]


@register
class Insight(BoxDirective):
    NAME = "insight"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::insight 核心矛盾"
    KIND = "tip"

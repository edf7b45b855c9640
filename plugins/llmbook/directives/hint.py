"""`:::hint [TITLE]` — a card's hint, collapsed so the reader thinks first."""

from __future__ import annotations

from llmbook.directives.base import OPTIONAL, register
from llmbook.directives.box import BoxDirective

__all__ = ["Hint"]


@register
class Hint(BoxDirective):
    NAME = "hint"
    ARGUMENT = OPTIONAL
    KIND = "question"
    COLLAPSE = "closed"
    DEFAULT_TITLE = "提示"

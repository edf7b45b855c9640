"""`:::background [TITLE]` — the knowledge a card builds on (collapsible, open)."""

from __future__ import annotations

from llmbook.directives.base import OPTIONAL, register
from llmbook.directives.box import BoxDirective

__all__ = ["Background"]


@register
class Background(BoxDirective):
    NAME = "background"
    ARGUMENT = OPTIONAL
    KIND = "info"
    COLLAPSE = "open"
    DEFAULT_TITLE = "知识背景"

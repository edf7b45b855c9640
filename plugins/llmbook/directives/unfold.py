"""`:::unfold TITLE` — the intuition box: collapsible, open by default."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["Unfold"]


@register
class Unfold(BoxDirective):
    NAME = "unfold"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::unfold 先懂直觉"
    KIND = "tip"
    COLLAPSE = "open"

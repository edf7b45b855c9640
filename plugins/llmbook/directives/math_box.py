"""`:::math TITLE` — a derivation box, collapsible (open, so the derivation reads in line)."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["MathBox"]


@register
class MathBox(BoxDirective):
    NAME = "math"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::math 为什么中间维度是 8/3 d"
    KIND = "abstract"
    COLLAPSE = "open"

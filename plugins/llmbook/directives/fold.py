"""`:::fold TITLE` — engineering detail, collapsed by default."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["Fold"]


@register
class Fold(BoxDirective):
    NAME = "fold"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::fold 工程里怎么用"
    KIND = "example"
    COLLAPSE = "closed"

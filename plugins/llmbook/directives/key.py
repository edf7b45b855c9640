"""`:::key TITLE` — the summary box of a section."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["Key"]


@register
class Key(BoxDirective):
    NAME = "key"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::key 本节必须记住"
    KIND = "success"

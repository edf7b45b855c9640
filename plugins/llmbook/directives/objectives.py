"""`:::objectives TITLE` — a lesson's learning objectives (a Markdown list)."""

from __future__ import annotations

from llmbook.directives.base import REQUIRED, register
from llmbook.directives.box import BoxDirective

__all__ = ["Objectives"]


@register
class Objectives(BoxDirective):
    NAME = "objectives"
    ARGUMENT = REQUIRED
    EXAMPLE = ":::objectives 学完本课你将能够"
    KIND = "abstract"

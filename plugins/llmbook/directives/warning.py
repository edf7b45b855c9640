"""`:::warning [TITLE]` — a warning admonition; the title defaults to 注意."""

from __future__ import annotations

from llmbook.directives.base import OPTIONAL, register
from llmbook.directives.box import BoxDirective

__all__ = ["WarningBox"]


@register
class WarningBox(BoxDirective):
    NAME = "warning"
    ARGUMENT = OPTIONAL
    KIND = "warning"
    DEFAULT_TITLE = "注意"

"""`:::answer` inside `:::interview` — the answer, hidden behind a 查看答案 toggle."""

from __future__ import annotations

from llmbook.directives.base import FORBIDDEN, register
from llmbook.directives.box import BoxDirective

__all__ = ["Answer"]


@register
class Answer(BoxDirective):
    NAME = "answer"
    ARGUMENT = FORBIDDEN
    PARENTS = ("interview",)
    KIND = "success"
    COLLAPSE = "closed"
    DEFAULT_TITLE = "查看答案"

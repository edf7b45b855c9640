"""The directives llmbook ships, and the registry of one book: those and its `box_types`."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from llmbook.directives.base import Directive
from llmbook.directives.box import BOX_TYPES, BoxTypeError, box_classes, configured_boxes
from llmbook.directives.card import Card
from llmbook.directives.chain import Chain
from llmbook.directives.demo import DemoDirective
from llmbook.directives.exercise import Exercise, Solution
from llmbook.directives.interview import Interview
from llmbook.directives.progress import Progress
from llmbook.directives.quiz import Quiz
from llmbook.directives.registry import Registry
from llmbook.directives.related import Related
from llmbook.directives.shapeflow import Shapeflow
from llmbook.directives.showcase import Showcase
from llmbook.directives.site_list import Bibliography, Editions, GlossaryList
from llmbook.directives.step import Step
from llmbook.directives.tab import Tab
from llmbook.directives.tabs import Tabs
from llmbook.directives.walkthrough import Walkthrough

__all__ = ["SHIPPED", "book_directives", "shipped"]

SHIPPED: tuple[type[Directive], ...] = (
    Bibliography, *box_classes(BOX_TYPES), Card, Chain, DemoDirective, Editions, Exercise,
    GlossaryList, Interview, Progress, Quiz, Related, Shapeflow, Showcase, Solution, Step, Tab,
    Tabs, Walkthrough,
)  # fmt: skip


@functools.cache
def shipped() -> Registry:
    """llmbook's own directives (immutable, so one serves every text rendered without a book)."""
    return Registry(SHIPPED)


def book_directives(options: Mapping[str, Any]) -> Registry:
    """The registry of one build: the shipped directives and the book's `box_types` (a name
    already taken or a malformed row raises BoxTypeError)."""
    rows = configured_boxes(options.get("box_types") or {})
    for row in rows:
        if row.name in shipped():
            raise BoxTypeError(
                f"llmbook option box_types: {row.name}: :::{row.name} is one of llmbook's own "
                f"directives. Fix: give the box type another name (taken: "
                f"{', '.join(shipped().names())})"
            )
    return shipped().extended(box_classes(rows)) if rows else shipped()

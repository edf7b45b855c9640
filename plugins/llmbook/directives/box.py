"""The box directives: a Material admonition or a collapsible details element around Markdown.

Material styles both from the type class (note, tip, warning, …), so icons and dark mode apply.
A box that differs from the others only by data (its type, title, whether it collapses) is a row
of `BOX_TYPES`, registered from it, as pymdown-extensions' admonition types are; a box with checks
of its own (`:::interview`, `:::chain`) subclasses `BoxDirective`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from llmbook.directives.base import FORBIDDEN, OPTIONAL, REQUIRED, Context, Directive, register
from llmbook.directives.nodes import Block

__all__ = ["BOX_TYPES", "BoxDirective", "BoxType", "box_close", "box_open", "register_boxes"]


def box_open(
    kind: str, title_html: str, *, collapse: str | None, extra: str = "", attrs: str = ""
) -> str:
    """Opening HTML: `collapse` None → admonition; "open"/"closed" → details (open or not)."""
    classes = f"{kind} {extra}".strip()
    if collapse is None:
        return (
            f'<div class="admonition {classes}"{attrs}><p class="admonition-title">{title_html}</p>'
        )
    opened = ' open="open"' if collapse == "open" else ""
    return f'<details class="{classes}"{opened}{attrs}><summary>{title_html}</summary>'


def box_close(collapse: str | None) -> str:
    return "</div>" if collapse is None else "</details>"


class BoxDirective(Directive):
    """A titled box around Markdown; subclasses set the Material type and how it collapses."""

    KIND: ClassVar[str] = "note"
    COLLAPSE: ClassVar[str | None] = None
    FLOW = True
    DEFAULT_TITLE: ClassVar[str] = ""

    def render(self, node: Block, ctx: Context) -> list[str]:
        title = (
            ctx.inline(node.arg)
            if node.arg
            else (ctx.ui(self.DEFAULT_TITLE) if self.DEFAULT_TITLE else "")
        )
        extra = f"llmbook-{self.NAME}"
        return ctx.wrap(
            node,
            box_open(self.KIND, title, collapse=self.COLLAPSE, extra=extra),
            box_close(self.COLLAPSE),
            ctx.children(node),
        )


@dataclass(frozen=True)
class BoxType:
    """One row of the table: a `:::NAME` box that needs no code of its own.

    `kind` is Material's admonition type (its colour and icon); `collapse` None is an admonition,
    "open"/"closed" a details element; the HTML also carries the class `llmbook-NAME`.
    """

    name: str
    kind: str
    purpose: str  # what an author uses it for (the table documents the directives)
    collapse: str | None = None
    argument: str = REQUIRED
    default_title: str = ""  # the strings.py key of the title shown when none is written
    parents: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.collapse not in (None, "open", "closed"):
            raise ValueError(
                f"box {self.name!r}: collapse is None, 'open' or 'closed', not {self.collapse!r}"
            )
        if self.argument not in (REQUIRED, OPTIONAL, FORBIDDEN):
            raise ValueError(f"box {self.name!r}: unknown argument rule {self.argument!r}")


BOX_TYPES: tuple[BoxType, ...] = (
    BoxType("key", "success", "the summary box of a section"),
    BoxType("insight", "tip", "the key insight that closes a card"),
    BoxType(
        "objectives",
        "abstract",
        "a lesson's learning objectives (a Markdown list)",
    ),
    BoxType(
        "warning",
        "warning",
        "a warning",
        argument=OPTIONAL,
        default_title="box_warning",
    ),
    BoxType(
        "unfold",
        "tip",
        "the intuition box, open by default",
        collapse="open",
    ),
    BoxType(
        "math",
        "abstract",
        "a derivation, open so that it reads in line",
        collapse="open",
    ),
    BoxType(
        "background",
        "info",
        "the knowledge a card builds on",
        collapse="open",
        argument=OPTIONAL,
        default_title="box_background",
    ),
    BoxType(
        "fold",
        "example",
        "engineering detail, collapsed",
        collapse="closed",
    ),
    BoxType(
        "hint",
        "question",
        "a card's hint, collapsed so that the reader thinks first",
        collapse="closed",
        argument=OPTIONAL,
        default_title="box_hint",
    ),
    BoxType(
        "answer",
        "success",
        "the answer to an interview question, behind a toggle",
        collapse="closed",
        argument=FORBIDDEN,
        default_title="box_answer",
        parents=("interview",),
    ),
)


def register_boxes(rows: Iterable[BoxType]) -> list[type[BoxDirective]]:
    """One `BoxDirective` subclass per row, registered; a name already taken raises RuntimeError."""
    classes = []
    for row in rows:
        attributes = {
            "__doc__": f"`:::{row.name}` — {row.purpose}.",
            "NAME": row.name,
            "KIND": row.kind,
            "COLLAPSE": row.collapse,
            "ARGUMENT": row.argument,
            "DEFAULT_TITLE": row.default_title,
            "PARENTS": row.parents,
        }
        cls = type(f"{row.name.title()}Box", (BoxDirective,), attributes)
        classes.append(register(cls))
    return classes


register_boxes(BOX_TYPES)

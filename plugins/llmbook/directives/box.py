"""The box directives: a Material admonition or a collapsible details element around Markdown.

Material styles both from the type class (note, tip, warning, …), so icons and dark mode apply.
A box that differs from the others only by data (its type, title, whether it collapses) is a row
of `BOX_TYPES`, made a class by `box_classes`, as pymdown-extensions' admonition types are; a book
adds rows of its own in its configuration (`box_types`, read by `configured_boxes`). A box with
checks of its own (`:::interview`, `:::chain`) subclasses `BoxDirective`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from llmbook.core.errors import LLMBookError
from llmbook.directives.base import FORBIDDEN, OPTIONAL, REQUIRED, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import CodeCell, Lines, NotebookPage, folded, titled
from llmbook.directives.printing import new_tag

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.directives.printing import PrintPage

__all__ = [
    "BOX_TYPES",
    "BoxDirective",
    "BoxType",
    "BoxTypeError",
    "box_classes",
    "box_close",
    "box_open",
    "configured_boxes",
]
NAME = re.compile(r"[A-Za-z][\w-]*")  # as the parser reads a directive's name
# Material's admonition types: each has its colour and icon (a configured box names one as `icon`).
KINDS = ("note", "abstract", "info", "tip", "success", "question", "warning", "failure", "danger",
         "bug", "example", "quote")  # fmt: skip


class BoxTypeError(LLMBookError):
    """A row of the `box_types` option that cannot be a box."""


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
    DEFAULT_TITLE: ClassVar[str] = ""  # the locale key of the title shown when none is written
    TITLE: ClassVar[str] = ""  # a configured box's title, in the book's words
    # the locale key of a label it prints with, as text after what it folds (no box); "": a box
    PRINT_LABEL: ClassVar[str] = ""

    def render(self, node: Block, ctx: Context) -> list[str]:
        if node.arg:
            title = ctx.inline(node.arg)
        elif self.DEFAULT_TITLE:
            title = ctx.ui(self.DEFAULT_TITLE)
        else:
            title = ctx.inline(self.TITLE)
        extra = f"llmbook-{self.NAME}"
        return ctx.wrap(
            node,
            box_open(self.KIND, title, collapse=self.COLLAPSE, extra=extra),
            box_close(self.COLLAPSE),
            ctx.children(node),
        )

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """A blockquote under its title; a box that folds (a hint, an answer) folds in the
        notebook too, unless code that ran stands in it (a code cell cannot sit in a fold)."""
        title = page.title(node) if node.arg else self._default_title(page)
        body = page.children(node)
        if self.COLLAPSE == "closed" and not any(isinstance(x, CodeCell) for x in body):
            return folded(title, body)
        return titled(title, body)

    def _default_title(self, page: NotebookPage) -> str:
        if self.DEFAULT_TITLE:
            return page.ui(self.DEFAULT_TITLE)
        return self.TITLE

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """A box with a print label reads on in the text, its label first; others print as the
        editions print every box."""
        if not self.PRINT_LABEL:
            return
        for tag in reversed(soup.select(f"details.llmbook-{self.NAME}")):
            summary = tag.find("summary", recursive=False)
            if summary is not None:
                summary.extract()
            first = tag.find("p")
            if first is not None:
                first.insert(0, new_tag(soup, "strong", page.ui(self.PRINT_LABEL)))
            tag.unwrap()


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
    default_title: str = ""  # the locale key of the title shown when none is written
    parents: tuple[str, ...] | None = None
    title: str = ""  # a configured box's title when none is written (the book's own words)
    print_label: str = ""  # the locale key of its print label (`BoxDirective.PRINT_LABEL`)

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
        print_label="print_answer",
    ),
)


def box_classes(rows: Iterable[BoxType]) -> list[type[BoxDirective]]:
    """One `BoxDirective` subclass per row (a registry refuses a name already taken)."""
    classes: list[type[BoxDirective]] = []
    for row in rows:
        attributes = {
            "__doc__": f"`:::{row.name}` — {row.purpose}.",
            "NAME": row.name,
            "KIND": row.kind,
            "COLLAPSE": row.collapse,
            "ARGUMENT": row.argument,
            "DEFAULT_TITLE": row.default_title,
            "TITLE": row.title,
            "PRINT_LABEL": row.print_label,
            "CLASSES": (f"llmbook-{row.name}",),
            "WORDS": tuple(k for k in (row.default_title, row.print_label) if k),
            "PARENTS": row.parents,
        }
        classes.append(type(f"{row.name.title()}Box", (BoxDirective,), attributes))
    return classes


def configured_boxes(option: Mapping[str, Any]) -> list[BoxType]:
    """The book's own box types, from its `box_types` option: name → {icon, title, collapse}.
    `icon` is a Material admonition type (its icon and colour); with a `title` the box's own
    title is optional; `collapse` open or closed makes it fold. BoxTypeError names a bad row."""
    return [_configured(str(name), row or {}) for name, row in option.items()]


def _configured(name: str, row: object) -> BoxType:
    fix = (
        f"write it `{name}: {{icon: tip, title: …, collapse: closed}}` (icon one of "
        f"{', '.join(KINDS)}; collapse open or closed, or left out)"
    )
    if not NAME.fullmatch(name):
        problem = "a directive's name is a letter, then letters, digits, - or _"
    elif not isinstance(row, dict):
        problem = f"{row!r} is not a mapping"
    elif set(row) - {"icon", "title", "collapse"}:
        problem = f"unknown key {sorted(set(row) - {'icon', 'title', 'collapse'})[0]!r}"
    elif row.get("icon", "note") not in KINDS:
        problem = f"icon {row['icon']!r} is no Material admonition type"
    elif row.get("collapse") not in (None, "open", "closed"):
        problem = f"collapse {row['collapse']!r} is neither open nor closed"
    else:
        title = str(row.get("title") or "")
        return BoxType(
            name,
            row.get("icon", "note"),
            "a box type of the book's configuration",
            collapse=row.get("collapse"),
            argument=OPTIONAL if title else REQUIRED,
            title=title,
        )
    raise BoxTypeError(f"llmbook option box_types: {name}: {problem}. Fix: {fix}")

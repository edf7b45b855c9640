"""What a directive's notebook form works with: the page being made a Jupyter notebook, and the
shapes Jupyter's Markdown shows (blockquotes, folds).

A directive's `notebook_form(node, page)` (base.py) returns the Markdown lines it becomes in a
notebook's Markdown cells, with a `CodeCell` where a block of its body ran: that block becomes a
code cell of its own there, and the lines around it go to the cells before and after. The site
(site/notebook_prose.py) makes the page and cuts the lines into cells; it knows no directive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.directives.nodes import Block

__all__ = ["CodeCell", "Lines", "NotebookPage", "blockquote", "folded", "text_block", "titled"]


@dataclass(frozen=True)
class CodeCell:
    """A code block that ran, by its opening fence's file line: a code cell of the notebook."""

    line: int


Lines = list[str | CodeCell]


class NotebookPage(Protocol):
    """What a directive sees of the page it is made a notebook of (site/notebook_prose.py)."""

    locale: Locale  # the page's: the words a notebook form adds

    def ui(self, key: str, **fields: object) -> str:
        """Interface text in the page's language."""

    def line(self, number: int) -> str:
        """File line `number` as the notebook shows it: numbers as their values, references and
        terms as links to the site, math kept for Jupyter."""

    def title(self, node: Block) -> str:
        """A block's title (its options left out) as the notebook shows it; a numbered part's
        (`:::exercise`) starts with its number."""

    def children(self, node: Block) -> Lines:
        """A block's body as the notebook shows it, each nested block in its notebook form."""

    def page_link(self) -> str:
        """The page on the book's site, relative to the notebook."""

    def topic_link(self, name: str) -> str | None:
        """The page or heading of the site that teaches `name`, relative to the notebook (None:
        none does)."""


def blockquote(lines: Lines) -> Lines:
    """Every Markdown line quoted (`> `); code cells stay where they are, between quotes."""
    return [
        (f"> {line}" if line.strip() else ">") if isinstance(line, str) else line for line in lines
    ]


def titled(title: str, body: Lines) -> Lines:
    """A box as Jupyter shows it: a blockquote whose first line is its title, in bold."""
    head = [f"**{title}**", ""] if title.strip() else []
    return ["", *blockquote([*head, *body]), ""]


def folded(summary: str, body: Lines) -> Lines:
    """A fold (`<details>`) around the body; a code cell cannot stand inside one, so the fold is
    cut around each, every part under the same summary."""
    out: Lines = [""]
    run: list[str] = []
    for line in [*body, None]:
        if isinstance(line, str):
            run.append(line)
            continue
        if any(text.strip() for text in run):
            out += [f"<details><summary>{summary}</summary>", "", *run, "", "</details>", ""]
        run = []
        if line is not None:
            out += [line, ""]
    return out


def text_block(lines: list[str]) -> Lines:
    """Lines shown as written, in a fence longer than any run of backticks they hold."""
    fence = "`" * max([3, *(len(run) + 1 for line in lines for run in re.findall("`+", line))])
    return ["", f"{fence}text", *lines, fence, ""]

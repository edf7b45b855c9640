"""A page's Markdown as the ordered cells of its notebook: prose between the blocks that ran.

A STUB: the page's lines split at the blocks that ran, the prose as written. The real module
(directives, numbers, math and references in a form Jupyter shows) replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llmbook.execute.stages.collect import PageSource
    from llmbook.site.site import Site

__all__ = ["CodeCell", "ProseCell", "ProseContext", "page_cells", "prose_context"]


@dataclass(frozen=True)
class ProseCell:
    markdown: str


@dataclass(frozen=True)
class CodeCell:
    line: int  # CodeBlock.line of a block that ran (page.blocks[i].runs)


@dataclass(frozen=True)
class ProseContext:
    page: PageSource


def prose_context(site: Site, src: str) -> ProseContext:
    """What the cells of page `src` (a key of `site.report.plans`) are made from."""
    return ProseContext(site.report.plans[src].page)


def page_cells(context: ProseContext) -> list[ProseCell | CodeCell]:
    """The page in order: its prose as Markdown cells, each block that ran as a code cell."""
    page = context.page
    runs = {b.line: b for b in page.blocks if b.runs}
    cells: list[ProseCell | CodeCell] = []
    prose: list[str] = []
    line = page.first
    while line < page.first + len(page.lines):
        block = runs.get(line)
        if block is None:
            prose.append(page.lines[line - page.first])
            line += 1
            continue
        if "\n".join(prose).strip():
            cells.append(ProseCell("\n".join(prose).strip("\n")))
        prose = []
        cells.append(CodeCell(block.line))
        line = block.end_line + 1
    if "\n".join(prose).strip():
        cells.append(ProseCell("\n".join(prose).strip("\n")))
    return cells

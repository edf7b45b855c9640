"""The live preview's view of a page with author errors (only under `mkdocs serve`).

A build stops at the first report; the preview instead renders the page, puts each error in a marked
box at its spot (the exact text the build would stop with) and lists them all at the top, so the
author reads the page they are fixing. `mkdocs build`, Zensical, pytest and CI never come here.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from mkdocs.plugins import get_plugin_logger

from llmbook.directives.nodes import Block
from llmbook.directives.registry import Registry
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.stages.mode import Forgiving, recover
from llmbook.execute.stages.report import Report
from llmbook.core.i18n import Locale
from llmbook.core.page_context import PageContext, PageError
from llmbook.core.page_ref import PageRef
from llmbook.core.stash import Stash

__all__ = ["PageError", "Preview", "place_boxes", "preview_page", "summary_html"]

log = get_plugin_logger(__name__)


class Preview(Forgiving):
    """The live preview's way of running a build (`Site.mode`): the report is logged, not raised,
    and every page renders with its errors shown on it; no rendered page is cached."""

    caches_pages = False

    def failed(self, report: Report) -> None:
        try:
            report.raise_if_failed()
        except LLMBookError as error:
            log.error(str(error))

    def render_page(self, site: Any, markdown: str, page: PageRef, stash: Stash) -> str:
        """`site` (a `Site`) renders the page with those lines plain and those boxes."""
        plan = site.report.plans.get(page.src)
        errors = [PageError(e.line, str(e)) for e in site.report.failures if e.src == page.src]
        if plan is not None:
            errors += [PageError(n.binding.line, n.mismatch) for n in plan.numbers if n.mismatch]
        errors.sort(key=lambda e: e.line)
        return preview_page(site.render, site.context(markdown, page, stash), errors)


def preview_page(
    render: Callable[[PageContext], str], page: PageContext, errors: list[PageError]
) -> str:
    """The `page` with its `errors` shown: `render` renders it with the context's lines as
    text and its boxes. An error met while rendering is logged, its line shown as written with
    its box, and the page rendered again; the list of all of them goes on top."""

    def attempt(plain: frozenset[int], found: list[AuthorError]) -> str:
        shown = errors + [PageError(e.line, str(e)) for e in found]
        return render(page.shown_with(plain, shown))

    body, found, _ = recover(attempt, src=page.src, lines=page.lexed.numbers)
    for error in found:
        log.error(str(error))
    errors = errors + [PageError(e.line, str(e)) for e in found]
    locale = page.locale
    if body is None:
        return page.stash.put(fallback_html(errors, page.lexed.text, locale))
    return page.stash.put(summary_html(errors, locale)) + "\n\n" + body if errors else body


def _box(error: PageError, number: int, locale: Locale) -> str:
    return (
        f'<div class="llmbook-build-error" id="llmbook-error-{number}" role="alert">'
        f'<p class="llmbook-build-error__title">{locale.ui("build_error", number=number)}</p>'
        f"<pre>{escape(error.text)}</pre></div>"
    )


def summary_html(errors: list[PageError], locale: Locale) -> str:
    """The list at the top of the page: every error, linked to its box."""
    items = "".join(
        f'<li><a href="#llmbook-error-{n}">{escape(e.text.split(": ", 1)[0])}</a>'
        f"<pre>{escape(e.text)}</pre></li>"
        for n, e in enumerate(errors, start=1)
    )
    return (
        '<div class="llmbook-build-errors" role="alert">'
        f'<p class="llmbook-build-errors__title">'
        f"{locale.ui('build_errors', count=len(errors))}</p>"
        f"<ol>{items}</ol></div>"
    )


def fallback_html(errors: list[PageError], markdown: str, locale: Locale) -> str:
    """A page the preview cannot render at all: its errors, then its source as written."""
    return summary_html(errors, locale) + f'<pre class="llmbook-source">{escape(markdown)}</pre>'


def place_boxes(
    doc: Block,
    edits: LineEdits,
    errors: list[PageError],
    put: Callable[[str], str],
    locale: Locale,
    directives: Registry,
) -> None:
    """Put each error's box after its line. A line inside fenced code moves to the fence's end;
    inside a directive whose body has its own structure (a quiz, a shape flow), the box stands
    before that directive, so the page still renders as the build would."""
    lines = edits.lexed.numbers
    for number, error in enumerate(errors, start=1):
        if error.line not in lines:
            continue  # front matter or past the end: listed at the top only
        line = _outside_structured(doc, edits.lexed.fence_end(error.line), directives)
        edits.after(line, put(_box(error, number, locale)))


def _outside_structured(node: Block, line: int, directives: Registry) -> int:
    """`line`, or the opener line of the outermost directive around it that is not free Markdown
    (whatever follows an opener's line stands before its block)."""
    for block in node.blocks():
        if block.line < line <= block.end_line:
            directive = directives.get(block.name)
            if line == block.end_line:  # its closing `:::` holds no text
                return block.line
            if directive is None or not directive.FLOW:
                return block.line
            return _outside_structured(block, line, directives)
    return line

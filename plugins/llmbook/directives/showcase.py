"""`:::showcase` — for the authoring guide: a fenced example source shown beside what it renders.

The body is one fenced code block (```` ```markdown ````). The page shows the fence as written and,
beside it, the fence's content rendered by this same plugin (math included), so the guide is
produced by the code it documents and cannot go stale. Errors in the example name the guide's line.
"""

from __future__ import annotations

from llmbook.core.formulas import render_math_text
from llmbook.core.lexer import fences
from llmbook.directives.base import FORBIDDEN, Context, Directive
from llmbook.directives.nodes import Block
from llmbook.directives.notebook import Lines, NotebookPage
from llmbook.directives.tree import parse_directives, render_directives

__all__ = ["Showcase"]


def _example(node: Block, ctx: Context) -> tuple[str, int]:
    """(content of the single fence, file line of its first line)."""
    numbered = node.text_lines()
    lines = [s for _, s in numbered]
    found = fences(lines)
    filled = [i for i, s in enumerate(lines) if s.strip()]
    if len(found) != 1 or not filled or (found[0].start, found[0].end) != (filled[0], filled[-1]):
        raise ctx.error(
            node.line,
            "showcase holds one fenced code block with the example's source",
            "wrap the example in ````markdown … ```` inside :::showcase",
        )
    fence = found[0]
    body = lines[fence.start + 1 : fence.end]
    return "\n".join(body), numbered[fence.start][0] + 1


class Showcase(Directive):
    NAME = "showcase"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        source, first = _example(node, ctx)
        parse_directives(
            source,
            src=ctx.src,
            first=first,
            locale=ctx.locale,
            directives=ctx.directives,
            demos=ctx.demos,
        )

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """The example's source as written (what it renders to is the site's page)."""
        return [line for _, line in node.text_lines()]

    def render(self, node: Block, ctx: Context) -> list[str]:
        source, first = _example(node, ctx)
        assert ctx.stash is not None
        equations: dict[str, str] = {}
        if ctx.example is not None:  # in a build: its captions and equations numbered
            source, equations = ctx.example(source, first)
        if ctx.glossary is not None and "{term}" in source:
            source = ctx.glossary.render_terms(source, first)
        if "$" in source:
            source = render_math_text(
                source, src=ctx.src, stash=ctx.stash, first=first, equations=equations
            )
        rendered = render_directives(
            source,
            src=ctx.src,
            first=first,
            stash=ctx.stash,
            site=ctx.site,
            page=ctx.page,
            demos=ctx.demos,
            locale=ctx.locale,
            directives=ctx.directives,
        )
        body = ctx.children(node)
        return [
            *ctx.wrap(
                node,
                '<div class="llmbook-showcase"><div class="llmbook-showcase__source">',
                "</div>",
                body,
            ),
            *ctx.wrap(
                node, '<div class="llmbook-showcase__result">', "</div></div>", rendered.split("\n")
            ),
        ]

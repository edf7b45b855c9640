"""`:::showcase` — for the authoring guide: a fenced example source shown beside what it renders.

The body is one fenced code block (```` ```markdown ````). The page shows the fence as written and,
beside it, the fence's content rendered by this same plugin (math included), so the guide is
produced by the code it documents and cannot go stale. Errors in the example name the guide's line.
"""

from __future__ import annotations

import re

from llmbook.directives.base import FORBIDDEN, Context, Directive, register
from llmbook.directives.nodes import Block

__all__ = ["Showcase"]

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})")


def _example(node: Block, ctx: Context) -> tuple[str, int]:
    """(content of the single fence, line of the fence's opener)."""
    lines = [(n, s) for n, s in node.text_lines() if s.strip()]
    opener = _FENCE.match(lines[0][1]) if lines else None
    closer = lines[-1][1].strip() if lines else ""
    if (
        opener is None
        or len(lines) < 2
        or closer.strip(opener.group("fence")[0])
        or len(closer) < len(opener.group("fence"))
    ):
        raise ctx.error(
            node.line,
            "showcase holds one fenced code block with the example's source",
            "wrap the example in ````markdown … ```` inside :::showcase",
        )
    start = lines[0][0]
    body = [s for n, s in node.text_lines() if start < n < lines[-1][0]]
    return "\n".join(body), start


@register
class Showcase(Directive):
    NAME = "showcase"
    ARGUMENT = FORBIDDEN
    NESTED = ()

    def validate(self, node: Block, ctx: Context) -> None:
        from llmbook.directives import parse_directives

        source, start = _example(node, ctx)
        parse_directives(source, src=ctx.src, line_offset=ctx.line_offset + start)

    def render(self, node: Block, ctx: Context) -> list[str]:
        from llmbook.directives import render_directives

        source, start = _example(node, ctx)
        assert ctx.stash is not None
        if "$" in source:
            from llmbook.mathml import render_math

            source = render_math(source, src=ctx.src, stash=ctx.stash)
        rendered = render_directives(
            source,
            src=ctx.src,
            stash=ctx.stash,
            site=ctx.site,
            page=ctx.page,
            demo_cache=ctx.demo_cache,
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

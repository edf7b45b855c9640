"""The `:::` directives of the chapter and lesson formats, rendered as Material components.

A page's tree is parsed once (`parse_structure`); the later stages write into its lines
(`apply_line_edits`: formulas, checked numbers, outputs), and `render_tree` validates each
directive on what they left (keeping what it parsed on its node) and renders the tree, once.
`parse_directives` / `render_directives` do the same for a standalone text (tests, the guide's
showcase).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from llmbook.directives import (  # noqa: F401 - importing a directive module registers it
    box,
    card,
    chain,
    demo,
    interview,
    progress,
    quiz,
    related,
    shapeflow,
    showcase,
    step,
    tab,
    tabs,
    walkthrough,
)
from llmbook.directives.base import Context, Directive, get_directive, known_names, register
from llmbook.directives.nodes import Block, Document, Text
from llmbook.directives.parser import OPENER, parse_tree
from llmbook.directives.site_index import SiteIndex
from llmbook.edits import LineEdits
from llmbook.stash import Stash

if TYPE_CHECKING:
    from llmbook.demos.cache import DemoCache

__all__ = [
    "Block",
    "apply_line_edits",
    "Directive",
    "Document",
    "SiteIndex",
    "Text",
    "known_names",
    "parse_directives",
    "parse_structure",
    "register",
    "render_directives",
    "render_tree",
]


def _parse(
    markdown: str, src: str, first: int = 1, plain: frozenset[int] = frozenset()
) -> Document:
    return parse_tree(
        markdown,
        src=src,
        known=lambda name: get_directive(name) is not None,
        names=known_names(),
        first=first,
        plain=plain,
    )


def check_tree(ctx: Context, parent: Block | None = None) -> None:
    """Run every directive's checks, outer blocks first."""
    parent = parent if parent is not None else ctx.doc
    for block in parent.blocks():
        directive = get_directive(block.name)
        assert directive is not None
        directive.check(block, parent, ctx)
        check_tree(ctx, block)


def parse_structure(
    markdown: str, *, src: str, first: int = 1, plain: frozenset[int] = frozenset()
) -> Document:
    """The page's directive tree (structure and names checked, not yet each directive's content),
    `markdown` starting on file line `first`; lines in `plain` (file lines) are text."""
    return _parse(markdown, src, first, plain)


def parse_directives(markdown: str, *, src: str, first: int = 1) -> Document:
    """The page's directive tree, every directive validated; AuthorError (`src:LINE`) otherwise."""
    doc = parse_structure(markdown, src=src, first=first)
    check_tree(Context(src=src, doc=doc))
    return doc


def render_directives(
    markdown: str,
    *,
    src: str,
    stash: Stash,
    site: SiteIndex | None = None,
    page: Any = None,
    demo_cache: DemoCache | None = None,
    first: int = 1,
) -> str:
    """The page (starting on file line `first`) with every directive block replaced by Material
    HTML (via `stash`) around its body."""
    if ":::" not in markdown:
        return markdown
    doc = _parse(markdown, src, first)
    return render_tree(doc, src=src, stash=stash, site=site, page=page, demo_cache=demo_cache)


def apply_line_edits(doc: Document, edits: LineEdits) -> Document:
    """A new tree: what the later stages made of each file line written into `doc`'s shape
    (`doc` stays as parsed, so the parse can be shared).

    Each line becomes what `edits` made of it (math as stash tokens, checked numbers, outputs
    after a fence); a directive's title is re-read from its edited opener line; the edits' tail
    ends the page.
    """
    per_line = edits.lines()

    def edited(block: Block) -> list[Text | Block]:
        children: list[Text | Block] = []
        for child in block.children:
            if isinstance(child, Text):
                rows = [
                    (number, line)
                    for number in range(child.line, child.line + len(child.lines))
                    for line in per_line[number]
                ]
                children.append(Text([line for _, line in rows], child.line, [n for n, _ in rows]))
                continue
            # What a stage put after an opener (the live preview's error box) stands before the
            # block, in its parent's text.
            opener, *after = per_line[child.line]
            if after:
                children.append(Text(after, child.line, [child.line] * len(after)))
            match = OPENER.match(opener)
            new = replace(child, children=edited(child), data=None)
            if match is not None:
                new.opener, new.arg = opener, match.group("arg") or ""
            children.append(new)
        return children

    root = replace(doc, children=edited(doc))
    if edits.tail:
        root.children.append(Text(list(edits.tail), edits.lexed.numbers.stop))
    return root


def render_tree(
    doc: Document,
    *,
    src: str,
    stash: Stash,
    site: SiteIndex | None = None,
    page: Any = None,
    demo_cache: DemoCache | None = None,
) -> str:
    """The page's Markdown from its parsed tree, as the later stages left its lines: every
    directive validated (keeping what it parsed on its node), then rendered, once."""
    ctx = Context(
        src=src,
        doc=doc,
        stash=stash,
        site=site,
        page=page,
        demo_cache=demo_cache,
    )
    check_tree(ctx)
    return "\n".join(ctx.children(doc))

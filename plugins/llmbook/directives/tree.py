"""A page's directive tree: parsed once (`parse_structure`), written into by the later stages
(`apply_line_edits`: formulas, checked numbers, outputs), then every directive validated and
rendered once (`render_tree`). `parse_directives` / `render_directives` do the same for a
standalone text (a showcase's example, a test's page). Directives are looked up in the build's
registry (`directives`), which every function here is given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from llmbook.core.edits import LineEdits
from llmbook.core.lexer import Lexed, lex
from llmbook.core.page_context import PageContext
from llmbook.core.stash import Stash
from llmbook.directives.base import Context, GlossaryView
from llmbook.directives.nodes import Block, Document, Text
from llmbook.directives.parser import OPENER, parse_tree
from llmbook.directives.registry import Registry

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.core.page_ref import PageRef
    from llmbook.core.site_index import SiteIndex
    from llmbook.demos.cache import DemoFrames

__all__ = [
    "apply_line_edits",
    "check_tree",
    "checked_structure",
    "parse_directives",
    "parse_structure",
    "render_directives",
    "render_tree",
]


def check_tree(ctx: Context, parent: Block | None = None) -> None:
    """Run every directive's checks, outer blocks first."""
    parent = parent if parent is not None else ctx.doc
    for block in parent.blocks():
        directive = ctx.directives.get(block.name)
        assert directive is not None
        directive.check(block, parent, ctx)
        check_tree(ctx, block)


def parse_structure(
    lexed: Lexed, *, src: str, directives: Registry, plain: frozenset[int] = frozenset()
) -> Document:
    """The page's directive tree (structure and names checked, not yet each directive's content);
    lines in `plain` (file lines) are text."""
    return parse_tree(
        lexed, src=src, known=directives.__contains__, names=directives.names(), plain=plain
    )


def checked_structure(
    lexed: Lexed,
    *,
    src: str,
    locale: Locale,
    directives: Registry,
    plain: frozenset[int] = frozenset(),
    demos: DemoFrames | None = None,
) -> Document:
    """The page's directive tree with every directive validated: the check stage's view, so
    a malformed block is an author error of the build's report before any page renders."""
    doc = parse_structure(lexed, src=src, plain=plain, directives=directives)
    check_tree(Context(src=src, doc=doc, locale=locale, directives=directives, demos=demos))
    return doc


def parse_directives(
    markdown: str,
    *,
    src: str,
    locale: Locale,
    directives: Registry,
    first: int = 1,
    demos: DemoFrames | None = None,
) -> Document:
    """A standalone text's directive tree (a showcase's example, a test's page, starting on file
    line `first`), every directive validated against the book's `demos`, its words read in
    `locale`; AuthorError (`src:LINE`) otherwise."""
    return checked_structure(
        lex(markdown, first), src=src, locale=locale, directives=directives, demos=demos
    )


def render_directives(
    markdown: str,
    *,
    src: str,
    stash: Stash,
    site: SiteIndex | None = None,
    page: PageRef | None = None,
    demos: DemoFrames | None = None,
    first: int = 1,
    locale: Locale,
    directives: Registry,
) -> str:
    """A standalone text (starting on file line `first`) with every directive block replaced by
    Material HTML (via `stash`) around its body."""
    if ":::" not in markdown:
        return markdown
    lexed = lex(markdown, first)
    doc = parse_structure(lexed, src=src, directives=directives)
    text = PageContext(src, lexed, stash, locale, page=page)
    return render_tree(doc, text, site=site, demos=demos, directives=directives)


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
    page: PageContext,
    *,
    site: SiteIndex | None = None,
    demos: DemoFrames | None = None,
    example: Callable[[str, int], tuple[str, dict[str, str]]] | None = None,
    glossary: GlossaryView | None = None,
    made: Mapping[str, str] | None = None,
    directives: Registry,
) -> str:
    """The page's Markdown from its parsed tree, as the later stages left its lines: every
    directive validated (keeping what it parsed on its node), then rendered, once. `example`:
    what the book makes of a guide's example (`Context.example`); `made`: what the site's
    book steps made for its directives (`Context.made`)."""
    ctx = Context.of(
        page,
        doc,
        site=site,
        demos=demos,
        made=made or {},
        example=example,
        glossary=glossary,
        directives=directives,
    )
    check_tree(ctx)
    return "\n".join(ctx.children(doc))

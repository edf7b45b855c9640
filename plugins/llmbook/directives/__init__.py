"""The `:::` directives of the chapter and lesson formats, rendered as Material components.

Nothing registers itself: `shipped.py` lists llmbook's directives and makes a build's registry
(`book_directives`, with the book's `box_types`); `tree.py` parses a page into its directive tree
and renders it against a registry. The functions here default to the shipped directives, for a
text rendered without a book (a test's page).
"""

from __future__ import annotations

from llmbook.core.lexer import Lexed
from llmbook.directives import tree
from llmbook.directives.base import Context, Directive
from llmbook.directives.nodes import Block, Document, Text
from llmbook.directives.registry import DuplicateDirective, Registry
from llmbook.directives.shipped import SHIPPED, book_directives, shipped
from llmbook.directives.tree import apply_line_edits, checked_structure, render_tree

__all__ = [
    "SHIPPED",
    "Block",
    "Context",
    "Directive",
    "Document",
    "DuplicateDirective",
    "Registry",
    "Text",
    "apply_line_edits",
    "book_directives",
    "checked_structure",
    "parse_directives",
    "parse_structure",
    "render_directives",
    "render_tree",
    "shipped",
]


def parse_structure(
    lexed: Lexed,
    *,
    src: str,
    plain: frozenset[int] = frozenset(),
    directives: Registry | None = None,
) -> Document:
    """`tree.parse_structure` against `directives` (default: the shipped ones)."""
    return tree.parse_structure(lexed, src=src, plain=plain, directives=directives or shipped())


def parse_directives(markdown: str, *, directives: Registry | None = None, **kw) -> Document:
    """`tree.parse_directives` against `directives` (default: the shipped ones)."""
    return tree.parse_directives(markdown, directives=directives or shipped(), **kw)


def render_directives(markdown: str, *, directives: Registry | None = None, **kw) -> str:
    """`tree.render_directives` against `directives` (default: the shipped ones)."""
    return tree.render_directives(markdown, directives=directives or shipped(), **kw)

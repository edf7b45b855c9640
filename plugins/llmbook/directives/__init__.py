"""The `:::` directives of the chapter and lesson formats, rendered as Material components.

Importing this package registers every directive; `tree.py` parses a page into its directive
tree and renders it.
"""

from __future__ import annotations

from llmbook.directives import (  # noqa: F401 - importing a directive module registers it
    bibliography,
    box,
    card,
    chain,
    demo,
    editions,
    glossary,
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
from llmbook.directives.base import Directive, get_directive, known_names, register
from llmbook.directives.nodes import Block, Document, Text
from llmbook.directives.tree import (
    apply_line_edits,
    checked_structure,
    parse_directives,
    parse_structure,
    render_directives,
    render_tree,
)

__all__ = [
    "Block",
    "apply_line_edits",
    "Directive",
    "Document",
    "Text",
    "get_directive",
    "known_names",
    "parse_directives",
    "checked_structure",
    "parse_structure",
    "register",
    "render_directives",
    "render_tree",
]

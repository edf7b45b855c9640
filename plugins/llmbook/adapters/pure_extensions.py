"""The Markdown extensions whose output depends on the page's Markdown and the site's settings
alone: a page converted with only these may be kept whole between builds (the engines' caches of
whole conversions, `adapters/mkdocs/converted.py` and `adapters/zensical/converted.py`). An
extension that includes other files (`pymdownx.snippets`) or collects state across pages
(autorefs, macros) is not one of them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SAFE_EXTENSIONS", "extension_name", "unsafe_extensions"]

SAFE_EXTENSIONS = frozenset(
    {
        *(
            f"{prefix}{name}"
            for prefix in ("", "markdown.extensions.")
            for name in (
                "abbr admonition attr_list def_list fenced_code footnotes legacy_attrs "
                "legacy_em md_in_html meta nl2br sane_lists smarty tables toc wikilinks"
            ).split()
        ),
        *(
            f"pymdownx.{name}"
            for name in (
                "arithmatex betterem caret critic details emoji escapeall highlight inlinehilite "
                "keys mark progressbar saneheaders smartsymbols superfences tabbed tasklist tilde "
                "blocks.admonition blocks.caption blocks.details blocks.tab blocks.html"
            ).split()
        ),
        "material.extensions.emoji",
        "zensical.extensions.emoji",  # Zensical's own copy of Material's
        "zensical.extensions.context",  # Zensical's: it only holds the page being rendered
        "llmbook.extension",  # as mkdocs.yml lists it
        "llmbook.site.core_extension",  # the object the MkDocs plugin binds to its build
    }
)


def extension_name(extension: Any) -> str:
    """An extension listed by name, or given as an object: its module."""
    return extension if isinstance(extension, str) else type(extension).__module__


def unsafe_extensions(extensions: list[Any]) -> list[str]:
    """The names of `extensions` not in `SAFE_EXTENSIONS`, in order."""
    return [n for n in map(extension_name, extensions) if n not in SAFE_EXTENSIONS]

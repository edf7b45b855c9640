"""Code highlighted as Material expects, in a site that configures no highlighter.

MkDocs renders fences with Python-Markdown's `fenced_code`, which highlights only through
`codehilite`; Material's setup adds `pymdownx.highlight` and `pymdownx.superfences`. A Material
site that lists neither `codehilite` nor superfences (a plain one, or one that sets
`pymdownx.highlight` options alone) gets superfences: Pygments' classes inside
`<div class="highlight">`, which Material's CSS colours, on notebook cells, the code llmbook runs
and every other fence, under the site's own `pymdownx.highlight` settings when it has some.
Zensical adds superfences itself. Nothing is fetched: Pygments runs at build time.
"""

from __future__ import annotations

from typing import Any

__all__ = ["with_highlighter"]

_SUPERFENCES = "pymdownx.superfences"
# Extensions that already highlight fences (listed by name, or given as objects: their module).
_HIGHLIGHTERS = frozenset({"codehilite", "markdown.extensions.codehilite", _SUPERFENCES})


def with_highlighter(extensions: list[Any], theme: str | None) -> list[Any]:
    """`extensions` with superfences added when the theme is Material and none highlights code.
    Other themes keep their own way (the `mkdocs` theme's highlight.js wants plain `<code>`)."""
    names = {e if isinstance(e, str) else type(e).__module__ for e in extensions}
    if theme != "material" or names & _HIGHLIGHTERS:
        return extensions
    return [*extensions, _SUPERFENCES]

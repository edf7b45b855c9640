"""The entry of `llmbook.extension` as mkdocs.yml lists it in `markdown_extensions`: the core
extension (`core_extension.py`), bound to Zensical's build when no adapter hands it one (its errors
end `zensical build` as MkDocs ends: adapters/zensical/errors.py). The MkDocs plugin replaces this
entry by an extension bound to its own build.
"""

from __future__ import annotations

from typing import Any

from llmbook.adapters.zensical.adapter import _serving, site_for
from llmbook.adapters.zensical.errors import reported, stopped
from llmbook.site.core_extension import LLMBookExtension

__all__ = ["LLMBookExtension", "makeExtension"]


def makeExtension(**kwargs: Any) -> LLMBookExtension:  # noqa: N802 (Python-Markdown's name)
    # Under `zensical serve` a page's errors show on it: they pass as they are.
    translate = None if _serving() else stopped
    return LLMBookExtension(context=reported(site_for), translate=translate, **kwargs)

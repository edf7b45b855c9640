"""The entry of `llmbook.extension` as mkdocs.yml lists it in `markdown_extensions`: the core
extension (`core_extension.py`), bound to Zensical's build when no adapter hands it one, which
keeps each unchanged page's whole conversion (`adapters/zensical/converted.py`). The MkDocs
plugin replaces this entry by an extension bound to its own build.
"""

from __future__ import annotations

from typing import Any

from llmbook.adapters.zensical.adapter import site_for
from llmbook.adapters.zensical.converted import ZensicalExtension
from llmbook.site.core_extension import LLMBookExtension

__all__ = ["LLMBookExtension", "makeExtension"]


def makeExtension(**kwargs: Any) -> LLMBookExtension:  # noqa: N802 (Python-Markdown's name)
    # Zensical's: an unchanged page's conversion comes whole from the store (converted.py).
    return ZensicalExtension(context=site_for, **kwargs)

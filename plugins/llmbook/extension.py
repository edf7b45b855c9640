"""The entry of `llmbook.extension` as mkdocs.yml lists it in `markdown_extensions`: the core
extension (`core_extension.py`), bound to Zensical's build when no adapter hands it one. The MkDocs
plugin replaces this entry by an extension bound to its own build.
"""

from __future__ import annotations

from typing import Any

from markdown import Markdown

from llmbook.adapters.zensical.adapter import site_for
from llmbook.adapters.zensical.errors import guarded
from llmbook.site.core_extension import LLMBookExtension

__all__ = ["LLMBookExtension", "makeExtension"]


class _ZensicalExtension(LLMBookExtension):
    """The core extension under Zensical: whatever its processors raise ends `zensical build` as
    MkDocs ends, its report alone (adapters/zensical/errors.py)."""

    def extendMarkdown(self, md: Markdown) -> None:
        theirs = {id(p) for registry in (md.preprocessors, md.treeprocessors) for p in registry}
        super().extendMarkdown(md)
        for registry in (md.preprocessors, md.treeprocessors):
            for processor in registry:
                if id(processor) not in theirs:  # one of ours
                    processor.run = guarded(processor.run, md)


def makeExtension(**kwargs: Any) -> LLMBookExtension:  # noqa: N802 (Python-Markdown's name)
    return _ZensicalExtension(context=site_for, **kwargs)

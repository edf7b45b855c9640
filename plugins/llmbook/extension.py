"""`llmbook.extension`, as mkdocs.yml lists it under `markdown_extensions`: the core extension
as Zensical runs it. (The MkDocs plugin replaces it with one bound to its build.)"""

from __future__ import annotations

from typing import Any

from markdown import Markdown

from llmbook.adapters.zensical.adapter import site_for
from llmbook.adapters.zensical.converted import ZensicalExtension
from llmbook.adapters.zensical.errors import guarded
from llmbook.site.core_extension import LLMBookExtension

__all__ = ["LLMBookExtension", "makeExtension"]


class _GuardedExtension(ZensicalExtension):
    """The core extension under Zensical: an unchanged page's conversion comes whole from the
    store (converted.py), and whatever its processors or that conversion raise ends `zensical
    build` as MkDocs ends, its report alone (errors.py)."""

    def extendMarkdown(self, md: Markdown) -> None:
        theirs = {id(p) for registry in (md.preprocessors, md.treeprocessors) for p in registry}
        super().extendMarkdown(md)
        for registry in (md.preprocessors, md.treeprocessors):
            for processor in registry:
                if id(processor) not in theirs:  # one of ours
                    processor.run = guarded(processor.run, md)
        md.convert = guarded(md.convert, md)  # type: ignore[method-assign]


def makeExtension(**kwargs: Any) -> LLMBookExtension:  # noqa: N802 (Python-Markdown's name)
    return _GuardedExtension(context=site_for, **kwargs)

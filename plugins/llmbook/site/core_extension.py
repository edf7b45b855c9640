"""The llmbook core as a Python-Markdown extension: any engine that renders pages with
Python-Markdown (MkDocs, Zensical) can host it. Sites list it by its entry module,
`llmbook.extension`, which binds it to Zensical when no adapter hands it a build.

A preprocessor runs the page pipeline (`Site.render_page`) on the raw Markdown, before every other
preprocessor; finished HTML goes into Python-Markdown's own `htmlStash`, so it comes back after
conversion, in headings and the table of contents too. On a notebook's page a treeprocessor gives
headings Jupyter's anchors as well (`jupyter_anchors.py`). The build context (`Site`) comes from the
engine adapter: the MkDocs plugin hands it over; under Zensical, `context(md)` makes it on the
first page. An engine that reads the page's file itself (Zensical) may be handed the Markdown to
render in its place (a translation's, in a translating build): a preprocessor that runs before
every other puts it there. Such an engine has no end-of-build hook either: a page that ran code
writes its notebook into the site as it renders, and links it after its title (page_notebook.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from llmbook.core.errors import LLMBookError
from llmbook.core.jupyter_anchors import JupyterAnchors
from llmbook.core.stash import Stash
from llmbook.site.page_notebook import with_download
from llmbook.site.partial_render import PartRender, SeedIds, TakeIds

__all__ = ["OUTSIDE_A_BUILD", "LLMBookExtension"]

OUTSIDE_A_BUILD = (
    "llmbook.extension renders pages only inside a build: under MkDocs add the `llmbook` "
    "plugin to mkdocs.yml; under Zensical it works as listed in markdown_extensions."
)


class LLMBookExtension(Extension):
    def __init__(
        self,
        *,
        site: Any = None,
        context: Callable[[Markdown], tuple[Any, Any, str | None]] | None = None,
        translate: Callable[[LLMBookError], Exception] | None = None,
        **kwargs: Any,
    ) -> None:
        # The build's Site (from the MkDocs plugin), or how to find it and the page from the
        # Markdown instance (Zensical), and how the engine wants the core's errors; objects, so
        # not among Python-Markdown's string/bool config options.
        self._site = site
        self._context = context
        self._translate = translate
        self._rendered: Any = None  # the page whose pipeline ran last (MkDocs)
        # While an adapter converts one section of a page (partial_render.py): its Markdown and
        # pieces, put in place of the page's pipeline.
        self.part: PartRender | None = None
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        if self._site is None:  # Zensical: the text it read may give way to a translation's
            md.preprocessors.register(_TextPreprocessor(md, self), "llmbook_text", 1000)
        # After normalize_whitespace (30: it strips the STX/ETX of stash placeholders), before
        # superfences' fences (25) and html_block (20).
        anchors = JupyterAnchors(md)
        md.preprocessors.register(_PagePreprocessor(md, self, anchors), "llmbook", 28)
        # As the toc's and MkDocs' anchor collection's: after the toc (listed before llmbook by
        # both engines), before the collection, which must see the ids it adds.
        md.treeprocessors.register(anchors, "llmbook_jupyter_anchors", 5)
        # Around the toc (5), after attr_list (8) and abbr (7): a section's ids (partial_render.py).
        md.treeprocessors.register(SeedIds(md, self), "llmbook_part_seed", 6)
        md.treeprocessors.register(TakeIds(md, self), "llmbook_part_take", 5)

    def context(self, md: Markdown) -> tuple[Any, Any, str | None]:
        """(the build's Site, the page being rendered, the Markdown to render in place of the
        text the engine read, or None)."""
        if self._site is not None:
            assert self._site.current is not None, "the MkDocs plugin names each page"
            return self._site, self._site.current, None
        if self._context is None:
            raise LLMBookError(OUTSIDE_A_BUILD)
        return self._context(md)


class _TextPreprocessor(Preprocessor):
    """The page's text as the adapter says (a translation's), before any preprocessor reads it."""

    def __init__(self, md: Markdown, extension: LLMBookExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        _, _, text = self.extension.context(self.md)
        return lines if text is None else text.split("\n")


class _PagePreprocessor(Preprocessor):
    def __init__(self, md: Markdown, extension: LLMBookExtension, anchors: JupyterAnchors) -> None:
        super().__init__(md)
        self.extension = extension
        self.anchors = anchors

    def run(self, lines: list[str]) -> list[str]:
        site, page, _ = self.extension.context(self.md)
        if self.extension.part is not None:  # a section of a page already through the pipeline
            self.anchors.notebook = page.src.endswith(".ipynb")
            return self.extension.part.lines(Stash.of(self.md))
        if self.extension._site is not None:
            if page is self.extension._rendered:
                # Another tool's Markdown inside this page (mkdocstrings' docstrings): not a page.
                return lines
            self.extension._rendered = page
        self.anchors.notebook = page.src.endswith(".ipynb")
        # normalize_whitespace appended two empty lines: the page's own lines come first.
        extra = 0
        while extra < 2 and len(lines) > extra and lines[-1 - extra] == "":
            extra += 1
        body = "\n".join(lines[: len(lines) - extra])
        try:
            markdown = site.render_page(body, page, Stash.of(self.md))
            if self.extension._site is None:  # Zensical: no end-of-build hook, no page event
                markdown = with_download(site, page, markdown, Stash.of(self.md).put)
        except LLMBookError as error:
            if self.extension._translate is None:
                raise
            raise self.extension._translate(error) from error
        return markdown.split("\n") + [""] * extra

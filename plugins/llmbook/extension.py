"""The llmbook core as a Python-Markdown extension: any engine that renders pages with
Python-Markdown (MkDocs, Zensical) can host it.

    markdown_extensions:
      - llmbook.extension

A preprocessor runs the page pipeline (`Site.render_page`) on the raw Markdown, before every other
preprocessor; finished HTML goes into Python-Markdown's own `htmlStash`, so it comes back after
conversion, in headings and the table of contents too. The build context (`Site`) comes from the
engine adapter: the MkDocs plugin hands it over; under Zensical it is made on the first page.
"""

from __future__ import annotations

from typing import Any

from markdown import Extension, Markdown
from markdown.preprocessors import Preprocessor

from llmbook.stash import Stash

__all__ = ["LLMBookExtension", "makeExtension", "render_markdown"]


class LLMBookExtension(Extension):
    def __init__(self, *, site: Any = None, **kwargs: Any) -> None:
        # The build's Site (from the MkDocs plugin); an object, so not one of Python-Markdown's
        # string/bool config options.
        self._site = site
        self._rendered: Any = None  # the page whose pipeline ran last (MkDocs)
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Markdown) -> None:
        md.registerExtension(self)
        # After normalize_whitespace (30: it strips the STX/ETX of stash placeholders), before
        # superfences' fences (25) and html_block (20).
        md.preprocessors.register(_PagePreprocessor(md, self), "llmbook", 28)

    def context(self, md: Markdown) -> tuple[Any, Any]:
        """(the build's Site, the page being rendered)."""
        if self._site is not None:
            assert self._site.current is not None, "the MkDocs plugin names each page"
            return self._site, self._site.current
        from llmbook.zensical_adapter import site_for

        return site_for(md)


class _PagePreprocessor(Preprocessor):
    def __init__(self, md: Markdown, extension: LLMBookExtension) -> None:
        super().__init__(md)
        self.extension = extension

    def run(self, lines: list[str]) -> list[str]:
        site, page = self.extension.context(self.md)
        if self.extension._site is not None:
            if page is self.extension._rendered:
                # Another tool's Markdown inside this page (mkdocstrings' docstrings): not a page.
                return lines
            self.extension._rendered = page
        # normalize_whitespace appended two empty lines: the page's own lines come first.
        extra = 0
        while extra < 2 and len(lines) > extra and lines[-1 - extra] == "":
            extra += 1
        body = "\n".join(lines[: len(lines) - extra])
        markdown = site.render_page(body, page, Stash.of(self.md))
        return markdown.split("\n") + [""] * extra


def render_markdown(
    text: str,
    *,
    src: str = "docs/page.md",
    url: str = "page.html",
    plan: Any = None,
    index: Any = None,
    page: Any = None,
    extensions: list[Any] | None = None,
    configs: dict[str, dict[str, Any]] | None = None,
    convert: bool = True,
) -> str:
    """One page's Markdown → HTML through this extension, outside a build (tests, tools): the
    executor's `plan` for it if it ran, the site `index` for `:::related`, nothing cached.
    `convert=False`: the Markdown the extension hands on to Python-Markdown, its HTML put back."""
    from llmbook.config import LLMBookConfig
    from llmbook.site import PageRef, Site

    options = LLMBookConfig()
    options.load_dict({"cache": False})
    options.validate()
    site = Site.create(options, None)
    site.index = index
    if plan is not None:
        site.report.plans[src] = plan
    site.current = PageRef(src, page.file.url if page is not None else url, page)
    md = Markdown(
        extensions=[LLMBookExtension(site=site), *(extensions or [])],
        extension_configs=configs or {},
    )
    if convert:
        return md.convert(text)
    lines = text.split("\n")
    for preprocessor in md.preprocessors:  # as convert() runs them, up to this extension's
        lines = preprocessor.run(lines)
        if isinstance(preprocessor, _PagePreprocessor):
            break
    return md.postprocessors["raw_html"].run("\n".join(lines))


def makeExtension(**kwargs: Any) -> LLMBookExtension:  # noqa: N802 (Python-Markdown's name)
    return LLMBookExtension(**kwargs)

"""One page through the llmbook extension outside a build: what the directive and render tests
compare against. It makes the Site a build would (cache off, no pages run) and hands it the
executor's plan of the page, if any."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llmbook.adapters.config import LLMBookConfig
from llmbook.core.page_ref import PageRef
from llmbook.core.project import Project
from llmbook.site.core_extension import LLMBookExtension
from llmbook.site.site import Site
from markdown import Markdown

__all__ = ["BOOK_LANGUAGE", "render_markdown"]

# This repository's book is Chinese: the render tests read its pages as its build does.
BOOK_LANGUAGE = "zh"


def render_markdown(
    text: str,
    *,
    src: str = "docs/page.md",
    url: str = "page.html",
    plan: Any = None,
    index: Any = None,
    page: PageRef | None = None,
    extensions: list[Any] | None = None,
    configs: dict[str, dict[str, Any]] | None = None,
    convert: bool = True,
    language: str = BOOK_LANGUAGE,
    demos: Sequence[str] = (),
    options: dict[str, Any] | None = None,
) -> str:
    """The page's HTML: `plan` is the executor's plan of it, `index` the site index for
    `:::related`, `page` where it stands in the site, `demos` the modules registering the demos
    it may show (the `demos` option), `options` more llmbook options. `convert=False`: the
    Markdown the extension hands on to Python-Markdown, its HTML put back."""
    given = {"cache": False, "language": language, "demos": list(demos), **(options or {})}
    llmbook = LLMBookConfig()
    llmbook.load_dict(given)
    llmbook.validate()
    site = Site.create(llmbook, Project.at("."))
    site.index = index
    if plan is not None:
        site.report.plans[src] = plan
    site.current = page if page is not None else PageRef(src, url, src)
    md = Markdown(
        extensions=[LLMBookExtension(site=site), *(extensions or [])],
        extension_configs=configs or {},
    )
    if convert:
        return md.convert(text)
    lines = text.split("\n")
    for preprocessor in md.preprocessors:  # as convert() runs them, up to this extension's
        lines = preprocessor.run(lines)
        if preprocessor is md.preprocessors["llmbook"]:
            break
    return md.postprocessors["raw_html"].run("\n".join(lines))

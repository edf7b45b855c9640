"""Markdown → HTML for author text that goes into a widget (options, explanations, descriptions).

It uses the site's own Python-Markdown extensions, so inline code, emphasis and tables look as they
do elsewhere on the page, but raw HTML is switched off: an option `</script><script>…` shows as text.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import markdown

if TYPE_CHECKING:
    from llmbook.core.site_index import SiteIndex

__all__ = ["FragmentRenderer"]

# The project's mkdocs.yml extensions, for unit tests that run without a site.
DEFAULT_EXTENSIONS: list[Any] = [
    "abbr",
    "attr_list",
    "tables",
    "footnotes",
    "pymdownx.superfences",
]
_PARAGRAPH = re.compile(r"^<p>(.*)</p>$", re.S)


def _llmbooks(extension: Any) -> bool:
    """Whether an extension object is the llmbook core (known by its package, not imported: the
    core sits above the directives)."""
    return type(extension).__module__.split(".")[0] == "llmbook"


class FragmentRenderer:
    """A Python-Markdown instance without raw HTML, reset between fragments."""

    def __init__(self, extensions: list[Any], configs: dict[str, dict[str, Any]]) -> None:
        # toc would add anchors and permalinks inside widgets; md_in_html needs raw HTML; the
        # llmbook core itself renders pages, not fragments of them.
        skip = ("toc", "md_in_html", "llmbook.extension")
        keep = [
            e for e in extensions if not (isinstance(e, str) and e in skip) and not _llmbooks(e)
        ]
        configs = {k: v for k, v in configs.items() if k in keep}
        self._md = markdown.Markdown(extensions=keep, extension_configs=configs)
        self._md.preprocessors.deregister("html_block")
        self._md.inlinePatterns.deregister("html")

    @classmethod
    def for_site(cls, site: SiteIndex | None) -> FragmentRenderer:
        if site is not None and site.markdown_extensions:
            return cls(list(site.markdown_extensions), dict(site.mdx_configs))
        return cls(DEFAULT_EXTENSIONS, {})

    def block(self, text: str) -> str:
        self._md.reset()
        return self._md.convert(text)

    def inline(self, text: str) -> str:
        html_text = self.block(text.strip())
        match = _PARAGRAPH.match(html_text)
        return match.group(1) if match and "<p>" not in match.group(1) else html_text

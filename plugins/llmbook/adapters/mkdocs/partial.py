"""A MkDocs page converted in sections (site/partial_render.py): the page pipeline runs once on the
whole page, then each section is a `Page.render` of its own, taken from the store when its text,
pieces and the ids the page holds elsewhere are the same; the page gets the sections' HTML, their
table of contents nested again, the first one's title, every section's anchors and links. A
section whose conversion logged a warning is not kept (the warning comes back on every build).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import markdown
from markdown.extensions.toc import nest_toc_tokens
from mkdocs.plugins import get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page
from mkdocs.structure.toc import get_toc

from llmbook.adapters.mkdocs.converted import WarningCount, converted_site_key
from llmbook.adapters.pure_extensions import SAFE_EXTENSIONS
from llmbook.core.store import Store, key
from llmbook.core.store_namespaces import SECTIONS
from llmbook.site.core_extension import LLMBookExtension
from llmbook.site.partial_render import PartRender, crossing, local, relevant, sections
from llmbook.site.render_cache import edition_slot

__all__ = ["PartialPages", "partial_pages", "site_crossing"]

log = get_plugin_logger(__name__)

_FORMAT = 1
# pymdownx.highlight options that number code blocks over the page (their line anchors' ids)
_COUNTED = ("line_spans", "line_anchors", "anchor_linenums")


# Known extensions whose output on a section may differ from its part of the page's (the
# page's metadata, critic marks and math blocks read past a blank line).
_WHOLE = frozenset({"meta", "markdown.extensions.meta", "pymdownx.critic", "pymdownx.arithmatex"})


def site_crossing(config: Any) -> list[str]:
    """What in the site's Markdown settings crosses sections on every page (none: pages split):
    an extension not known to keep to its blocks, or settings that number over the page."""
    names = [e if isinstance(e, str) else type(e).__module__ for e in config["markdown_extensions"]]
    found = [name for name in names if name not in SAFE_EXTENSIONS or name in _WHOLE]
    highlight = (config.get("mdx_configs") or {}).get("pymdownx.highlight") or {}
    if any(highlight.get(option) for option in _COUNTED):
        found.append("code line anchors (pymdownx.highlight)")
    marker = ((config.get("mdx_configs") or {}).get("toc") or {}).get("marker", "[TOC]")
    if marker not in ("[TOC]", ""):
        found.append(f"a table of contents marker of its own (toc: marker: {marker})")
    caption = (config.get("mdx_configs") or {}).get("pymdownx.blocks.caption") or {}
    if "pymdownx.blocks.caption" in names and caption.get("auto", True):
        found.append("captions numbered over the page (pymdownx.blocks.caption: auto)")
    return found


def partial_pages(
    store: Store,
    site_key: str,
    extension: LLMBookExtension,
    config: Any,
    files: Files,
    edition: str = "",
) -> PartialPages | None:
    """The build's sections (None: off, with the store, or for what the site's settings use);
    `edition`: a translating build's language (its pages have slots of their own)."""
    if not store.enabled:
        return None
    found = site_crossing(config)
    if found:
        log.info(f"pages are converted whole: {', '.join(found)} cross their sections")
        return None
    site = converted_site_key(site_key, config, files)
    return PartialPages(store, site, extension, edition=edition)


class PartialPages:
    """Sections in the store's "sections" namespace: one slot per page (and edition), holding
    its sections by their keys (one read for the page, however many sections it has)."""

    def __init__(
        self, store: Store, site_key: str, extension: LLMBookExtension, edition: str = ""
    ) -> None:
        self._store = store
        self._edition = edition
        self._site = key({"format": _FORMAT, "site": site_key})
        self._extension = extension
        self.split: list[str] = []  # this build's pages converted in sections
        self.whole: dict[str, list[str]] = {}  # those converted whole: what crossed sections
        self.converted = 0  # sections this build converted (the others came from the store)

    def page_render(self, src: str) -> Callable[[Page, Any, Files], None]:
        """`Page.render` for the page of `src`, in sections."""
        return lambda page, config, files: self.render(page, src, config, files)

    def render(self, page: Page, src: str, config: Any, files: Files) -> None:
        """`page.render`, section by section (one section for a page with what crosses them)."""
        lines, pieces = self._pipeline(page, config)
        text = "\n".join(lines)
        reasons = crossing(text) or (["notebook anchors"] if src.endswith(".ipynb") else [])
        if reasons:
            self.whole[src] = reasons
            log.debug(f"{src} is converted whole: {', '.join(reasons)} cross its sections")
        cuts = [range(len(lines))] if reasons else sections(lines)
        parts = [local("\n".join(lines[cut.start : cut.stop]), pieces) for cut in cuts]
        keys = [
            key(self._site, src, page.file.url, n == 0, n == len(parts) - 1, *part)
            for n, part in enumerate(parts)
        ]
        convert = lambda n, seed: self._convert(page, config, files, parts[n], seed)  # noqa: E731
        slot = self._store.slot(SECTIONS, edition_slot(src, self._edition))
        kept = slot.get(self._site)
        kept = kept if isinstance(kept, dict) else {}
        entries = self._entries(keys, kept, convert)
        fresh = [entry.pop("keep", None) for entry in entries]  # None: from the store
        if any(fresh):  # those converted with a warning are not kept
            kept = {k: e for k, e, f in zip(keys, entries, fresh, strict=True) if f is not False}
            slot.put(self._site, kept)
        self._assemble(page, files, entries)
        if len(parts) > 1:
            self.split.append(src)

    def _pipeline(self, page: Page, config: Any) -> tuple[list[str], list[str]]:
        """The page through Python-Markdown's preprocessors up to llmbook's (the page pipeline):
        the lines it hands on, the pieces in the stash."""
        md = markdown.Markdown(
            extensions=config["markdown_extensions"], extension_configs=config["mdx_configs"] or {}
        )
        last = md.preprocessors.get_index_for_name("llmbook")
        lines = (page.markdown or "").split("\n")
        for number, preprocessor in enumerate(md.preprocessors):
            lines = preprocessor.run(lines)
            if number == last:
                break
        return lines, [str(piece) for piece in md.htmlStash.rawHtmlBlocks]

    def _entries(
        self, keys: list[str], kept: dict, convert: Callable[[int, frozenset[str]], dict]
    ) -> list[dict]:
        """Each section's entry, converted where none is `kept` or the ids it saw differ."""
        entries: list[dict | None] = [kept.get(k) for k in keys]

        def seed(n: int) -> frozenset[str]:
            before = [set(e["ids"]) for e in entries[:n] if e is not None]
            after = [set(e["pre"]) for e in entries[n + 1 :] if e is not None]
            return frozenset().union(*before, *after)

        for n in range(len(keys)):  # each missing one first: its ids are seen by the others
            if entries[n] is None:
                entries[n] = convert(n, seed(n))
        for n, entry in enumerate(entries):
            assert entry is not None
            if relevant(seed(n), entry["ids"]) != entry["seed"]:
                entries[n] = convert(n, seed(n))
        return [entry for entry in entries if entry is not None]

    def _convert(
        self, page: Page, config: Any, files: Files, part: tuple[str, list[str]], seed: frozenset
    ) -> dict:
        """One section through `Page.render`, with the page's other ids as taken."""
        render = PartRender(*part, seed=seed)
        self.converted += 1
        warned = WarningCount()
        loggers = [logging.getLogger("mkdocs"), logging.getLogger("MARKDOWN")]
        for logger in loggers:
            logger.addHandler(warned)
        self._extension.part = render
        try:
            Page.render(page, config, files)
        finally:
            self._extension.part = None
            for logger in loggers:
                logger.removeHandler(warned)
        return {
            "html": page.content,
            "toc": [token for item in page.toc for token in _flat(item)],
            "title": page._title_from_render,
            "anchors": sorted(page.present_anchor_ids or ()),
            "links": {t.src_uri: a for t, a in (page.links_to_anchors or {}).items()},
            "pre": sorted(render.pre),
            "ids": sorted(render.ids),
            "seed": relevant(seed, render.ids),
            "keep": not warned.count,
        }

    def _assemble(self, page: Page, files: Files, entries: list) -> None:
        page.content = "\n".join(entry["html"] for entry in entries)
        flat = [dict(token) for entry in entries for token in entry["toc"]]
        page.toc = get_toc(nest_toc_tokens(flat))
        page._title_from_render = entries[0]["title"]
        page.present_anchor_ids = {a for entry in entries for a in entry["anchors"]}
        if logging.getLogger("mkdocs").getEffectiveLevel() > logging.DEBUG:
            links: dict = {}
            for entry in entries:
                for uri, anchors in entry["links"].items():
                    target = files.get_file_from_path(uri)
                    if target is not None:
                        links.setdefault(target, {}).update(anchors)
            page.links_to_anchors = links


def _flat(item: Any) -> list[dict]:
    """A toc entry and those under it, in order, as the flat tokens the toc nests."""
    token = {"level": item.level, "id": item.id, "name": item.title}
    return [token, *(t for child in item.children for t in _flat(child))]

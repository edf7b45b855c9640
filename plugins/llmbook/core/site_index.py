"""Pages and headings of the site, so `:::related` items can link to where a topic is taught.

Built from the files in `on_files` (before pages are read); headings come from a light
Python-Markdown pass with the site's own toc slugify, so anchors match the built pages. The pass
runs lazily, on the first lookup, so a site without `:::related` pays nothing.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass, field
from typing import Any

import markdown
from mkdocs.utils import get_relative_url
from mkdocs.utils.meta import get_data

from llmbook.core.lexer import lex
from llmbook.core.nav import NavPage, nav_pages
from llmbook.core.page_ref import PageRef
from llmbook.core.store import Store, key, version
from llmbook.core.store_namespaces import OUTLINES

__all__ = ["SiteIndex", "Target"]

_DECORATION = re.compile(
    r"^\d+(?:\.\d+)*\.?\s+|[★☆\s]+$"
)  # "10.3 RoPE：旋转位置编码 ★" → "RoPE：旋转位置编码"
_OUTLINE_FORMAT = 3  # of the outlines kept in the store (3: keyed by the heading lines)
_PARTS = re.compile(r"[：:（）()—–/→，,、]|\s-\s|\s[与和]\s")


@dataclass(frozen=True)
class Target:
    title: str
    url: str  # site-relative, e.g. "chapters/ch10.html#103-rope"


@dataclass
class SiteIndex:
    """Lookup of a topic name → the page or heading that teaches it."""

    pages: list[tuple[str, str, str]] = field(default_factory=list)  # (url, abs path, nav title)
    markdown_extensions: list[Any] = field(default_factory=list)
    mdx_configs: dict[str, dict[str, Any]] = field(default_factory=dict)
    nav: list[NavPage] = field(default_factory=list)  # the book's nav, read once by the adapter
    _names: dict[str, Target] | None = None
    # The build's store: outlines are kept in its "outlines" namespace (off: not kept).
    store: Store = field(default_factory=lambda: Store(None))
    # In a page's view of the index (`recording`): the index it reads, and where its lookups go.
    _whole: SiteIndex | None = None
    _lookups: list[list[str]] | None = None

    @classmethod
    def from_files(cls, files: Any, config: Any) -> SiteIndex:
        nav = nav_pages(config.get("nav") or [])
        titles = {page.uri: page.title for page in nav}
        pages = [
            (f.url, f.abs_src_path, titles.get(f.src_uri, ""))
            for f in files.documentation_pages()
            if f.abs_src_path
            and f.src_uri.endswith(".md")  # notebooks have no Markdown headings to read
        ]
        return cls(
            pages,
            list(config.get("markdown_extensions") or []),
            dict(config.get("mdx_configs") or {}),
            nav,
        )

    def lookup(self, name: str) -> Target | None:
        """The page (preferred) or heading whose title, or a part of it, is `name` (case-insensitive)."""
        target = self._load_names().get(_key(name))
        if self._lookups is not None:
            self._lookups.append([name, target.title, target.url] if target else [name, "", ""])
        return target

    def recording(self, lookups: list[list[str]]) -> SiteIndex:
        """This index as one page's render sees it: each lookup is appended to `lookups` as
        [name, title, url] ("" when not found), so a kept rendering can be checked against the
        index of a later build."""
        return dataclasses.replace(self, _whole=self._whole or self, _lookups=lookups)

    def _load_names(self) -> dict[str, Target]:
        if self._whole is not None:  # a page's view: the names are read once, by the index
            return self._whole._load_names()
        if self._names is None:
            self._names = {}
            for url, path, nav_title in self.pages:
                with open(path, encoding="utf-8-sig") as handle:
                    self._add_page(url, handle.read(), nav_title)
        return self._names

    def href(self, target: Target, page: PageRef | None) -> str:
        """The link from `page` (None: the site root) to `target`."""
        return get_relative_url(target.url, page.url) if page is not None else target.url

    def _add_page(self, url: str, text: str, nav_title: str) -> None:
        toc = self._toc()["toc"]
        meta_title, headings = self._outline(_prose(text), toc)
        title = (
            nav_title or meta_title or next((h["name"] for h in headings if h["level"] == 1), "")
        )
        assert self._names is not None
        if title:
            for key in _variants(title):
                self._names.setdefault(key, Target(title, url))
        for heading in headings:
            for key in _variants(heading["name"]):
                self._names.setdefault(key, Target(heading["name"], f"{url}#{heading['id']}"))

    def headings(self, text: str) -> list[dict[str, Any]]:
        """The headings of a page's text (level, id, name), ids as the site's toc makes them."""
        return self._outline(_prose(text), self._toc()["toc"])[1]

    def _outline(self, text: str, toc: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        """`_outline`, through an on-disk cache keyed by the text, the toc options and versions."""
        toc_key = _describe(toc)
        if not self.store.enabled:
            return _outline(text, toc_key, _Opaque(toc))
        versions = [version("markdown"), version("pymdown-extensions")]
        # Keyed by the lines that make headings: a prose edit finds its page's outline kept.
        memo = self.store.memo(OUTLINES, key(_OUTLINE_FORMAT, toc_key, versions, _skeleton(text)))
        data = memo.get()
        if isinstance(data, list) and len(data) == 2 and isinstance(data[1], list):
            return str(data[0]), data[1]
        title, headings = _outline(text, toc_key, _Opaque(toc))
        kept = [{k: h[k] for k in ("level", "id", "name")} for h in headings]
        memo.put([title, kept])
        return title, kept

    def settings(self) -> str:
        """The site's Markdown settings as a stable text (a key of rendered pages)."""
        names = [
            e if isinstance(e, str) else f"{type(e).__module__}.{type(e).__qualname__}"
            for e in self.markdown_extensions
        ]
        configs = {k: _describe(v) for k, v in sorted(self.mdx_configs.items())}
        return repr((names, configs))

    def _toc(self) -> dict[str, dict[str, Any]]:
        toc = {
            k: v
            for k, v in self.mdx_configs.get("toc", {}).items()
            if k in ("slugify", "separator")
        }
        return {"toc": toc}


# A line that is, or may make, a heading: ATX (also in a quote or a list item), a setext
# underline, an HTML block's start (Markdown inside it is no heading), front matter.
_HEADING_LIKE = re.compile(r"^\s*(?:(?:[>*+-]|\d+[.)])\s*)*(?:#|<|=+\s*$|-+\s*$|\.\.\.\s*$)")


def _skeleton(text: str) -> list[object]:
    """What of a page (its code already blanked) decides its outline: its front matter (a title),
    and each heading-like line with the line before it (a setext heading's text, or a blank)."""
    lines = text.split("\n")
    front = text.split("\n---", 1)[0] if text.startswith("---") else ""
    return [front] + [
        [lines[i - 1] if i else "", line]
        for i, line in enumerate(lines)
        if _HEADING_LIKE.match(line)
    ]


class _Opaque:
    """Rides along an lru_cache call without being part of its key."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Opaque)

    def __hash__(self) -> int:
        return 0


def _describe(toc: dict[str, Any]) -> str:
    """A stable key for the toc options (a slugify made anew by each config load included)."""
    parts = []
    for name, value in sorted(toc.items()):
        if isinstance(value, functools.partial):
            value = f"partial({_describe({'f': value.func})}, {value.args!r}, {value.keywords!r})"
        elif callable(value):
            cells = [repr(c.cell_contents) for c in getattr(value, "__closure__", None) or ()]
            value = f"{value.__module__}.{getattr(value, '__qualname__', type(value))}{cells}"
        parts.append(f"{name}={value!r}")
    return ";".join(parts)


@functools.lru_cache(maxsize=256)
def _outline(text: str, toc_key: str, toc: _Opaque) -> tuple[str, list[dict[str, Any]]]:
    """(front-matter title, headings) of a page: a pure function of its text and toc options, so
    `mkdocs serve` rebuilds parse only the pages that changed."""
    body, meta = get_data(text)
    md = markdown.Markdown(
        extensions=["toc", "attr_list", "pymdownx.superfences"],
        extension_configs={"toc": dict(toc.value)},
    )
    md.convert(body)
    return str(meta.get("title") or ""), _flatten(md.toc_tokens)


@functools.lru_cache(maxsize=256)
def _prose(text: str) -> str:
    """The text with its fenced code blanked (our lexer's fences: `python hidden` included, which
    superfences alone would read as prose), so a comment in code is never a heading. A pure
    function of the text: `mkdocs serve` rebuilds lex only the pages that changed."""
    lexed = lex(text)
    code = lexed.code_lines()
    return "\n".join("" if i in code else line for i, line in enumerate(lexed.lines))


def _flatten(tokens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    found = []
    for token in tokens:
        found.append(token)
        found.extend(_flatten(token["children"]))
    return found


def _variants(title: str) -> set[str]:
    """A heading is found by its full text and by each of its parts: "RoPE：旋转位置编码" → 3 keys."""
    core = _DECORATION.sub("", title.strip())
    keys = {_key(title), _key(core)}
    keys.update(_key(part) for part in _PARTS.split(core))
    keys.discard("")
    return keys


def _key(text: str) -> str:
    return " ".join(text.split()).casefold()

"""What a page's render makes of its citations: each prose citation becomes its author–year
label linked to the entry, a cited number's source the same; a page that cites ends with
`## 参考文献` (the entries it cites); the page holding `:::bibliography` lists every entry with
the pages that cite it. What the render showed is recorded, so a kept render is redone when an
entry it showed changed (or, for the list, who cites what)."""

from __future__ import annotations

import posixpath
from html import escape

from llmbook.book.citations import CitationIndex, PageCitations
from llmbook.core.cite_syntax import Cite
from llmbook.core.edits import LineEdits
from llmbook.core.i18n import Locale
from llmbook.core.stash import Stash
from llmbook.core.store import key as store_key

__all__ = ["cited_source", "put_citations", "still_true"]


def cited_source(index: CitationIndex, source: str, cite: Cite | None) -> tuple[str, str] | None:
    """A keyed cited number's source as (plain text, HTML): `Shazeer, 2020, Table 1`; None
    when it names no known entry (shown as written)."""
    entry = index.entry(cite.key) if cite is not None else None
    if entry is None or cite is None:
        return None
    tail = f", {cite.locator}" if cite.locator else ""
    html = f'<a href="#{escape(entry.anchor)}">{escape(entry.label)}</a>{escape(tail)}'
    return entry.label + tail, html


def put_citations(
    edits: LineEdits,
    index: CitationIndex,
    src: str,
    stash: Stash,
    read: list[list[str]] | None = None,
    plain: frozenset[int] = frozenset(),
    *,
    locale: Locale,
) -> dict[str, str]:
    """Prose citations linked, the page's reference list at its end; returns what the page's
    `:::bibliography` shows (Markdown), for the directive. `read` gets [key, kind, digest] of
    what the render showed."""
    page = index.pages.get(src)
    if page is None or index.bibliography is None:
        return {}
    for prose in page.prose:
        html = _prose_html(index, prose.cites, locale)
        if html is not None and prose.line not in plain:
            edits.replace(prose.line, prose.start, prose.end, stash.put(html))
    shown = index.bibliography.in_order(set(page.keys()))
    if shown:
        items = "".join(f'<li id="{escape(e.anchor)}">{e.html(locale)}</li>' for e in shown)
        listed = f'<ul class="llmbook-references">{items}</ul>'
        heading = locale.ui("references_heading")
        edits.tail = [*edits.tail, "", f"## {heading}", "", stash.put(listed)]
    if read is not None:
        read += [[key, "entry", _entry_digest(index, key)] for key in page.keys()]
    if not page.listing:
        return {}
    if read is not None:
        read.append(["*", "listing", _listing_digest(index, page)])
    return {"bibliography": _listing(index, page, stash, locale)}


def still_true(index: CitationIndex | None, src: str, read: list[list[str]]) -> bool:
    """Whether everything a kept render showed of the bibliography is the same now."""
    if not read:
        return True
    page = index.pages.get(src) if index is not None else None
    if index is None or page is None:
        return False
    for key, kind, digest in read:
        now = _listing_digest(index, page) if kind == "listing" else _entry_digest(index, key)
        if now != digest:
            return False
    return True


def _prose_html(index: CitationIndex, cites: tuple[Cite, ...], locale: Locale) -> str | None:
    parts = [cited_source(index, "", cite) for cite in cites]
    if any(part is None for part in parts):
        return None  # an unknown key: its error says so; the text stays as written
    inner = locale.ui("citation_join").join(html for _, html in parts)  # type: ignore[misc]
    return f'<span class="llmbook-citation">{locale.ui("citation", inner=inner)}</span>'


def _listing(index: CitationIndex, page: PageCitations, stash: Stash, locale: Locale) -> str:
    """Every entry, with links to the pages citing it (Markdown: the engine resolves them)."""
    assert index.bibliography is not None
    lines = []
    for entry in index.bibliography.in_order():
        item = stash.put(f'<span id="{escape(entry.anchor)}">{entry.html(locale)}</span>')
        where = [
            f"[{_link_text(p.title or p.uri)}]({_relative(page.uri, p.uri)})"
            for p in index.cited_by(entry.key)
        ]
        cited = locale.ui("list_join").join(where) if where else locale.ui("cited_nowhere")
        lines.append(f"- {item}<br>{locale.ui('cited_on')}{cited}")
    return "\n".join(lines)


def _entry_digest(index: CitationIndex, key: str) -> str:
    entry = index.entry(key)
    return entry.digest() if entry is not None else ""


def _listing_digest(index: CitationIndex, page: PageCitations) -> str:
    bibliography = index.bibliography
    who = {
        key: [[p.uri, p.title] for p in index.cited_by(key)]
        for key in (bibliography.entries if bibliography is not None else {})
    }
    data = [bibliography.digest if bibliography is not None else "", page.uri, who]
    return store_key(data)[:16]


def _link_text(title: str) -> str:
    return title.replace("[", "\\[").replace("]", "\\]")


def _relative(from_uri: str, to_uri: str) -> str:
    return posixpath.relpath(to_uri, posixpath.dirname(from_uri) or ".")

"""What a page's render makes of the glossary: each `{term}` role becomes a link to its entry on
the glossary page (`class="llmbook-term"`, the definition as its title: a plain link without
JavaScript, a popover with it), and the glossary page's `:::glossary` becomes the list of every
term with the pages that use it. Each render records what it showed (`TermIndex.shown`)."""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from mkdocs.utils import get_relative_url

from llmbook.book.glossary import Entry
from llmbook.book.terms import LISTING, TermIndex
from llmbook.core.edits import LineEdits
from llmbook.core.i18n import Locale
from llmbook.core.page_ref import PageRef
from llmbook.core.stash import Stash
from llmbook.core.term_syntax import find_terms

__all__ = ["PageGlossary", "put_terms", "site_urls"]


def site_urls(pages: list[tuple[str, str, str]], docs_dir: Path) -> Callable[[str], str]:
    """uri → site url, from the site index's pages (url, path, title); a page it does not list
    (a notebook) gets the url style of the pages it does."""
    known = {
        Path(path).resolve().relative_to(docs_dir).as_posix(): url
        for url, path, _ in pages
        if Path(path).resolve().is_relative_to(docs_dir)
    }
    flat = any(url.endswith(".html") and not url.endswith("index.html") for url in known.values())

    def url_of(uri: str) -> str:
        if uri in known:
            return known[uri]
        stem = posixpath.splitext(uri)[0]
        if flat:
            return stem + ".html"
        return stem[: -len("index")] if posixpath.basename(stem) == "index" else stem + "/"

    return url_of


@dataclass
class PageGlossary:
    """The glossary as one page's render sees it (what `:::glossary` and `:::showcase` call)."""

    terms: TermIndex
    page: PageRef
    stash: Stash
    url_of: Callable[[str], str]
    locale: Locale  # the page's: the listing's own words
    read: list[list[str]] | None = None  # gets [name, what was shown] of each term shown
    _recorded: set[str] = field(default_factory=set)

    def _record(self, name: str) -> None:
        if self.read is not None and name not in self._recorded:
            self._recorded.add(name)
            self.read.append([name, self.terms.shown(name)])

    def _href(self, uri: str, anchor: str = "") -> str:
        if uri == self.page.uri:
            return f"#{anchor}" if anchor else "#"
        href = get_relative_url(self.url_of(uri), self.page.url)
        return f"{href}#{anchor}" if anchor else href

    def link(self, entry: Entry, shown: str) -> str:
        """A stash placeholder for the term's link."""
        assert self.terms.glossary_page is not None  # else the site makes no PageGlossary
        self._record(entry.term)
        href = self._href(self.terms.glossary_page.uri, entry.slug)
        title = self.terms.title(entry)
        return self.stash.put(
            f'<a class="llmbook-term" href="{escape(href)}" title="{escape(title)}" '
            f'data-term="{escape(entry.term)}" data-name="{escape(self.terms.heading(entry))}" '
            f'data-definition="{escape(entry.definition)}">{escape(shown)}</a>'
        )

    def render_terms(self, markdown: str, first: int) -> str:
        """A standalone text's roles (a showcase's example, from file line `first`) as links."""
        out = []
        for number, text in enumerate(markdown.split("\n"), start=first):
            for use in reversed(find_terms(text, number)):
                entry = self.terms.glossary.lookup(use.name)
                if entry is None:
                    raise self.terms.undefined(self.page.src, use)
                text = text[: use.start] + self.link(entry, use.shown) + text[use.end :]
            out.append(text)
        return "\n".join(out)

    def listing(self) -> str:
        """Every term: its name in the site's language (the other beside it), its definition
        and the pages that use it."""
        self._record(LISTING)
        rows = ['<dl class="llmbook-glossary">']
        for entry in self.terms.glossary.entries:
            pages = [
                f'<a href="{escape(self._href(p.uri))}">{escape(p.title or p.uri)}</a>'
                for p in self.terms.used_by(entry)
            ]
            locale = self.locale
            used = locale.ui("list_join").join(pages) if pages else locale.ui("term_unused")
            name, other = self.terms.label(entry)
            beside = (
                f' <span class="llmbook-glossary__other">{escape(other)}</span>' if other else ""
            )
            rows.append(
                f'<dt id="{escape(entry.slug)}"><dfn class="llmbook-glossary__term">'
                f"{escape(name)}</dfn>{beside}</dt><dd><p "
                f'class="llmbook-glossary__definition">{escape(entry.definition)}</p><p '
                f'class="llmbook-glossary__used">{locale.ui("term_used_on")}{used}</p></dd>'
            )
        rows.append("</dl>")
        return "".join(rows)


def put_terms(edits: LineEdits, view: PageGlossary, plain: frozenset[int] = frozenset()) -> None:
    """Each defined term role of the page becomes its link (lines in `plain` stay as written;
    an undefined term is already in the report)."""
    for use in view.terms.uses.get(view.page.src, ()):
        entry = view.terms.glossary.lookup(use.name)
        if use.line in plain or entry is None or view.terms.glossary_page is None:
            continue
        edits.replace(use.line, use.start, use.end, view.link(entry, use.shown))

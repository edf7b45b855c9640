"""One page's prose lines as a Jupyter notebook shows them, from what the build already read.

Nothing here parses the page again: the collect stage's bindings, the check stage's formula spans
and the book's terms, citations and numbered parts say where each thing stands on its file line,
and each becomes what Jupyter shows in its place: a bound number its written value, a formula
kept for Jupyter's MathJax (its numbers written as TeX writes them, a labelled equation tagged with
its number), a term or a citation a link to the site. Links into the docs folder (references
among them) are made links to the site's pages, relative to where the notebook lies.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import unquote

from mkdocs.utils import get_relative_url

from llmbook.book.apparatus import Apparatus
from llmbook.book.parts import ATTRS, HEADING, PageParts
from llmbook.core.book_syntax import EQUATION_LABEL
from llmbook.core.cite_syntax import cited_key
from llmbook.core.formulas import tex_written
from llmbook.core.i18n import Locale
from llmbook.core.lexer import code_spans
from llmbook.execute.stages.plan import Plan

__all__ = ["Links", "ShownLines"]

# A Markdown link or image: its target in `href` (what the notebook rewrites).
_LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]\[]*\])*\]\((?P<href>[^()\s]*)(?:\s+\"[^\"]*\")?\)")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

Span = tuple[int, int, str]


@dataclass(frozen=True)
class Links:
    """How the notebook links the site: `notebook` is its path in the site (`chapters/x.ipynb`),
    `uri` the page's in the docs folder, `url_of` a docs page's site URL."""

    uri: str
    notebook: str
    url_of: Callable[[str], str]

    def to(self, site_path: str) -> str:
        """A path of the site (an anchor may follow), relative to the notebook; a folder's
        (a page's, with directory URLs) ends with its slash."""
        path, hash_, anchor = site_path.partition("#")
        href = get_relative_url(path, self.notebook)
        if (not path or path.endswith("/")) and not href.endswith("/"):
            href += "/"
        return href + hash_ + anchor

    def page(self, anchor: str = "") -> str:
        """The page on the site (at `anchor`)."""
        return self.to(self.url_of(self.uri) + (f"#{anchor}" if anchor else ""))

    def href(self, href: str) -> str:
        """A link written on the page, made the same link from the notebook: a page of the docs
        folder is its page on the site, another file its copy there; the rest as written."""
        if not href or _SCHEME.match(href) or href.startswith("/"):
            return href
        path, _, anchor = href.partition("#")
        if not path:
            return self.page(anchor)
        uri = posixpath.normpath(posixpath.join(posixpath.dirname(self.uri), unquote(path)))
        if uri.startswith("../"):
            return href
        target = self.url_of(uri) if uri.endswith((".md", ".ipynb")) else uri
        return self.to(target + (f"#{anchor}" if anchor else ""))


class ShownLines:
    """The page's file lines as the notebook shows them (`line`), each changed where the build
    found something on it."""

    def __init__(
        self, plan: Plan, book: Apparatus, links: Links, locale: Locale, parts: PageParts | None
    ) -> None:
        self.lexed = plan.page.lexed
        self._spans: dict[int, list[Span]] = {}
        self._tags = {
            p.line: p.number for p in (parts.numbered("equation") if parts is not None else ())
        }
        self._math(plan)
        self._bindings(plan, book, links, locale)
        self._terms(plan.page.src, book, links, plan)
        self._citations(plan.page.src, book, links, locale)
        self._links_and_headings(links, plan)

    def line(self, number: int) -> str:
        """File line `number` as the notebook shows it."""
        text = self.lexed.line(number)
        for start, end, new in sorted(self._spans.get(number, ()), reverse=True):
            text = text[:start] + new + text[end:]
        label = EQUATION_LABEL.match(text) if number in self._tags else None
        if label is not None:  # `$$ {#eq-x}` → the number Jupyter's MathJax shows at the right
            text = f"{label.group('close')[:-2]}\\tag{{{self._tags[number]}}}$$"
        return text

    def _add(self, line: int, start: int, end: int, new: str) -> None:
        """A replacement of `start:end` (as written); one overlapping an earlier one is left."""
        spans = self._spans.setdefault(line, [])
        if not any(a < end and start < b for a, b, _ in spans):
            spans.append((start, end, new))

    def _taken(self, line: int, at: int) -> bool:
        return any(a <= at < b for a, b, _ in self._spans.get(line, ()))

    def _math(self, plan: Plan) -> None:
        """Formulas stay formulas; their bound numbers are written as TeX writes them."""
        for line, spans in plan.math.items():
            text = self.lexed.line(line)
            for start, end in spans:
                shown = tex_written(text[start:end])
                self._add(line, start, end, shown)

    def _bindings(self, plan: Plan, book: Apparatus, links: Links, locale: Locale) -> None:
        """Every `[[…]]` of the prose as the page shows it: its written value, a cited one's
        source after it (linked to its entry), an illustrative one's label (one inside a
        formula is the math's)."""
        for binding in plan.page.bindings:
            inside = any(a <= binding.start < b for a, b in plan.math.get(binding.line, ()))
            if inside:
                continue
            shown = binding.written
            if binding.source is not None:
                source = _source(binding.source, book, links)
                shown += locale.ui("cited_source", source=source)
            elif binding.illustrative:
                shown += f"<sup>{locale.ui('illustrative')}</sup>"
            self._add(binding.line, binding.start, binding.end, shown)

    def _terms(self, src: str, book: Apparatus, links: Links, plan: Plan) -> None:
        """A term: its text, linked to its entry on the glossary page where the book has one."""
        terms = book.terms
        for use in terms.uses.get(src, ()):
            entry = terms.glossary.lookup(use.name)
            shown = use.shown
            if entry is not None and terms.glossary_page is not None:
                url = links.url_of(terms.glossary_page.uri)
                shown = f"[{use.shown}]({links.to(f'{url}#{entry.slug}')})"
            self._add(use.line, use.start, use.end, shown)

    def _citations(self, src: str, book: Apparatus, links: Links, locale: Locale) -> None:
        """A citation: its author–year labels, each linked to its entry in the page's list."""
        index = book.citations
        page = index.pages.get(src)
        for prose in page.prose if page is not None else ():
            entries = [(index.entry(cite.key), cite.locator) for cite in prose.cites]
            if any(entry is None for entry, _ in entries):
                continue  # an unknown key: its error is the build's
            shown = [
                f"[{entry.label}{f', {locator}' if locator else ''}]({links.page(entry.anchor)})"
                for entry, locator in entries
                if entry is not None
            ]
            inner = locale.ui("citation_join").join(shown)
            self._add(prose.line, prose.start, prose.end, locale.ui("citation", inner=inner))

    def _links_and_headings(self, links: Links, plan: Plan) -> None:
        """Links made the site's; a heading's `{#id}` left out (Jupyter shows it as text)."""
        code = {self.lexed.first + i for i in self.lexed.code_lines(quotes=True)}
        for number in self.lexed.numbers:
            text = self.lexed.line(number)
            if number in code or ("](" not in text and "{" not in text):
                continue
            hidden = code_spans(text) + plan.math.get(number, [])
            for link in _LINK.finditer(text):
                start, end = link.span("href")
                if not any(a <= link.start() < b for a, b in hidden):
                    if not self._taken(number, start) and link.group("href"):
                        self._add(number, start, end, links.href(link.group("href")))
            heading = HEADING.match(text)
            attrs = ATTRS.search(text) if heading is not None else None
            if attrs is not None:
                self._add(number, attrs.start(), attrs.end(), "")


def _source(source: str, book: Apparatus, links: Links) -> str:
    """A cited number's source: its bibliography entry's label, linked to the page's list of
    references; free text as written."""
    cite = cited_key(source)
    entry = book.citations.entry(cite.key) if cite is not None else None
    if cite is None or entry is None:
        return source
    tail = f", {cite.locator}" if cite.locator else ""
    return f"[{entry.label}{tail}]({links.page(entry.anchor)})"

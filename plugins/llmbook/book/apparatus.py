"""The book's apparatus for one build, as the site sees it: read from every page's model at the
start (numbered parts and references, glossary terms, citations), its errors joining the report,
and what each page's render makes of it.

`Site` holds one `Apparatus` and calls it at three points: `read` after the pages ran, the render
calls (`equations`, `put_parts_and_terms`, `put_citations`, `example`) while a page renders, and
`still_true` before a kept render is reused.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from llmbook.book.bibliography import load_bibliography
from llmbook.book.citations import CitationIndex, page_citations
from llmbook.book.cite_render import cited_source
from llmbook.book.cite_render import put_citations as put_page_citations
from llmbook.book.cite_render import still_true as citations_still_true
from llmbook.book.index import BookIndex, caption_setup
from llmbook.book.parts import PageParts, page_parts
from llmbook.book.render import equation_numbers, put_parts, render_example
from llmbook.book.render import still_true as references_still_true
from llmbook.book.term_render import PageGlossary, put_terms, site_urls
from llmbook.book.terms import TermIndex, term_index
from llmbook.core.cite_syntax import cited_key
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.page_context import PageContext
from llmbook.core.page_ref import PageRef
from llmbook.core.project import Project
from llmbook.core.render_deps import Deps
from llmbook.core.site_index import SiteIndex
from llmbook.core.stash import Stash
from llmbook.core.store import Store, key, llmbook_hash
from llmbook.core.store_namespaces import PARTS

__all__ = ["Apparatus", "Example"]

Example = Callable[[str, int], tuple[str, dict[str, str]]]


def _no_headings(text: str) -> list[dict[str, Any]]:
    return []


def _page_parts(
    plan: Any, src: str, uri: str, index: SiteIndex | None, store: Store | None, locale: Locale
) -> PageParts:
    """A page's numbered parts, kept in the store's "parts" namespace under a key of everything
    they are read from: an unchanged page is not read again."""

    def read() -> PageParts:
        return page_parts(
            plan.page.lexed,
            src=src,
            uri=uri,
            chapter=plan.page.chapter,
            math=plan.math,
            headings=index.headings if index is not None else _no_headings,
            doc=plan.doc,
            locale=locale,
        )

    if store is None or not store.enabled:
        return read()
    settings = index.settings() if index is not None else ""
    math = sorted(plan.math.items())
    page = plan.page
    parts_key = key(page.text, page.first, src, uri, page.chapter, math, plan.doc is not None,
                    settings, llmbook_hash(), locale.reading_digest)  # fmt: skip
    memo = store.memo(PARTS, parts_key, codec="pickle")
    kept = memo.get()
    if kept is None:
        kept = read()
        memo.put(kept)
    return kept


@dataclass
class Apparatus:
    parts: BookIndex = field(default_factory=BookIndex)  # numbered parts, references
    terms: TermIndex = field(default_factory=TermIndex)  # the glossary, who uses which term
    citations: CitationIndex = field(default_factory=lambda: CitationIndex(None))  # who cites what
    errors: list[AuthorError] = field(default_factory=list)
    index: SiteIndex | None = None
    project: Project | None = None
    store: Store | None = None  # the build's: the bibliography read once per content
    # the build's: the captions' labels (`图 10-3`, `Figure 10-3`), the listings' words
    locale: Locale | None = None

    @classmethod
    def read(
        cls,
        plans: Mapping[str, Any],
        *,
        project: Project,
        index: SiteIndex | None,
        options: Mapping[str, Any],
        log: logging.Logger | logging.LoggerAdapter,
        locale: Locale,
        unread: Iterable[str] = (),
        store: Store | None = None,
    ) -> Apparatus:
        """The apparatus of the pages' `plans` (src → Plan); its errors in `errors`, its
        counts logged. `unread`: pages that could not be read (their error is reported)."""
        parts = BookIndex.of(
            [
                _page_parts(plan, src, project.uri(src), index, store, locale)
                for src, plan in plans.items()
            ],
            locale,
            unread=frozenset(project.uri(src) for src in unread),
        )
        default = bool(options["numbers_strict"])
        strict = {
            src: plan.page.strict if plan.page.strict is not None else default
            for src, plan in plans.items()
        }
        errors = parts.check(strict)
        if index is not None:
            pages = list(parts.pages.values())
            errors += caption_setup(pages, index.markdown_extensions, index.mdx_configs)
        log.info(parts.counts.summary())
        book = cls(parts, errors=errors, index=index, project=project, store=store, locale=locale)
        book._read_terms(plans, options, log)
        book._read_citations(plans, options, log)
        return book

    def _title(self, src: str) -> str:
        page = self.parts.page(src)
        return page.title if page is not None else ""

    def _read_terms(self, plans: Mapping[str, Any], options: Mapping[str, Any], log: Any) -> None:
        assert self.project is not None
        nav = [page.uri for page in self.index.nav] if self.index is not None else []
        # the book's own language: the first of `languages`; a book in one language, the site's
        book_language = str((options.get("languages") or [self._locale.code])[0])
        self.terms = term_index(
            self.project,
            plans,
            self._title,
            nav,
            locale=self._locale,
            book_language=book_language,
        )
        for line in self.terms.summary():
            log.info(line)
        self.errors += self.terms.errors

    def _read_citations(self, plans: Mapping[str, Any], options: Mapping[str, Any], log: Any):
        """The bibliography (`bibliography` option, in the docs folder) and who cites what."""
        project = self.project
        assert project is not None
        bib_file = project.docs_dir / options.get("bibliography", "references.bib")
        bibliography = None
        if bib_file.is_file():
            try:
                src = os.path.relpath(bib_file, project.root).replace(os.sep, "/")
                bibliography = load_bibliography(bib_file, src, self.store)
            except AuthorError as error:
                self.errors.append(error)
        pages = {
            src: page_citations(plan, project.uri(src), self._title(src))
            for src, plan in plans.items()
        }
        self.citations = CitationIndex(bibliography, pages)
        self.errors += self.citations.check()
        if bibliography is not None:
            for entry in self.citations.uncited():
                log.info(f"{bibliography.src}:{entry.line}: {entry.key} is cited nowhere")
            log.info(self.citations.summary())

    # -- a page's render ------------------------------------------------------------------------

    def cited_source(self, source: str) -> tuple[str, str] | None:
        """How a cited number's source shows (its entry's label, linked), for `put_numbers`."""
        return cited_source(self.citations, source, cited_key(source))

    def equations(self, src: str) -> dict[str, str]:
        return equation_numbers(self.parts.page(src))

    def put_parts_and_terms(self, edits: LineEdits, page: PageContext) -> PageGlossary | None:
        """Captions numbered, references titled, terms linked; the page's glossary view (None:
        the book has no glossary page)."""
        parts, deps = self.parts.page(page.src), page.deps
        if parts is not None:
            read = deps.references if deps is not None else None
            put_parts(edits, parts, self.parts, page.stash, read, page.plain, locale=self._locale)
        glossary = self._glossary(page.page, page.stash, deps) if page.page is not None else None
        if glossary is not None:
            put_terms(edits, glossary, page.plain)
        return glossary

    def _glossary(self, page: PageRef, stash: Stash, deps: Deps | None) -> PageGlossary | None:
        if self.terms.glossary_page is None or self.project is None:
            return None
        pages = self.index.pages if self.index is not None else []
        urls = site_urls(pages, self.project.docs_dir)
        read = deps.terms if deps is not None else None
        return PageGlossary(self.terms, page, stash, urls, self._locale, read)

    def put_citations(self, edits: LineEdits, page: PageContext) -> dict[str, str]:
        """Prose citations as labels, the page's reference list at its end; what directives
        get of it (the bibliography page's listing)."""
        read = page.deps.cited if page.deps is not None else None
        return put_page_citations(
            edits, self.citations, page.src, page.stash, read, page.plain, locale=self._locale
        )

    def example(self, src: str, stash: Stash) -> Example | None:
        """How a `:::showcase` of page `src` numbers and checks its example (None: the page has
        no parts, as when it failed to load)."""
        parts = self.parts.page(src)
        if parts is None:
            return None
        headings = self.index.headings if self.index is not None else _no_headings
        return functools.partial(
            render_example,
            page=parts,
            book=self.parts,
            stash=stash,
            headings=headings,
            locale=self._locale,
        )

    @property
    def _locale(self) -> Locale:
        assert self.locale is not None, "a page renders against a book read in a language"
        return self.locale

    def still_true(self, src: str, deps: Deps) -> bool:
        """Whether what a kept render showed of the apparatus is still what it would show."""
        return (
            references_still_true(self.parts, self.parts.page(src), deps.references)
            and self.terms.still_true(deps.terms)
            and citations_still_true(self.citations, src, deps.cited)
        )

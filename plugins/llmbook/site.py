"""One build of the book, whatever engine hosts it: the executor's report, the site index, the
store, the build's outputs, and the page pipeline the Markdown extension runs.

An engine adapter (the MkDocs plugin, or `zensical_adapter` for Zensical) makes a `Site` from the
llmbook options, a `Project` and a mode (`Build`, or the live preview's `preview.Preview`), calls
`start(pages, index)` before any page is rendered (every page's code runs there), tells it which
page renders next, and at the end writes what only the build knows (`outputs`: figures, executed
notebooks) and runs the offline check.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mkdocs.plugins import get_plugin_logger

from llmbook.book.bibliography import load_bibliography
from llmbook.book.citations import CitationIndex, page_citations
from llmbook.book.cite_render import cited_source, put_citations
from llmbook.book.cite_render import still_true as citations_still_true
from llmbook.book.cite_syntax import cited_key
from llmbook.book.index import BookIndex, caption_setup
from llmbook.book.parts import PageParts, page_parts
from llmbook.book.render import equation_numbers, put_parts, render_example, still_true
from llmbook.book.term_render import PageGlossary, put_terms, site_urls
from llmbook.book.terms import TermIndex, term_index
from llmbook.demos.cache import DemoCache
from llmbook.directives import apply_line_edits, parse_structure, render_tree
from llmbook.edits import LineEdits
from llmbook.errors import AuthorError, forget_line_maps
from llmbook.execute import Executor
from llmbook.execute.mode import Strict
from llmbook.execute.report import Report
from llmbook.formulas import render_math
from llmbook.lexer import Lexed, lex
from llmbook.outputs import BuildOutputs, figure_path
from llmbook.page_ref import PageRef
from llmbook.preview import PageError, Preview, place_boxes
from llmbook.project import Project
from llmbook.render_cache import Deps, RenderCache, Rendered, replay, result_digest
from llmbook.site_index import SiteIndex
from llmbook.stash import Stash
from llmbook.store import Store, open_store

__all__ = ["Build", "Site"]

Example = Callable[[str, int], tuple[str, dict[str, str]]]

log = get_plugin_logger(__name__)


class Build(Strict):
    """`mkdocs build`, `zensical build`: the report stops the build; unchanged pages come from
    the render cache. The live preview is the other way a build is run (`preview.Preview`)."""

    caches_pages = True

    def failed(self, report: Report) -> None:
        report.raise_if_failed()

    def render_page(self, site: Site, markdown: str, page: PageRef, stash: Stash) -> str:
        return site.render_cached(markdown, page, stash)


@dataclass
class Site:
    options: Mapping[str, Any]  # the llmbook options (config.py), as mkdocs.yml sets them
    project: Project
    executor: Executor
    mode: Build | Preview  # the build's way, or the live preview's
    store: Store  # every cache of the build: one folder, one switch (the `cache` option)
    outputs: BuildOutputs  # the figures and notebook downloads the build writes
    index: SiteIndex | None = None
    demo_cache: DemoCache | None = None
    report: Report = field(default_factory=Report)
    book: BookIndex = field(default_factory=BookIndex)  # the book's numbered parts
    book_errors: list[AuthorError] = field(default_factory=list)  # its sections and references
    terms: TermIndex = field(default_factory=TermIndex)  # the glossary, and who uses which term
    citations: CitationIndex = field(default_factory=lambda: CitationIndex(None))  # who cites what
    cite_errors: list[AuthorError] = field(default_factory=list)  # unknown keys, a bad .bib
    current: PageRef | None = None
    sources: dict[str, bytes] = field(default_factory=dict)  # each page's file, as run
    rendered: list[str] = field(default_factory=list)  # pages this build rendered
    replayed: list[str] = field(default_factory=list)  # pages taken from the render cache
    # What each page's render depended on, rendered or replayed (through the render cache):
    # what an adapter's cache of whole conversions keeps with the page.
    page_deps: dict[str, Deps] = field(default_factory=dict)
    _rendered_pages: RenderCache | None = None

    @classmethod
    def create(
        cls, options: Mapping[str, Any], project: Project, mode: Build | Preview | None = None
    ) -> Site:
        forget_line_maps()
        mode = mode if mode is not None else Build()
        store = open_store(project.root, enabled=options["cache"], folder=options["cache_dir"])
        executor = Executor(options, project, mode, store=store)
        demo_cache = DemoCache(store) if store.enabled else None
        outputs = BuildOutputs(project, store)
        return cls(options, project, executor, mode, store, outputs, demo_cache=demo_cache)

    def start(self, pages: list[tuple[str, bytes]], index: SiteIndex) -> None:
        """The build's start, whatever the engine: the site index pages render against, and
        every page's code run (one report of everything that failed stops the build)."""
        self.index = index
        index.store = self.store
        self.run_pages(pages)

    def run_pages(self, pages: list[tuple[str, bytes]]) -> None:
        """Run every page's code; stop with one report of everything that failed (the live
        preview prints that report and goes on: each page shows its own errors)."""
        self.sources.update(pages)
        self.report = self.executor.run_pages(pages)
        self.check_book()
        self.mode.failed(self.report)

    def check_book(self) -> None:
        """The book's parts read from every page's model, its sections and references checked
        (their errors join the report's)."""
        report = self.report
        headings = self.index.headings if self.index is not None else (lambda text: [])
        self.book = BookIndex.of(
            [
                page_parts(
                    plan.page.lexed,
                    src=src,
                    uri=self.project.uri(src),
                    chapter=plan.page.chapter,
                    math=plan.math,
                    headings=headings,
                    doc=plan.doc,
                )
                for src, plan in report.plans.items()
            ]
        )
        site_strict = self.executor.numbers_strict
        strict = {
            src: plan.page.strict if plan.page.strict is not None else site_strict
            for src, plan in report.plans.items()
        }
        stale = {id(e) for e in self.book_errors}
        self.book_errors = self.book.check(strict) + self.check_terms()
        if self.index is not None:
            self.book_errors += caption_setup(
                list(self.book.pages.values()),
                self.index.markdown_extensions,
                self.index.mdx_configs,
            )
        report.failures = sorted(
            [f for f in report.failures if id(f) not in stale] + self.book_errors,
            key=lambda e: (e.src, e.line),
        )
        log.info(self.book.counts.summary())
        self.check_citations()

    def check_citations(self) -> None:
        """The bibliography read, who cites what recorded from every page's model, every key
        checked (the errors join the report's); entries cited nowhere are logged."""
        report, errors = self.report, []
        bib_file = self.project.docs_dir / self.options.get("bibliography", "references.bib")
        bibliography = None
        if bib_file.is_file():
            try:
                src = os.path.relpath(bib_file, self.project.root).replace(os.sep, "/")
                bibliography = load_bibliography(bib_file, src)
            except AuthorError as error:
                errors.append(error)
        pages = {}
        for src, plan in report.plans.items():
            uri = self.project.uri(src)
            parts = self.book.pages.get(uri)
            pages[src] = page_citations(plan, uri, parts.title if parts is not None else "")
        self.citations = CitationIndex(bibliography, pages)
        errors += self.citations.check()
        stale = {id(e) for e in self.cite_errors}
        self.cite_errors = errors
        report.failures = sorted(
            [f for f in report.failures if id(f) not in stale] + errors,
            key=lambda e: (e.src, e.line),
        )
        for entry in self.citations.uncited():
            log.info(f"{bibliography.src}:{entry.line}: {entry.key} is cited nowhere")
        if bibliography is not None:
            log.info(self.citations.summary())

    def check_terms(self) -> list[AuthorError]:
        """Every page's glossary terms checked against docs/glossary.yml (the build log names
        the terms no page uses); their errors."""

        def title(src: str) -> str:
            page = self.book.page(src)
            return page.title if page is not None else ""

        self.terms = term_index(self.project, self.report.plans, title)
        for line in self.terms.summary():
            log.info(line)
        return self.terms.errors

    def refresh(self, src: str, raw: bytes) -> None:
        """Run one page again, its file changed since `run_pages` (an engine that re-renders
        edited pages in the same process: Zensical's serve)."""
        self.sources[src] = raw
        fresh = self.executor.run_pages([(src, raw)])
        report = self.report
        report.plans.pop(src, None)
        report.notebooks.pop(src, None)
        report.failures = [f for f in report.failures if f.src != src] + fresh.failures
        report.plans.update(fresh.plans)
        report.notebooks.update(fresh.notebooks)
        self.check_book()
        self.mode.failed(fresh)

    # -- the page pipeline (run by the Markdown extension) ----------------------------------------

    def render_page(self, markdown: str, page: PageRef, stash: Stash) -> str:
        """Directives checked, math as MathML, the executor's plan applied, directives rendered;
        finished HTML goes into the engine's `stash`."""
        return self.mode.render_page(self, markdown, page, stash)

    def render_cached(self, markdown: str, page: PageRef, stash: Stash) -> str:
        """The page from the render cache when none of its inputs changed; else rendered, and
        kept there with what it stashed and what it depended on (`page_deps`)."""
        cache = self._render_cache()
        if cache is None:
            self.rendered.append(page.src)
            return self.render(self.model(markdown, page), page, stash)
        key = self._page_key(cache, markdown, page, len(stash))
        entry = cache.load(page.src, key)
        if entry is not None and self.replay_extras(page.src, entry.deps):
            self.replayed.append(page.src)
            self.page_deps[page.src] = entry.deps
            return replay(entry, stash.put)
        entry = Rendered("", len(stash))
        recording = Stash(lambda html: (entry.pieces.append(html), stash.put(html))[1], stash.count)
        entry.markdown = self.render(self.model(markdown, page), page, recording, deps=entry.deps)
        cache.store(page.src, key, entry)
        self.page_deps[page.src] = entry.deps
        self.rendered.append(page.src)
        return entry.markdown

    def _page_key(self, cache: RenderCache, markdown: str, page: PageRef, base: int) -> str:
        plan = self.report.plans.get(page.src)
        return cache.key(
            src=page.src,
            url=page.url,
            page_key=page.uri,
            markdown=markdown,
            result=(plan.result_digest or result_digest(plan.result))
            if plan is not None
            else result_digest(None),
            base=base,
        )

    def converted_key(self, markdown: str, page: PageRef) -> str | None:
        """The render cache's key of the page with its Markdown as the engine holds it (before
        Python-Markdown's own preprocessors), for an adapter that keeps whole conversions; None
        where nothing is cached (no cache, or the live preview)."""
        cache = self._render_cache()
        if cache is None or not self.mode.caches_pages:
            return None
        return self._page_key(cache, markdown, page, 0)

    def replay_extras(self, src: str, deps: Deps) -> bool:
        """Whether what a kept page depended on still holds: the site-index answers it used are
        the same and the figures it links are still among its results; if so the figures are
        registered (written at the end) as when the page rendered."""
        if any((self._lookup(n) or ("", "")) != (title, url) for n, title, url in deps.lookups):
            return False
        plan = self.report.plans.get(src)
        shown = {
            figure_path(f.svg): f.svg
            for run in (plan.result.blocks.values() if plan and plan.result else ())
            for f in run.figures
        }
        if any(path not in shown for path in deps.figures):
            return False
        if not still_true(self.book, self.book.page(src), deps.references):
            return False
        if not self.terms.still_true(deps.terms):
            return False
        if not citations_still_true(self.citations, src, deps.cited):
            return False
        for path in deps.figures:
            self.outputs.keep_figure(path, shown[path])
        return True

    def render_cache_key(self) -> str:
        """What the render cache keys every page on (files, options, settings, versions)."""
        cache = self._render_cache()
        return cache.site_key if cache is not None else ""

    def _render_cache(self) -> RenderCache | None:
        if self._rendered_pages is None and self.store.enabled:
            settings = self.index.settings() if self.index is not None else ""
            # Options that steer only running and checking reach a page through its results.
            shown = {
                k: v
                for k, v in dict(self.options).items()
                if not k.startswith(("execute", "cache")) and k != "offline_check"
            }
            options = json.dumps(shown, sort_keys=True, default=str)
            self._rendered_pages = RenderCache(
                self.store, {"options": options, "markdown": settings}
            )
        return self._rendered_pages

    def _lookup(self, name: str) -> tuple[str, str] | None:
        target = self.index.lookup(name) if self.index is not None else None
        return (target.title, target.url) if target is not None else None

    def model(self, markdown: str, page: PageRef) -> Lexed:
        """The page's model as the load stage lexed it; lexed here only when the engine hands a
        text the executor never saw (a page that failed to load, another plugin's edit)."""
        plan = self.report.plans.get(page.src)
        if plan is not None and plan.text == markdown:
            return plan.page.lexed
        return lex(markdown, plan.page.first if plan is not None else 1)

    def render(
        self,
        lexed: Lexed,
        page: PageRef,
        stash: Stash,
        *,
        plain: frozenset[int] = frozenset(),
        errors: list[PageError] | None = None,
        deps: Deps | None = None,
    ) -> str:
        """The page rendered; `deps`, when given, gets what the render depended on."""
        plan = self.report.plans.get(page.src)
        # Parsed once; the later stages say what they make of its lines; each directive is
        # validated and rendered once, on what they left.
        if plan is not None and plan.doc is not None and not plain and lexed is plan.page.lexed:
            doc = plan.doc  # the tree the check stage parsed
        else:
            doc = parse_structure(lexed, src=page.src, plain=plain)
        edits = LineEdits(lexed)
        if plan is not None:  # numbers where collect found them; formulas write their own
            plan.put_numbers(
                edits,
                stash=stash,
                math=plan.math,
                cited_source=lambda source: cited_source(self.citations, source, cited_key(source)),
            )
        parts = self.book.page(page.src)
        render_math(
            edits, src=page.src, stash=stash, plain=plain, equations=equation_numbers(parts)
        )
        if parts is not None:
            read = deps.references if deps is not None else None
            put_parts(edits, parts, self.book, stash, read, plain)
        glossary = self.page_glossary(page, stash, deps)
        if glossary is not None:
            put_terms(edits, glossary, plain)
        if plan is not None:
            linked = deps.figures if deps is not None else None
            plan.put_outputs(edits, stash=stash, figure_url=self.outputs.figure_url(page, linked))
        made = put_citations(
            edits, self.citations, page.src, stash, deps.cited if deps else None, plain
        )
        if errors:
            place_boxes(doc, edits, errors, stash.put)
        index = self.index
        if index is not None and deps is not None:
            index = index.recording(deps.lookups)
        return render_tree(
            apply_line_edits(doc, edits),
            src=page.src,
            stash=stash,
            site=index,
            page=page,
            demo_cache=self.demo_cache,
            example=self._example(parts, stash),
            glossary=glossary,
            made=made,
        )

    def _example(self, parts: PageParts | None, stash: Stash) -> Example | None:
        """How a `:::showcase` of this page numbers and checks its example (None: the page has
        no parts, as when it failed to load)."""
        if parts is None:
            return None
        headings = self.index.headings if self.index is not None else (lambda text: [])
        return functools.partial(
            render_example, page=parts, book=self.book, stash=stash, headings=headings
        )

    def page_glossary(self, page: PageRef, stash: Stash, deps: Deps | None) -> PageGlossary | None:
        """The glossary as `page`'s render sees it (links made relative to the page); None
        where the book has no glossary page to link to."""
        if self.terms.glossary_page is None:
            return None
        pages = self.index.pages if self.index is not None else []
        urls = site_urls(pages, self.project.docs_dir)
        read = deps.terms if deps is not None else None
        return PageGlossary(self.terms, page, stash, urls, read)

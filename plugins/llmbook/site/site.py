"""One build of the book, whatever engine hosts it: the executor's report, the site index, the
store, the build's outputs, and the page pipeline the Markdown extension runs.

An engine adapter (the MkDocs plugin, or `zensical_adapter` for Zensical) makes a `Site` from the
llmbook options, a `Project` and a mode (`Build`, or the live preview's `preview.Preview`), calls
`start(pages, index)` before any page is rendered (every page's code runs there), tells it which
page renders next, and at the end writes what only the build knows (`outputs`: figures, executed
notebooks) and runs the offline check.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mkdocs.plugins import get_plugin_logger

from llmbook.core.assets import PLUGIN_ASSETS
from llmbook.book.apparatus import Apparatus
from llmbook.book.term_render import PageGlossary
from llmbook.core.cjk import require_font
from llmbook.core.crash import InternalError, reported_as_internal
from llmbook.demos import DemoFrames
from llmbook.directives import apply_line_edits, parse_structure, render_tree
from llmbook.editions.links import edition_links
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError
from llmbook.execute import Executor
from llmbook.execute.stages.mode import Strict
from llmbook.execute.stages.plan import Plan, shown_files
from llmbook.execute.stages.report import Report, in_page_order
from llmbook.core.formulas import render_math
from llmbook.core.i18n import Locale, options_locale
from llmbook.core.lexer import lex
from llmbook.site.outputs import BuildOutputs, figure_path
from llmbook.core.page_context import PageContext
from llmbook.core.page_ref import PageRef
from llmbook.site.preview import Preview, place_boxes
from llmbook.core.project import Project
from llmbook.site.render_cache import Deps, RenderCache, Rendered, replay, result_digest
from llmbook.core.site_index import SiteIndex
from llmbook.core.stash import Stash
from llmbook.core.store import Store, open_store
from llmbook.translate.book import Translations

__all__ = ["Build", "Site", "after_title"]

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
    # the build's language (`theme.language`): every word llmbook writes, the forms it reads
    locale: Locale
    index: SiteIndex | None = None
    demos: DemoFrames | None = None  # the book's (the `demos` option), their frames in the store
    translations: Translations | None = None  # the `languages` option names more than one
    report: Report = field(default_factory=Report)
    # numbered parts, references, glossary, bibliography: read from every page at the start
    book: Apparatus = field(default_factory=Apparatus)
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
        mode = mode if mode is not None else Build()
        languages = [options.get("language") or "", *(options.get("languages") or [])]
        config_file = project.config_file or project.root / "mkdocs.yml"
        require_font(languages, config_file=config_file, root=project.root)  # the `cjk` extra
        store = open_store(project.root, enabled=options["cache"], folder=options["cache_dir"])
        locale = options_locale(options, project.root)
        translations = Translations.from_options(options, project, locale, store)
        if translations is not None and translations.languages.translating:
            project = dataclasses.replace(project, translating=translations.languages.current)
            translations.project = project
        executor = Executor(
            options, project, mode, store=store, companion=translations, locale=locale
        )
        outputs = BuildOutputs(project, store, locale)
        return cls(
            options,
            project,
            executor,
            mode,
            store,
            outputs,
            locale,
            book=Apparatus(locale=locale),
            demos=executor.demos,
            translations=translations,
        )

    def asset_folders(self) -> tuple[tuple[str, Path], ...]:
        """The site's stylesheets and scripts, (site folder, folder): the plugin's, then those
        the book's demo modules bring."""
        return (*PLUGIN_ASSETS, *(self.demos.catalog.assets if self.demos is not None else ()))

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
        """The book's apparatus read from every page's model: its sections, references, terms
        and citations checked (their errors join the report's, replacing the last reading's)."""
        report = self.report
        stale = {id(e) for e in self.book.errors}
        own = [f for f in report.failures if id(f) not in stale]
        docs = os.path.relpath(self.project.docs_dir, self.project.root).replace(os.sep, "/")
        try:
            with self._guard(docs, "reading the book's sections, references, terms and citations"):
                self.book = Apparatus.read(
                    report.plans,
                    project=self.project,
                    index=self.index,
                    options=self.options,
                    log=log,
                    locale=self.locale,
                    unread={f.src for f in own} - report.plans.keys(),
                    store=self.store,
                )
        except InternalError as error:
            self.book = Apparatus(errors=[error], locale=self.locale)
        if self.translations is not None:
            try:
                with self._guard(docs, "checking the translations against their sources"):
                    sources = {p.page.src: p.page for p in report.plans.values()}
                    self.book.errors += self.translations.check(sources, log)
            except InternalError as error:
                self.book.errors.append(error)
        # Each error once, where it is, in the order of the pages (a source before its
        # translations) and their lines.
        models = {src: plan.page.lexed for src, plan in report.plans.items()}
        for error in self.book.errors:  # named as their page's model names its lines
            error.locate(error.src, models.get(error.src))
        unique = {(e.src, e.line, str(e)): e for e in own + self.book.errors}
        source_of = self.translations.languages.source_of if self.translations else str
        report.failures = in_page_order(unique.values(), source_of)

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
        with self._guard(page.src, "rendering the page"):
            return self.mode.render_page(self, markdown, page, stash)

    def _guard(self, src: str, stage: str) -> contextlib.AbstractContextManager[None]:
        """A bug of ours met while `stage` of `src` becomes its one error (crash.py)."""
        root, folder = self.project.root, self.options["cache_dir"]
        return reported_as_internal(src, stage, root=root, folder=folder)

    def render_cached(self, markdown: str, page: PageRef, stash: Stash) -> str:
        """The page from the render cache when none of its inputs changed; else rendered, and
        kept there with what it stashed and what it depended on (`page_deps`)."""
        # A page another shard runs is rendered without results here: not a page to keep.
        left_out = page.src in self.executor.left_out
        cache = self._render_cache() if not left_out else None
        if cache is None:
            self.rendered.append(page.src)
            return self.render(self.context(markdown, page, stash))
        key = self._page_key(cache, markdown, page, len(stash))
        entry = cache.load(page.src, key)
        if entry is not None and self.replay_extras(page.src, entry.deps):
            self.replayed.append(page.src)
            self.store.use_again(entry.uses)  # its formulas, demo frames: still needed
            return replay(entry, stash.put)
        entry = Rendered("", len(stash))
        recording = Stash(lambda html: (entry.pieces.append(html), stash.put(html))[1], stash.count)
        with self.store.recording() as uses:
            entry.markdown = self.render(self.context(markdown, page, recording, entry.deps))
        entry.uses = sorted(uses)
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
        if cache is None or not self.mode.caches_pages or page.src in self.executor.left_out:
            return None
        return self._page_key(cache, markdown, page, 0)

    def replay_extras(self, src: str, deps: Deps) -> bool:
        """Whether what a kept page depended on still holds: the site-index answers it used are
        the same and the figures it links are still among its results; if so the figures are
        registered (written at the end) and the page's `page_deps` are these, as when the page
        rendered."""
        if any((self._lookup(n) or ("", "")) != (title, url) for n, title, url in deps.lookups):
            return False
        plan = self.report.plans.get(src)
        files = shown_files(plan.result if plan is not None else None)
        shown = {figure_path(content, suffix): content for content, suffix in files}
        if any(path not in shown for path in deps.figures):
            return False
        if not self.book.still_true(src, deps):
            return False
        if self.demos is not None and not self.demos.still_current(deps.demos):
            return False  # a demo it shows is drawn by other code now
        for path in deps.figures:
            self.outputs.keep_figure(path, shown[path])
        self.page_deps[src] = deps
        return True

    def render_cache_key(self) -> str:
        """What the render cache keys every page on (files, options, settings, versions)."""
        cache = self._render_cache()
        return cache.site_key if cache is not None else ""

    def _render_cache(self) -> RenderCache | None:
        if self._rendered_pages is None and self.store.enabled:
            settings = self.index.settings() if self.index is not None else ""
            # Options that steer only running and checking reach a page through its results; the
            # post-build steps (offline_check, remote_images) and the launch links, added to the
            # rendered page (launch.py), never reach it.
            shown = {
                k: v
                for k, v in dict(self.options).items()
                if not k.startswith(("execute", "cache"))
                and k not in ("offline_check", "remote_images", "launch")
            }
            options = json.dumps(shown, sort_keys=True, default=str)
            self._rendered_pages = RenderCache(
                self.store,
                {"options": options, "markdown": settings, "locale": self.locale.digest},
                edition=self.project.translating,
            )
        return self._rendered_pages

    def _lookup(self, name: str) -> tuple[str, str] | None:
        target = self.index.lookup(name) if self.index is not None else None
        return (target.title, target.url) if target is not None else None

    def _recorders(self, deps: Deps | None) -> tuple[SiteIndex | None, DemoFrames | None]:
        """The site index and the demos, noting into `deps` (when given) what the render looks
        up and which demos it shows."""
        if deps is None:
            return self.index, self.demos
        index = self.index.recording(deps.lookups) if self.index is not None else None
        demos = self.demos.recording(deps.demos) if self.demos is not None else None
        return index, demos

    def context(
        self, markdown: str, page: PageRef, stash: Stash, deps: Deps | None = None
    ) -> PageContext:
        """What every step of the page's render reads, made once: the page, its model as the
        load stage lexed it (lexed here only when the engine hands a text the executor never
        saw: a page that failed to load, another plugin's edit), its stash, the build's words and
        store; `deps`, when given, gets what the render depended on."""
        plan = self.report.plans.get(page.src)
        if plan is not None and plan.text == markdown:
            lexed = plan.page.lexed
        else:
            lexed = lex(markdown, plan.page.first if plan is not None else 1)
        store = self.store
        return PageContext(page.src, lexed, stash, self.locale, page, store=store, deps=deps)

    def render(self, page: PageContext) -> str:
        """The page rendered; an error met is named as the page's model names its lines."""
        plan = self.report.plans.get(page.src)
        try:
            # Parsed once; the later stages say what they make of its lines; each directive is
            # validated and rendered once, on what they left.
            same = plan is not None and page.lexed is plan.page.lexed and not page.plain
            doc = plan.doc if plan is not None and same else None  # the check stage's tree
            if doc is None:
                doc = parse_structure(
                    page.lexed, src=page.src, plain=page.plain, directives=self.executor.directives
                )
            edits = LineEdits(page.lexed)
            glossary, made = self._edit(edits, page, plan)
            if page.errors:  # the live preview's boxes
                place_boxes(
                    doc,
                    edits,
                    list(page.errors),
                    page.stash.put,
                    page.locale,
                    self.executor.directives,
                )
            index, demos = self._recorders(page.deps)
            rendered = render_tree(
                apply_line_edits(doc, edits),
                page,
                site=index,
                demos=demos,
                example=self.book.example(page.src, page.stash),
                glossary=glossary,
                made=made,
                directives=self.executor.directives,
            )
        except AuthorError as error:
            raise error.locate(page.src, page.lexed) from None
        if self.translations is None or page.page is None:
            return rendered
        banner = self.translations.banner(page.src, page.page.url)
        return after_title(rendered, page.stash.put(banner))

    def _edit(
        self, edits: LineEdits, page: PageContext, plan: Plan | None
    ) -> tuple[PageGlossary | None, dict[str, str]]:
        """What the stages before the directives make of the page's lines (numbers, formulas,
        captions, terms, outputs, citations); (its glossary view, what they made for its
        directives)."""
        stash, ref = page.stash, page.page
        assert ref is not None, "a page of the site"
        if plan is not None:  # numbers where collect found them; formulas write their own
            cited = self.book.cited_source
            plan.put_numbers(
                edits, stash=stash, math=plan.math, cited_source=cited, locale=page.locale
            )
        equations = self.book.equations(page.src)
        render_math(
            edits,
            src=page.src,
            stash=stash,
            plain=page.plain,
            equations=equations,
            store=page.store,
        )
        glossary = self.book.put_parts_and_terms(edits, page)
        if plan is not None:
            file_url = self.outputs.file_url(ref, page.deps.figures if page.deps else None)
            plan.put_outputs(edits, stash=stash, file_url=file_url, locale=page.locale)
        made = self.book.put_citations(edits, page)
        if self.options["editions"]:
            languages = self.options.get("languages") or ()
            links = edition_links(self.options["editions"], ref.url, page.locale, languages)
            made = {**made, "editions": links}
        return glossary, made


def after_title(markdown: str, block: str) -> str:
    """`block` after the page's title (its first line, when a `# ` heading: MkDocs takes the
    title from the first element), else first."""
    lines = markdown.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), 0)
    at = first + 1 if lines and lines[first].startswith("# ") else 0
    return "\n".join([*lines[:at], "", block, "", *lines[at:]])

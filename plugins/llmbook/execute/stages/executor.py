"""The executor: load → (cache | engine) → check, for every page of a build.

Stages in their own modules: `load` (file → collected source), `engine` (worker processes),
`cache`, `check` (the plan: coverage, numbers, expected outputs), `report` (the build's report).

`run_pages` is the build: every page is collected, the pages the cache cannot answer run in
parallel worker processes (`engine.py`), every number is checked, and `report` lists every failing
page and every drifted number at once. `run_page` runs one page the same way (pytest, tests and
`update_numbers`) and raises its first failure.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Mapping, Sequence
from typing import Any

from mkdocs.plugins import get_plugin_logger

from llmbook.core.crash import reported_as_internal
from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale, options_locale
from llmbook.core.project import Project
from llmbook.core.store import Store, key, llmbook_hash, open_store, switched_off
from llmbook.demos import DemoFrames
from llmbook.directives.shipped import book_directives
from llmbook.execute.cluster.cluster import ClusterEngine
from llmbook.execute.cluster.resources import local_check
from llmbook.execute.cluster.shard import read_shard, shard_number
from llmbook.execute.numbers.check import bare_plan, plan_page
from llmbook.execute.numbers.coverage import Coverage
from llmbook.execute.stages.cache import FileHashes, PageCache, page_key, result_digest
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.companion import Companion
from llmbook.execute.stages.engine import PageOutcome
from llmbook.execute.stages.engine_options import engine_from_options, spec_from_options
from llmbook.execute.stages.load import LoadedPage
from llmbook.execute.stages.mode import Strict
from llmbook.execute.stages.pages import docs_relative, page_selector
from llmbook.execute.stages.plan import Plan
from llmbook.execute.stages.provenance import Distributions
from llmbook.execute.stages.report import BuildFailed, RaisingPolicy, Report
from llmbook.execute.stages.run import RunResult
from llmbook.execute.stages.stage_cache import StageCache

__all__ = ["Executor"]

log = get_plugin_logger(__name__)


class Executor:
    """Runs pages for one build (a new one per build: nothing survives to the next)."""

    def __init__(
        self,
        plugin_config: Mapping[str, Any],
        project: Project,
        mode: Strict | None = None,
        *,
        store: Store | None = None,
        companion: Companion | None = None,
        locale: Locale | None = None,
        demos: DemoFrames | None = None,
    ) -> None:
        # A translating build's translations (translate/book.py): each runs as its source.
        self.companion = companion
        # The words pages are read in (quiz keywords, references): the site's, or the options'.
        self.locale = locale if locale is not None else options_locale(plugin_config, project.root)
        # The build's way with author errors, or the live preview's (execute/stages/mode.py).
        self.mode = mode if mode is not None else Strict()
        self.root = str(project.root)
        self.cache_dir = str(plugin_config["cache_dir"])  # crash files go there too
        self.execute = bool(plugin_config["execute"]) and not switched_off("LLMBOOK_EXECUTE")
        docs_dir = str(project.docs_dir)
        selector = page_selector(plugin_config["execute_pages"], root=self.root, docs_dir=docs_dir)
        runs_as = companion.runs if companion is not None else str
        self.runs_page = lambda src: selector(runs_as(src))
        # CI sharding (shard.py): only this shard's pages run; the others are left out.
        self.shard = read_shard(plugin_config["execute_shard"], os.environ.get("LLMBOOK_SHARD"))
        self._docs_path = docs_relative(root=self.root, docs_dir=docs_dir)
        self.left_out: set[str] = set()  # pages of other shards, neither run nor checked
        self._hashes = FileHashes(self.root)
        self.distributions = Distributions()  # versions, each looked up once per build
        self.spec = spec_from_options(plugin_config, project)  # how pages run: it keys results
        self.engine = engine_from_options(self.spec, plugin_config, self._hashes)
        # The build's one store (Site.create opens it); standalone (pytest, tools) its own.
        folder = plugin_config["cache_dir"]
        store = store or open_store(self.root, enabled=plugin_config["cache"], folder=folder)
        self.store = store
        self.cache = PageCache(store)
        # The book's demos (the `demos` option): a page's `:::demo` IDs are checked against them.
        if demos is None:
            demos = DemoFrames.of_book(plugin_config.get("demos") or (), project, store)
        self.demos = demos
        # The build's directives: llmbook's and the book's `box_types` (BoxTypeError: a bad row).
        self.directives = book_directives(plugin_config)
        # A page's checks depend on llmbook's code, the words it is read in (quiz keywords,
        # ordinals), the demo IDs the book registers and the directives it knows.
        known = (self.locale.reading_digest, demos.known_ids(), self.directives.key())
        self.stages = StageCache(store, key(llmbook_hash(), *known))
        self.numbers_strict = bool(plugin_config["numbers_strict"])
        # a raising block: an error, or a warning with its error shown on the page
        self.raising = RaisingPolicy(bool(plugin_config["execute_allow_errors"]), log)
        self.coverage: dict[str, Coverage] = {}
        self.counts: dict[str, int] = {}
        self.executed: list[str] = []  # pages actually run (not from the cache), in page order
        self.placed: dict[str, str] = {}  # page → the cluster worker that ran it
        self.seconds = 0.0  # time spent executing this build (the bench reads it from the log)

    # -- the build ---------------------------------------------------------------------------

    def run_pages(
        self, pages: Sequence[tuple[str, bytes | str]], *, sharded: bool = True
    ) -> Report:
        """Every page (src, file content), failures collected instead of raised; `sharded`:
        with a shard, the pages of other shards that the cache cannot answer are left out."""
        start = time.perf_counter()
        report = Report()
        loaded = self._load_all(pages, report)
        sources = self._sources_of_translations(loaded, report)
        runnable = [p for p in loaded if p.source.src not in sources]
        runnable += list({id(s): s for s in sources.values() if s is not None}.values())
        waiting = self._this_shards(runnable, self._uncached(runnable, report), sharded=sharded)
        if waiting:
            self.distributions.prepare()  # beside the pages: which distribution owns a module
        outcomes = self._run([p.source for p in waiting])
        for page, outcome in zip(waiting, outcomes, strict=True):
            self.executed.append(page.source.src)
            if outcome.where:
                self.placed[page.source.src] = outcome.where
            if outcome.error is not None:
                page.result = None
                report.failures += self.raising.errors(page.source, outcome.raised)
                report.failures.append(outcome.error)
            else:
                page.result = outcome.result
                self._record_versions(page.result)
                if all(self.raising.allowed(page.source, r) for r in page.result.raised):
                    self.cache.store(page.source.src, page.key, page.result)
        built = {page.source.src for page in loaded}
        for source in {id(s): s for s in sources.values() if s is not None}.values():
            if source.source.src not in built:  # a translation's source: what raised is its own
                self._report_raised(source, report)
        for page in loaded:
            if page.source.src in sources:
                self._translated(page, sources[page.source.src])
            self._report_raised(page, report)
            self._plan_into(report, page)
            self._log_page(page, report.plans.get(page.source.src))
        models = {p.source.src: p.source.lexed for p in [*runnable, *loaded]}
        for error in report.failures:  # each named as its page's model names its lines
            error.locate(error.src, models.get(error.src))
        report.failures.sort(key=lambda e: (e.src, e.line))
        self.seconds += time.perf_counter() - start
        return report

    def finish(self) -> None:
        """Log the build's totals (its drifted numbers are the report's: `Report.raise_if_failed`)."""
        total = sum(self.counts.values())
        log.info(
            f"checked {total} numbers on {len(self.counts)} executed pages "
            f"({len(self.executed)} pages run)"
        )
        log.debug(f"executor {self.seconds:.2f} s")
        if self.shard is not None:
            log.info(self.shard.summary(len(self.executed), len(self.left_out)))
        if self.coverage:
            site = Coverage()
            for page in self.coverage.values():
                site.checked += page.checked
                site.cited += page.cited
                site.illustrative += page.illustrative
                site.structural += page.structural
                site.unaccounted += page.unaccounted
            log.info(f"numbers on {len(self.coverage)} pages: {site.summary()}")

    # -- one page ----------------------------------------------------------------------------

    def run_page(self, markdown: bytes | str, *, src: str) -> Plan:
        """One whole file, run as the build runs its pages; its first failure raised (pytest, tests,
        `update_numbers`). Its drifted numbers are the plan's `mismatches`, for the caller."""
        report = self.run_pages([(src, markdown)], sharded=False)  # asked for: runs anyway
        plan = report.plans.get(src)
        if plan is not None and plan.unaccounted:
            raise BuildFailed(plan.unaccounted, plan.mismatches)
        if report.failures:
            raise report.failures[0]
        assert plan is not None
        return plan

    # -- stages ------------------------------------------------------------------------------

    def _guard(self, src: str, stage: str) -> contextlib.AbstractContextManager[None]:
        """A bug of ours met while `stage` of page `src` becomes that page's one error."""
        return reported_as_internal(src, stage, root=self.root, folder=self.cache_dir)

    def _load_all(
        self, pages: Sequence[tuple[str, bytes | str]], report: Report
    ) -> list[LoadedPage]:
        """Every page loaded; one that cannot be, reported."""
        loaded: list[LoadedPage] = []
        for src, raw in pages:
            try:
                with self._guard(src, "reading the page"):
                    page = self.stages.load(src, raw, execute=self.runs_page(src))
            except AuthorError as error:
                report.failures.append(error)
                continue
            if page.notebook is not None:
                report.notebooks[src] = page.notebook
            loaded.append(page)
        return loaded

    def _sources_of_translations(
        self, loaded: list[LoadedPage], report: Report
    ) -> dict[str, LoadedPage | None]:
        """{translation: its source, loaded} for the translations among `loaded`: the source's
        code is what runs (once, cached as the source's). A translation that does not
        correspond to its source is reported; its source is None (it gets no results)."""
        if self.companion is None:
            return {}
        found: dict[str, LoadedPage | None] = {}
        for page in loaded:
            src = page.source.src
            source_file = self.companion.source_file(src)
            if source_file is None:
                continue
            found[src] = None
            try:
                with self._guard(src, "reading its source"):
                    source = self.stages.load(*source_file, execute=self.runs_page(src))
                    errors = self.companion.pair(page.source, source.source)
            except AuthorError as error:
                report.failures.append(error)
                continue
            report.failures.extend(errors)
            if not errors:
                found[src] = source
        return found

    def _translated(self, page: LoadedPage, source: LoadedPage | None) -> None:
        """The translation's results: its source's, block by block and number by number."""
        assert self.companion is not None
        if source is None or source.result is None:
            return  # the source failed: reported at its own line
        page.result = self.companion.result(page.source, source.source, source.result)

    def _uncached(self, loaded: list[LoadedPage], report: Report) -> list[LoadedPage]:
        """The pages of `loaded` the cache cannot answer; a page that cannot run (execution
        off, not cached) is reported and leaves `loaded`."""
        waiting: list[LoadedPage] = []
        for page in list(loaded):
            try:
                with self._guard(page.source.src, "looking up its cached results"):
                    if self._from_cache(page) is None:
                        waiting.append(page)
            except AuthorError as error:
                report.failures.append(error)
                loaded.remove(page)
        return waiting

    def _report_raised(self, page: LoadedPage, report: Report) -> None:
        """What raised while the page ran on: warnings where errors are allowed (the page shows
        them), else errors, each at its line; a page with errors keeps no results."""
        if page.result is None or not page.result.raised:
            return
        failing = self.raising.errors(page.source, page.result.raised)
        if failing:
            report.failures.extend(failing)
            page.result = None

    def _plan_into(self, report: Report, page: LoadedPage) -> None:
        """The page's plan into the report: checked, or bare (its model for the rest of the
        book) when its code or its checks failed; its errors with the others."""
        src = page.source.src
        left_out = src in self.left_out  # planned unchecked, kept nowhere
        failed = page.result is None and page.source.needs_execution()
        try:
            with self._guard(src, "checking the page"):
                if failed and not left_out and not self.mode.plans(failed):
                    # reported above; still a page to the rest of the book (its model)
                    report.plans[src] = bare_plan(
                        page,
                        strict=self.numbers_strict,
                        locale=self.locale,
                        demos=self.demos,
                        directives=self.directives,
                    )
                else:
                    plan = report.plans[src] = self._plan(page, keep=not left_out)
                    report.failures.extend(plan.unaccounted)
        except AuthorError as error:
            report.failures.append(error)
            with contextlib.suppress(Exception):
                # its numbers unchecked: shown by the live preview, a model to the book
                report.plans[src] = bare = bare_plan(
                    page,
                    strict=self.numbers_strict,
                    locale=self.locale,
                    demos=self.demos,
                    directives=self.directives,
                )
                self._record(bare)

    def _run(self, pages: list[PageSource]) -> list[PageOutcome]:
        """The engine's outcome of each page; here, a page asking for more than this machine has
        (`execute_resources`) fails before it starts, and a cluster places it instead."""
        if isinstance(self.engine, ClusterEngine):
            return self.engine.run(pages)
        refused = {page.src: local_check(page) for page in pages}
        ran = iter(self.engine.run([page for page in pages if refused[page.src] is None]))
        return [
            PageOutcome(error=refused[page.src]) if refused[page.src] else next(ran)
            for page in pages
        ]

    def _from_cache(self, page: LoadedPage) -> RunResult | None:
        """Fill `page.result` from the cache; None (and `page.key` set) when the page must run."""
        source = page.source
        if not source.needs_execution():
            return RunResult()
        spec = self.spec
        page.key = page_key(
            source,
            seed=spec.seed,
            preamble=spec.preamble,
            env=self.engine.passed_env(source),
            show_last=spec.show_last,
            ipython=spec.ipython,
            output_limit=spec.limits.output_limit,
            threads=source.threads or spec.threads,
        )
        page.result = self.cache.load(source.src, page.key)
        if page.result is not None and not self._hashes.unchanged(page.result.used):
            page.result = None  # a file the page opened or imported has changed since
        record = page.result.record if page.result is not None else None
        if record is not None and self.distributions.changed(record.distributions):
            page.result = None  # a distribution it imported was upgraded, or removed
        if page.result is None and not self.execute:
            first = min([b.line for b in source.blocks if b.runs] + [b.line for b in source.bound])
            why = "" if self.store.enabled else " and the cache is off"
            raise AuthorError(
                source.src,
                first,
                f"execution is switched off (LLMBOOK_EXECUTE=0 or `execute: false` in mkdocs.yml)"
                f"{why}, and this page has no cached results for its current code",
                "build once with execution on to fill the cache (sharded: copy the cache "
                "folders of all the LLMBOOK_SHARD builds into this one's first), "
                "or opt the page out with `execute: false` in its front matter",
            )
        return page.result

    def _record_versions(self, result: RunResult) -> None:
        """The versions of the distributions the page's modules come from, into its record."""
        record = result.record
        if record is not None and not record.distributions:
            record.distributions = self.distributions.of_modules(record.modules)

    def _this_shards(
        self, loaded: list[LoadedPage], waiting: list[LoadedPage], *, sharded: bool
    ) -> list[LoadedPage]:
        """The pages of `waiting` this build runs: with a shard, its own; the others are left
        out (not run, and nothing made of them is stored: shard.py)."""
        self.left_out.difference_update(page.source.src for page in loaded)
        if not sharded or self.shard is None:
            return waiting
        self.shard.check_build(execute=self.execute, cache=self.store.enabled)
        mine, others = self.shard.split(waiting, lambda p: self._docs_path(p.source.src))
        self.left_out.update(page.source.src for page in others)
        return mine

    def _plan(self, page: LoadedPage, *, keep: bool = True) -> Plan:
        def make() -> Plan:
            return plan_page(
                page,
                strict=self.numbers_strict,
                locale=self.locale,
                mode=self.mode,
                demos=self.demos,
                directives=self.directives,
            )

        digest = result_digest(page.result)  # once: the stage and render caches key on it
        if not self.mode.caches_stages or not keep:
            plan = make()
        else:
            plan = self.stages.plan(page, digest, self.numbers_strict, make)
        plan.result_digest = digest
        self._record(plan)
        source = plan.page
        for pos, block in sorted(plan.result.blocks.items() if plan.result else ()):
            if block.cut:
                line = source.blocks[pos].line
                log.info(
                    f"{source.location(line)}: output cut after {len(block.output)} characters "
                    f"({block.cut} more not shown; `execute_output_limit`)"
                )
        return plan

    def _record(self, plan: Plan) -> None:
        if plan.coverage is not None:
            self.coverage[plan.page.src] = plan.coverage
        if plan.result is not None:
            self.counts[plan.page.src] = plan.count

    def _log_page(self, page: LoadedPage, plan: Plan | None) -> None:
        """The page's one line in the build log: where its results came from, its numbers."""
        source = page.source
        ran = self.companion.runs(source.src) if self.companion is not None else source.src
        if ran in self.placed:  # a translation's code ran as its source's
            how = f"ran on the cluster's worker {self.placed[ran]}"
        elif ran in self.executed:
            how = "ran in a worker process"
        elif source.src in self.left_out and self.shard is not None:
            owner = shard_number(self._docs_path(source.src), self.shard.count)
            how = f"left to shard {owner}/{self.shard.count}: not run in this build"
        elif source.needs_execution():
            how = "results from the cache"
        else:
            how = "no code to run"
        if plan is not None and plan.coverage is not None:
            how += f"; numbers: {plan.coverage.summary()}"
        log.info(f"{source.src}: {how}")

"""The executor: load → collect → (cache | engine) → validate → plan, for every page of a build.

`run_pages` is the build: every page is collected, the pages the cache cannot answer run in
parallel worker processes (`engine.py`), every number is checked, and `report` lists every failing
page and every drifted number at once. `run_page` runs one page the same way (pytest, tests and
`update_numbers`) and raises its first failure.
"""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger

from llmbook.directives import parse_structure
from llmbook.errors import AuthorError, location, register_line_map
from llmbook.execute.cache import PageCache, llmkit_hash, page_key
from llmbook.execute.collect import PageSource, collect_page, split_front_matter
from llmbook.execute.coverage import Coverage, page_coverage
from llmbook.execute.engine import Engine, Limits, default_workers
from llmbook.execute.notebook import Notebook, read_notebook
from llmbook.execute.numbers import Written, check, parse_written
from llmbook.execute.render import CheckedNumber, Plan
from llmbook.execute.run import RunResult
from llmbook.mathml import math_spans
from llmbook.preview import recover

__all__ = ["BuildFailed", "DriftError", "Executor", "decode_page"]

log = get_plugin_logger(__name__)

_FIX_DRIFT = (
    "Fix: correct the written values, or run `nox -s update_numbers` to rewrite them to the "
    "computed ones and review the diff."
)


class DriftError(PluginError):
    """Every bound number of a build that does not match its computation, one line each."""

    def __init__(self, mismatches: list[str]) -> None:
        self.mismatches = list(mismatches)
        count = len(self.mismatches)
        head = (
            f"{count} written number{'s differ' if count > 1 else ' differs'} from the computation:"
        )
        super().__init__("\n".join([head, *self.mismatches, _FIX_DRIFT]))


class BuildFailed(PluginError):
    """The whole report of a build: every failing page (its first failure) and every drifted number."""

    def __init__(self, failures: list[AuthorError], mismatches: list[str]) -> None:
        self.failures, self.mismatches = list(failures), list(mismatches)
        parts = []
        if failures:
            count = len(failures)
            parts.append(f"{count} page{'s' if count > 1 else ''} failed:")
            parts += [str(f) for f in failures]
        if mismatches:
            parts.append(str(DriftError(mismatches)))
        super().__init__("\n".join(parts))


def _off(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("0", "false", "no", "off")


def decode_page(raw: bytes | str, src: str) -> str:
    """The page's text; AuthorError naming the byte and line where UTF-8 decoding failed."""
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise AuthorError(
            src,
            line,
            f"the file is not valid UTF-8: byte {error.start} (0x{raw[error.start]:02x}) "
            f"cannot be decoded ({error.reason})",
            "save the file as UTF-8",
        ) from None


@dataclass
class _Page:
    source: PageSource
    written: list[Written]
    notebook: Notebook | None = None
    key: str | None = None
    result: RunResult | None = None


@dataclass
class Report:
    """What a build's pages gave: a plan per page that passed, the failures, the drifted numbers."""

    plans: dict[str, Plan] = field(default_factory=dict)
    notebooks: dict[str, Notebook] = field(default_factory=dict)
    failures: list[AuthorError] = field(default_factory=list)

    @property
    def mismatches(self) -> list[str]:
        return [m for plan in self.plans.values() for m in plan.mismatches]

    def raise_if_failed(self) -> None:
        if self.failures:
            raise BuildFailed(self.failures, self.mismatches)
        if self.mismatches:
            raise DriftError(self.mismatches)


class Executor:
    """Runs pages for one build (a new one per build: nothing survives to the next)."""

    def __init__(self, plugin_config: Mapping[str, Any], mkdocs_config: Any = None) -> None:
        config_file = getattr(mkdocs_config, "config_file_path", None) if mkdocs_config else None
        self.root = os.path.dirname(os.path.abspath(config_file)) if config_file else os.getcwd()
        self.execute = bool(plugin_config["execute"]) and not _off("LLMBOOK_EXECUTE")
        self.seed = int(plugin_config["execute_seed"])
        self.timeout = float(plugin_config["execute_timeout"])
        limits = Limits(
            block_timeout=self.timeout,
            page_timeout=float(plugin_config["execute_page_timeout"]),
            output_limit=int(plugin_config["execute_output_limit"]),
            memory_mb=int(plugin_config["execute_memory_mb"]),
        )
        workers = int(plugin_config["execute_workers"]) or default_workers()
        self.engine = Engine(workers=workers, limits=limits, seed=self.seed, cwd=self.root)
        cache_dir = os.environ.get("LLMBOOK_CACHE_DIR") or plugin_config["cache_dir"]
        use_cache = bool(plugin_config["cache"]) and not _off("LLMBOOK_CACHE")
        self.cache = PageCache(os.path.join(self.root, cache_dir)) if use_cache else None
        self.numbers_strict = bool(plugin_config["numbers_strict"])
        self.coverage: dict[str, Coverage] = {}
        self.counts: dict[str, int] = {}
        self.executed: list[str] = []  # pages actually run (not from the cache), in page order
        self._mismatches: list[str] = []
        self._llmkit: str | None = None
        # The live preview: a page whose code failed still gets a plan (its numbers unchecked), so
        # it can be rendered with its errors shown on it.
        self.forgiving = False
        self.seconds = 0.0  # time spent executing this build (the bench reads it from the log)

    # -- the build ---------------------------------------------------------------------------

    def run_pages(self, pages: Sequence[tuple[str, bytes | str]]) -> Report:
        """Every page (src, file content), failures collected instead of raised."""
        start = time.perf_counter()
        report = Report()
        loaded: list[_Page] = []
        for src, raw in pages:
            try:
                page = self._load(src, raw)
            except AuthorError as error:
                report.failures.append(error)
                continue
            if page.notebook is not None:
                report.notebooks[src] = page.notebook
            loaded.append(page)
        waiting: list[_Page] = []
        for page in list(loaded):
            try:
                if self._from_cache(page) is None:
                    waiting.append(page)
            except AuthorError as error:  # execution off and the page not cached
                report.failures.append(error)
                loaded.remove(page)
        outcomes = self.engine.run([p.source for p in waiting])
        for page, outcome in zip(waiting, outcomes, strict=True):
            self.executed.append(page.source.src)
            if outcome.error is not None:
                page.result = None
                report.failures.append(outcome.error)
            else:
                page.result = outcome.result
                if self.cache is not None:
                    self.cache.store(page.source.src, page.key, page.result)
        for page in loaded:
            if page.result is None and page.source.needs_execution() and not self.forgiving:
                continue  # failed: reported above
            try:
                plan = report.plans[page.source.src] = self._plan(page)
            except AuthorError as error:
                report.failures.append(error)
                if self.forgiving:  # the page is still shown, its numbers unchecked
                    report.plans[page.source.src] = self._bare_plan(page)
            else:
                report.failures.extend(plan.unaccounted)
            self._log_page(page, report.plans.get(page.source.src))
        report.failures.sort(key=lambda e: (e.src, e.line))
        self.seconds += time.perf_counter() - start
        return report

    def finish(self) -> None:
        """Log the build's total; raise DriftError with every mismatch `run_page` met."""
        total = sum(self.counts.values())
        log.info(
            f"checked {total} numbers on {len(self.counts)} executed pages "
            f"({len(self.executed)} pages run)"
        )
        log.debug(f"executor {self.seconds:.2f} s")
        if self.coverage:
            site = Coverage()
            for page in self.coverage.values():
                site.checked += page.checked
                site.cited += page.cited
                site.illustrative += page.illustrative
                site.structural += page.structural
                site.unaccounted += page.unaccounted
            log.info(f"numbers on {len(self.coverage)} pages: {site.summary()}")
        mismatches, self._mismatches = self._mismatches, []
        if mismatches:
            raise DriftError(mismatches)

    # -- one page ----------------------------------------------------------------------------

    def run_page(self, markdown: bytes | str, *, src: str) -> Plan:
        """One whole file, run as the build runs its pages; its first failure raised (pytest, tests,
        `update_numbers`). Drifted numbers are kept for `finish`."""
        report = self.run_pages([(src, markdown)])
        plan = report.plans.get(src)
        if plan is not None and plan.unaccounted:
            raise BuildFailed(plan.unaccounted, plan.mismatches)
        if report.failures:
            raise report.failures[0]
        assert plan is not None
        self._mismatches.extend(plan.mismatches)
        return plan

    # -- stages ------------------------------------------------------------------------------

    def _load(self, src: str, raw: bytes | str) -> _Page:
        text = decode_page(raw, src)
        notebook = None
        if src.endswith(".ipynb"):
            notebook = read_notebook(text, src=src)
            register_line_map(src, notebook.where)
            meta = notebook.data.get("metadata", {}).get("llmbook", {})
            markdown, offset = notebook.markdown, 0
        else:
            meta, markdown, offset = split_front_matter(text)
        source = collect_page(markdown, src=src, meta=meta, offset=offset)
        source.cells = notebook.cells if notebook is not None else None
        if not source.execute and source.bound:
            b = source.bound[0]
            raise AuthorError(
                src,
                b.line,
                f"[[{b.body}]] cannot be checked: the page has `execute: false`",
                "write the plain number, cite it as [[value @ source]], or let the page run",
            )
        return _Page(source, [self._parse(src, b) for b in source.bound], notebook)

    def _from_cache(self, page: _Page) -> RunResult | None:
        """Fill `page.result` from the cache; None (and `page.key` set) when the page must run."""
        source = page.source
        if not source.needs_execution():
            return RunResult()
        if self._llmkit is None:
            self._llmkit = llmkit_hash()
        page.key = page_key(source, seed=self.seed, llmkit=self._llmkit)
        page.result = self.cache.load(source.src, page.key) if self.cache else None
        if page.result is None and not self.execute:
            first = min([b.line for b in source.blocks if b.runs] + [b.line for b in source.bound])
            why = "" if self.cache else " and the cache is off"
            raise AuthorError(
                source.src,
                first,
                f"execution is switched off (LLMBOOK_EXECUTE=0 or `execute: false` in mkdocs.yml)"
                f"{why}, and this page has no cached results for its current code",
                "build once with execution on to fill the cache, "
                "or opt the page out with `execute: false` in its front matter",
            )
        return page.result

    def _plan(self, page: _Page) -> Plan:
        source = page.source
        plan = Plan(source)
        self._cover(plan)
        if not source.needs_execution() or page.result is None:
            return plan  # nothing to run, or (forgiving) its code failed: numbers stay unchecked
        plan.result = page.result
        self._check_outputs(source, plan.result)
        for binding, want, value in zip(
            source.bound, page.written, plan.result.values, strict=True
        ):
            problem = check(want, value)
            mismatch = f"{location(source.src, binding.line)}: {problem}" if problem else None
            plan.numbers.append(CheckedNumber(binding, value, mismatch))
        self.counts[source.src] = plan.count
        for pos, block in sorted(plan.result.blocks.items()):
            if block.cut:
                line = source.blocks[pos].line
                log.info(
                    f"{location(source.src, line)}: output cut after {len(block.output)} characters "
                    f"({block.cut} more not shown; `execute_output_limit`)"
                )
        return plan

    def _log_page(self, page: _Page, plan: Plan | None) -> None:
        """The page's one line in the build log: where its results came from, its numbers."""
        source = page.source
        if source.src in self.executed:
            how = "ran in a worker process"
        elif source.needs_execution():
            how = "results from the cache"
        else:
            how = "no code to run"
        if plan is not None and plan.coverage is not None:
            how += f"; numbers: {plan.coverage.summary()}"
        log.info(f"{source.src}: {how}")

    def _bare_plan(self, page: _Page) -> Plan:
        """The live preview's plan of a page whose checks failed: nothing checked, and no
        coverage when its directives or formulas cannot be read (the renderer shows why)."""
        page.result = None
        try:
            return self._plan(page)
        except AuthorError:
            return Plan(page.source)

    def _cover(self, plan: Plan) -> None:
        """Sort the page's numbers; on a strict page an unaccounted one is an author error."""
        source = plan.page
        text = "\n".join(source.lines)
        doc = None
        if self.forgiving:  # the preview: lines that do not parse are read as text
            where = {"src": source.src, "offset": source.offset, "count": len(source.lines)}
            doc, _, _ = recover(
                lambda plain, _: parse_structure(
                    text, src=source.src, line_offset=source.offset, plain=plain
                ),
                **where,
            )
            math, _, _ = recover(
                lambda plain, _: math_spans(
                    text, src=source.src, line_offset=source.offset, plain=plain
                ),
                **where,
            )
            plan.math = math or {}
        else:
            plan.math = math_spans(text, src=source.src, line_offset=source.offset)
        plan.coverage = coverage = page_coverage(source, plan.math, doc)
        self.coverage[source.src] = coverage
        if source.strict if source.strict is not None else self.numbers_strict:
            plan.unaccounted = [
                AuthorError(
                    source.src,
                    u.line,
                    f"the number {u.text} is neither checked, cited nor marked.",
                    f"bind it to its computation [[expr = {u.text}]], cite it [[{u.text} @ paper, "
                    f"table]], or mark it illustrative [[~{u.text}]]",
                )
                for u in coverage.unaccounted
            ]

    @staticmethod
    def _parse(src: str, binding: Any) -> Written:
        try:
            return parse_written(binding.written)
        except ValueError:
            raise AuthorError(
                src,
                binding.line,
                f"[[{binding.body}]]: the written value {binding.written!r} is not a number",
                "write a number such as 2.1, -1.34, 75%, 2.3e-10, 2,147,483,648 "
                "or a vector [0.365, 0.730]",
            ) from None

    @staticmethod
    def _check_outputs(source: PageSource, result: RunResult) -> None:
        """A python block followed by an expected-output block must print exactly that."""
        for pos, block in enumerate(source.blocks):
            if block.expects is None or pos not in result.blocks:
                continue
            expected_block = source.blocks[block.expects]
            got = _normal(result.blocks[pos].output)
            want = _normal(expected_block.code)
            if got != want:
                diff = "\n".join(
                    difflib.unified_diff(want, got, "expected", "printed", lineterm="", n=1)
                )
                raise AuthorError(
                    source.src,
                    expected_block.line,
                    f"the python block at line {block.line} printed something else than its "
                    f"expected output:\n{diff}\n",
                    "update the expected output, or the code",
                )


def _normal(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines

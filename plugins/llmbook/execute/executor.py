"""The executor: collect → (cache | run) → validate → plan, one page at a time, one per build."""

from __future__ import annotations

import difflib
import os
import time
from collections.abc import Mapping
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import get_plugin_logger

from llmbook.errors import AuthorError
from llmbook.execute.cache import PageCache, llmkit_hash, page_key
from llmbook.execute.collect import PageSource, collect_page, split_front_matter
from llmbook.execute.numbers import Written, check, parse_written
from llmbook.execute.render import CheckedNumber, Plan
from llmbook.execute.run import RunResult, run_page

__all__ = ["DriftError", "Executor"]

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


def _off(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("0", "false", "no", "off")


class Executor:
    """Runs pages for one build (a new one per build: nothing survives to the next)."""

    def __init__(self, plugin_config: Mapping[str, Any], mkdocs_config: Any = None) -> None:
        config_file = getattr(mkdocs_config, "config_file_path", None) if mkdocs_config else None
        self.root = os.path.dirname(os.path.abspath(config_file)) if config_file else os.getcwd()
        self.execute = bool(plugin_config["execute"]) and not _off("LLMBOOK_EXECUTE")
        self.seed = int(plugin_config["execute_seed"])
        self.timeout = float(plugin_config["execute_timeout"])
        cache_dir = os.environ.get("LLMBOOK_CACHE_DIR") or plugin_config["cache_dir"]
        use_cache = bool(plugin_config["cache"]) and not _off("LLMBOOK_CACHE")
        self.cache = PageCache(os.path.join(self.root, cache_dir)) if use_cache else None
        self.counts: dict[str, int] = {}
        self.executed: list[str] = []  # pages actually run (not from the cache), in build order
        self._mismatches: list[str] = []
        self._llmkit: str | None = None
        self.seconds = 0.0  # time spent in run_page this build (the bench reads it from the log)

    def run_page(self, markdown: str, *, src: str, page: Any = None) -> Plan:
        """Run (or fetch from the cache) one page and check its numbers; AuthorError on failure.

        With `page` (a MkDocs page), `markdown` is what MkDocs hands over, front matter removed;
        without, `markdown` is the whole file and its front matter is read here.
        """
        start = time.perf_counter()
        try:
            return self._run_page(markdown, src=src, page=page)
        finally:
            self.seconds += time.perf_counter() - start

    def _run_page(self, markdown: str, *, src: str, page: Any) -> Plan:
        if page is not None:
            meta, offset = dict(page.meta or {}), self._front_matter_lines(page)
        else:
            meta, markdown, offset = split_front_matter(markdown)
        source = collect_page(markdown, src=src, meta=meta, offset=offset)
        plan = Plan(source)
        if not source.execute:
            if source.bound:
                b = source.bound[0]
                raise AuthorError(
                    src,
                    b.line,
                    f"[[{b.body}]] cannot be checked: the page has `execute: false`",
                    "write the plain number, cite it as [[value @ source]], or let the page run",
                )
            return plan
        written = [self._parse(src, b) for b in source.bound]
        if not source.needs_execution():
            return plan
        plan.result = self._results(source)
        self._check_outputs(source, plan.result)
        for binding, want, value in zip(source.bound, written, plan.result.values, strict=True):
            problem = check(want, value)
            mismatch = f"{src}:{binding.line}: {problem}" if problem else None
            plan.numbers.append(CheckedNumber(binding, value, mismatch))
        self._mismatches.extend(plan.mismatches)
        self.counts[src] = plan.count
        if plan.count:
            log.info(f"{src}: {plan.count} numbers checked")
        for mismatch in plan.mismatches:
            log.error(mismatch)
        return plan

    def finish(self) -> None:
        """Report the build's total; raise DriftError with every mismatch of the build."""
        total = sum(self.counts.values())
        log.info(
            f"checked {total} numbers on {len(self.counts)} executed pages "
            f"(executor {self.seconds:.2f} s, {len(self.executed)} pages run)"
        )
        mismatches, self._mismatches = self._mismatches, []
        if mismatches:
            raise DriftError(mismatches)

    @staticmethod
    def _front_matter_lines(page: Any) -> int:
        path = getattr(page.file, "abs_src_path", None)
        if not path or not os.path.exists(path):
            return 0
        with open(path, encoding="utf-8-sig") as handle:
            return split_front_matter(handle.read())[2]

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

    def _results(self, source: PageSource) -> RunResult:
        if self._llmkit is None:
            self._llmkit = llmkit_hash()
        key = page_key(source, seed=self.seed, llmkit=self._llmkit)
        cached = self.cache.load(source.src, key) if self.cache else None
        if cached is not None:
            return cached
        if not self.execute:
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
        start = time.perf_counter()
        result = run_page(source, seed=self.seed, timeout=self.timeout)
        log.info(f"{source.src}: executed in {time.perf_counter() - start:.1f} s")
        self.executed.append(source.src)
        if self.cache is not None:
            self.cache.store(source.src, key, result)
        return result

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

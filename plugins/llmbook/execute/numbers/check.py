"""Validate stage: a page's plan from its source and results: its numbers sorted (coverage), each
bound number checked against its computation, expected outputs compared."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

from llmbook.core.errors import AuthorError, quoted, quoted_lines
from llmbook.core.formulas import math_spans
from llmbook.core.i18n import Locale
from llmbook.core.lexer import Lexed
from llmbook.directives.base import Context
from llmbook.directives.nodes import Document
from llmbook.directives.registry import Registry
from llmbook.directives.tree import check_tree, parse_structure
from llmbook.execute.numbers.coverage import Unaccounted, page_coverage
from llmbook.execute.numbers.precision import check
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.load import LoadedPage
from llmbook.execute.stages.mode import Forgiving, Strict
from llmbook.execute.stages.plan import CheckedNumber, Plan
from llmbook.execute.stages.run import RunResult

if TYPE_CHECKING:
    from llmbook.demos import DemoFrames

__all__ = ["bare_plan", "plan_page", "unaccounted_error"]

STRICT = Strict()


def plan_page(
    page: LoadedPage,
    *,
    strict: bool,
    locale: Locale,
    mode: Strict = STRICT,
    demos: DemoFrames | None = None,
    directives: Registry,
) -> Plan:
    """The page's plan; AuthorError when an expected output differs. `strict`: the site's
    `numbers_strict` (the page's front matter decides first); `mode`: the build's or the live
    preview's way with lines a stage cannot read; `locale`: the words the page's directives and
    numbers are read in; `demos`: the book's (`:::demo` IDs); `directives`: the build's."""
    source = page.source
    plan = Plan(source)
    _cover(plan, strict=strict, mode=mode, locale=locale, demos=demos, directives=directives)
    if not source.needs_execution() or page.result is None:
        return plan  # nothing to run, or (preview) its code failed: numbers stay unchecked
    plan.result = page.result
    _check_outputs(source, plan.result)
    for binding, want, value in zip(source.bound, page.written, plan.result.values, strict=True):
        problem = check(want, value)
        mismatch = f"{source.location(binding.line)}: {problem}" if problem else None
        plan.numbers.append(CheckedNumber(binding, value, mismatch))
    return plan


def bare_plan(
    page: LoadedPage,
    *,
    strict: bool,
    locale: Locale,
    demos: DemoFrames | None = None,
    directives: Registry,
) -> Plan:
    """The plan of a page whose code or checks failed: its model for the rest of the book (and
    what the live preview shows), nothing checked, no errors of its own (the failure that made it
    is reported), and no coverage when its directives or formulas cannot be read."""
    page.result = None
    try:
        plan = plan_page(
            page,
            strict=strict,
            locale=locale,
            mode=Forgiving(),
            demos=demos,
            directives=directives,
        )
    except AuthorError:
        return Plan(page.source)
    plan.unaccounted = []
    return plan


def _cover(
    plan: Plan,
    *,
    strict: bool,
    mode: Strict,
    locale: Locale,
    demos: DemoFrames | None,
    directives: Registry,
) -> None:
    """Sort the page's numbers; on a strict page an unaccounted one is an author error."""
    source = plan.page
    parse = functools.partial(parse_structure, directives=directives)
    doc, whole = mode.read(parse, source.lexed, source.src)
    if whole:  # the renderer walks this tree (the preview parses its own, with its boxes)
        plan.doc = doc  # also the page's model for the book, even where a directive is wrong
        # every directive validated here, before any page renders: its errors join the report
        mode.read(_validation(doc, locale, demos, directives), source.lexed, source.src)
    plan.math = mode.read(math_spans, source.lexed, source.src)[0] or {}
    plan.coverage = coverage = page_coverage(source, plan.math, doc, locale)
    if source.strict if source.strict is not None else strict:
        plan.unaccounted = [unaccounted_error(source, u) for u in coverage.unaccounted]


def unaccounted_error(source: PageSource, number: Unaccounted) -> AuthorError:
    """A number of the prose that nothing accounts for: an error on a strict page, a warning
    (annotations.py) on a page whose numbers are only reported."""
    text = quoted(number.text)
    return source.error(
        number.line,
        f"the number {text} is neither checked, cited nor marked.",
        f"bind it to its computation [[expr = {text}]], cite it [[{text} @ paper, "
        f"table]], or mark it illustrative [[~{text}]]",
    )


def _validation(
    doc: Document, locale: Locale, demos: DemoFrames | None, directives: Registry
) -> Callable[..., None]:
    """The validate stage of a parsed page: its tree's directives checked (the live preview's
    retries, with lines taken as text, parse the page again)."""

    def validate(lexed: Lexed, *, src: str, plain: frozenset[int] = frozenset()) -> None:
        tree = (
            doc
            if not plain
            else parse_structure(lexed, src=src, plain=plain, directives=directives)
        )
        check_tree(Context(src=src, doc=tree, locale=locale, directives=directives, demos=demos))

    return validate


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
            raise source.error(
                expected_block.line,
                f"the python block at line {block.line} printed something else than its "
                f"expected output:\n{quoted_lines(diff)}\n",
                "update the expected output, or the code",
            )


def _normal(text: str) -> list[str]:
    lines = [line.rstrip() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines

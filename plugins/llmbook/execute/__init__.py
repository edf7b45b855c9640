"""Executable chapters: run a page's code at build time and check the numbers its prose states.

Stages, each a small module with plain data between them:
    load     (a file decoded, its front matter split, collected; `executor` runs the stages)
    collect  (fences, markers, `[[…]]` bindings with their exact lines, front matter)
    notebook (a `.ipynb` laid out as Markdown, errors mapped back to its cells)
    engine   (each page in its own worker process, in parallel, killed past its limits)
    sandbox  (what a page's process may write, and the end of every process it started)
    run      (inside the worker: one namespace per page, tracebacks at Markdown lines, SVG figures)
    cache    (results on disk, keyed by the page's code, preamble and versions; stale when a file
              the page used changed)
    deps     (inside the worker: the project's files a page opened or imported)
    numbers  (a computed value against the written precision)
    check    (the validate stage: coverage, every bound number, expected outputs → the plan)
    plan     (the check stage's output: outputs, figures and checked numbers for the page)
    report   (every failing page and drifted number of a build, in one report)
    shard    (CI sharding: which pages a build with LLMBOOK_SHARD=i/N runs)
"""

from llmbook.execute.stages.executor import Executor
from llmbook.execute.stages.plan import Plan
from llmbook.execute.stages.report import BuildFailed, DriftError, Report

__all__ = ["BuildFailed", "DriftError", "Executor", "Plan", "Report"]

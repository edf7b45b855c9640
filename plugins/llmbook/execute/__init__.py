"""Executable chapters: run a page's code at build time and check the numbers its prose states.

Stages, each a small module with plain data between them:
    collect  (fences, markers, `[[…]]` bindings with their exact lines, front matter)
    notebook (a `.ipynb` laid out as Markdown, errors mapped back to its cells)
    engine   (each page in its own worker process, in parallel, killed past its limits)
    run      (inside the worker: one namespace per page, tracebacks at Markdown lines, SVG figures)
    cache    (results on disk, keyed by the page's code, llmkit's source and the versions)
    numbers  (the validate stage: a computed value against the written precision)
    render   (the plan: outputs, figures and checked numbers written into the page)
"""

from llmbook.execute.executor import BuildFailed, DriftError, Executor, Report
from llmbook.execute.render import Plan

__all__ = ["BuildFailed", "DriftError", "Executor", "Plan", "Report"]

"""Executable chapters: run a page's code at build time and check the numbers its prose states.

Stages, each a small module with plain data between them:
    collect  (fences, markers, `[[…]]` bindings with their exact lines, front matter)
    run      (one namespace per page, tracebacks at Markdown lines, figures as SVG)
    cache    (results on disk, keyed by the page's code, llmkit's source and the versions)
    numbers  (the validate stage: a computed value against the written precision)
    render   (the plan: outputs, figures and checked numbers written into the page)
"""

from llmbook.execute.executor import DriftError, Executor
from llmbook.execute.render import Plan

__all__ = ["DriftError", "Executor", "Plan"]

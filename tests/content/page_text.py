"""A chapter's text as the content tests read it: lines outside fences, its bindings, written values.

Deliberately simpler than the executor's collector, so the tests do not share its mistakes.
"""

from __future__ import annotations

from llmbook.core.bindings import RawBinding, find_bindings


class PageText:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")

    def outside_fences(self) -> list[tuple[int, str]]:
        out, fenced = [], False
        for no, line in enumerate(self.lines, 1):
            if line.startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                out.append((no, line))
        return out

    def bindings(self) -> list[RawBinding]:
        return [b for no, line in self.outside_fences() for b in find_bindings(line, no)]

    def written(self, expr: str) -> str:
        """The written value of the first binding of `expr` on the page."""
        for b in self.bindings():
            if b.expr is not None and b.expr.replace(" ", "") == expr.replace(" ", ""):
                return b.written
        raise AssertionError(f"no binding of {expr!r} on the page")

"""What the render stages make of a page's lines, named by file line and applied once.

Each stage (checked numbers, formulas, outputs and figures, the live preview's error boxes) says
what it replaces in the page as written: a span of a line, a whole line, or what follows a line.
No stage rewrites the text another stage reads, so none depends on the others keeping the line
count; `lines()` applies everything at the end, in one pass.
"""

from __future__ import annotations

from llmbook.core.lexer import Lexed

__all__ = ["LineEdits"]


class LineEdits:
    """Edits of a page's text (`lexed`), keyed by the file line they concern."""

    def __init__(self, lexed: Lexed) -> None:
        self.lexed = lexed
        self._spans: dict[int, list[tuple[int, int, str]]] = {}
        self._whole: dict[int, str] = {}
        self._before: dict[int, list[str]] = {}
        self._after: dict[int, list[str]] = {}
        self.tail: list[str] = []  # lines after the page

    def text(self, line: int) -> str:
        """File line `line` as written."""
        return self.lexed.line(line)

    def replace(self, line: int, start: int, end: int, text: str) -> None:
        """Characters `start:end` of the line (as written) become `text`."""
        spans = self._spans.setdefault(line, [])
        if line in self._whole or any(a < end and start < b for a, b, _ in spans):
            raise RuntimeError(f"line {line}: two stages edit the same text")
        spans.append((start, end, text))

    def taken(self, line: int, start: int, end: int) -> bool:
        """Whether a stage already replaces part of `start:end` of the line."""
        return any(a < end and start < b for a, b, _ in self._spans.get(line, ()))

    def replace_line(self, line: int, text: str) -> None:
        if self._spans.get(line) or line in self._whole:
            raise RuntimeError(f"line {line}: two stages edit the same text")
        self._whole[line] = text

    def before(self, line: int, token: str) -> None:
        """`token` stands before the line, a paragraph of its own at the line's indentation."""
        self._before.setdefault(line, []).append(token)

    def after(self, line: int, token: str) -> None:
        """`token` stands after the line, a paragraph of its own at the line's indentation."""
        self._after.setdefault(line, []).append(token)

    def edited(self, line: int) -> str:
        """The line with its replacements."""
        if line in self._whole:
            return self._whole[line]
        text = self.lexed.line(line)
        for start, end, new in sorted(self._spans.get(line, ()), reverse=True):
            text = text[:start] + new + text[end:]
        return text

    def lines(self) -> dict[int, list[str]]:
        """What each file line of the page becomes: itself edited, then what follows it."""
        out: dict[int, list[str]] = {}
        for line in self.lexed.numbers:
            text = self.edited(line)
            indent = text[: len(text) - len(text.lstrip())]
            rows = [row for token in self._before.get(line, ()) for row in ("", indent + token, "")]
            rows.append(text)
            for token in self._after.get(line, ()):
                rows.extend(["", indent + token, ""])
            out[line] = rows
        return out

    def markdown(self) -> str:
        """The edited page as one text (pages without directives, nested examples)."""
        rows = [row for group in self.lines().values() for row in group]
        return "\n".join(rows + self.tail)

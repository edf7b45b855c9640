"""Plain data between the `:::` parser and the directives: text runs and blocks, each located by
its line in the author's file."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Block", "Document", "Text"]


@dataclass
class Text:
    """Consecutive source lines that are not directive syntax (fenced code included, as is)."""

    lines: list[str]
    line: int  # file line of the first line
    # Each line's file line, once later stages inserted lines (outputs after a fence); None:
    # consecutive from `line`.
    numbers: list[int] | None = None


@dataclass
class Block:
    """One `:::name arg` … `:::` block."""

    name: str
    arg: str
    line: int  # file line of the opener
    indent: str  # whitespace before the opener's `:::`
    opener: str  # the opener line as written
    children: list[Text | Block] = field(default_factory=list)
    end_line: int = 0  # file line of the closing `:::`
    data: object = None  # what the directive parsed from its body when it was validated
    options: dict[str, object] = field(default_factory=dict)  # its typed options, once checked

    def blocks(self, name: str | None = None) -> list[Block]:
        """Direct child blocks (only those called `name`, when given)."""
        return [
            c for c in self.children if isinstance(c, Block) and (name is None or c.name == name)
        ]

    def text_lines(self) -> list[tuple[int, str]]:
        """(line number, text) of every direct text line of the body."""
        return [
            (t.numbers[i] if t.numbers is not None else t.line + i, s)
            for t in self.children
            if isinstance(t, Text)
            for i, s in enumerate(t.lines)
        ]

    def walk(self) -> list[Block]:
        """This block's descendants, depth first, in source order."""
        found = []
        for child in self.blocks():
            found.append(child)
            found.extend(child.walk())
        return found


@dataclass
class Document(Block):
    """The page: a root block without syntax of its own."""

    name: str = ""
    arg: str = ""
    line: int = 0
    indent: str = ""
    opener: str = ""

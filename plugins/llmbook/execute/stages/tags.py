"""Cell tags: what a code block shows and whether it runs, in Jupyter Book's (MyST-NB's) words.

The same names work as a notebook cell's tags and as words after a fence's language
(```` ```python remove-output ````). Our older `hidden` and `norun` are other names for
`remove-input` and `skip-execution`. A word we do not know is ignored, as Jupyter Book does; two
tags that ask different things of the same part (the code removed and collapsed) are an error.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TAGS", "Display", "read_tags"]

# What each tag sets: "code" and "output" (removed or collapsed), "cell" (code and output in one
# collapsed block), "run" (skipped, or expected to raise).
_EFFECTS: dict[str, dict[str, str]] = {
    "remove-input": {"code": "remove"},
    "hidden": {"code": "remove"},
    "remove-output": {"output": "remove"},
    "remove-cell": {"code": "remove", "output": "remove"},
    "hide-input": {"code": "hide"},
    "hide-output": {"output": "hide"},
    "hide-cell": {"code": "hide", "output": "hide", "cell": "hide"},
    "skip-execution": {"run": "skip"},
    "norun": {"run": "skip"},
    "raises-exception": {"run": "raises"},
}
TAGS = frozenset(_EFFECTS)

_PART = {"code": "the code", "output": "the output", "run": "the cell"}
_WORD = {"remove": "removed", "hide": "collapsed", "skip": "skipped", "raises": "expected to raise"}


@dataclass(frozen=True)
class Display:
    """A block's tags, read: each part "show", "remove" or "hide"; `run` "run", "skip" or
    "raises"; `cell`: code and output collapsed together (hide-cell)."""

    code: str = "show"
    output: str = "show"
    run: str = "run"
    cell: bool = False


def read_tags(words: list[str]) -> tuple[Display, list[str]]:
    """The display the known words ask for, and those words (in order, once each); ValueError
    with the author's message when two of them contradict each other."""
    known = [w for w in dict.fromkeys(words) if w in _EFFECTS]
    chosen: dict[str, tuple[str, str]] = {}  # part → (value, the tag that set it)
    for tag in known:
        for part, value in _EFFECTS[tag].items():
            before = chosen.setdefault(part, (value, tag))
            if before[0] != value:
                raise ValueError(
                    f"the tags `{before[1]}` and `{tag}` contradict each other: "
                    f"{_PART[part]} cannot be both {_WORD[before[0]]} and {_WORD[value]}"
                )
    values = {part: value for part, (value, _) in chosen.items()}
    cell = values.pop("cell", None) == "hide"
    return Display(**values, cell=cell), known

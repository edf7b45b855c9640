"""How a glossary term is written in a page: MyST's (and Jupyter Book's) `term` role.

    {term}`GQA`                 the term as its entry names it (or one of its aliases)
    {term}`分组查询 <GQA>`       other text shown, linked to the entry GQA

The role's body is a code span, so nothing else on the page (numbers, formulas, references) reads
inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from llmbook.core.lexer import code_spans

__all__ = ["TERM_ROLE", "TermUse", "find_terms"]

TERM_ROLE = re.compile(r"\{term\}(?P<ticks>`+)(?P<body>.+?)(?P=ticks)(?!`)")
_SHOWN_AND_NAME = re.compile(r"^(?P<shown>.*?)\s*<(?P<name>[^<>]+)>$")


@dataclass(frozen=True)
class TermUse:
    """One term written on a page: `name` is looked up in the glossary, `shown` is the text."""

    name: str
    shown: str
    line: int  # file line
    start: int  # offsets of the whole role in the line
    end: int


def find_terms(text: str, line: int, hidden: list[tuple[int, int]] = ()) -> list[TermUse]:
    """The term roles of one line (not those inside `hidden` spans, formulas, or code spans:
    ``` `` {term}`GQA` `` ``` shows the markup)."""
    if "{term}" not in text:  # every role starts so: most lines are read no further
        return []
    hidden = [*hidden, *code_spans(text)]
    found = []
    for match in TERM_ROLE.finditer(text):
        if any(a <= match.start() < b for a, b in hidden):
            continue
        body = match.group("body").strip()
        named = _SHOWN_AND_NAME.match(body)
        name, shown = (named.group("name").strip(), named.group("shown")) if named else (body, body)
        found.append(TermUse(name, shown or name, line, match.start(), match.end()))
    return found

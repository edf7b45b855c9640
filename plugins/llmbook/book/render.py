"""What a page's render makes of the book's parts: each labelled caption starts with its number
(`图 10-3`), as does a numbered directive's title (`练习 10-1`), each labelled equation shows its number (given to the math stage), each checked
reference's link gets its target's title (shown on hover), and what the render read of other
pages is recorded, so the page renders again when a target's number or title changes."""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

from llmbook.book.index import BookIndex
from llmbook.book.parts import NUMBERED, PageParts, Part, page_parts
from llmbook.core.edits import LineEdits
from llmbook.core.formulas import math_spans
from llmbook.core.i18n import Locale
from llmbook.core.lexer import lex
from llmbook.core.stash import Stash
from llmbook.directives.parser import OPENER

__all__ = ["equation_numbers", "put_parts", "render_example", "still_true"]


def equation_numbers(parts: PageParts | None) -> dict[str, str]:
    """label → number of the page's labelled equations (what the math stage shows)."""
    return {p.id: p.number for p in parts.numbered("equation")} if parts is not None else {}


def put_parts(
    edits: LineEdits,
    parts: PageParts,
    book: BookIndex,
    stash: Stash,
    read: list[list[str]] | None = None,
    plain: frozenset[int] = frozenset(),
    *,
    locale: Locale,
) -> None:
    """Numbers into the page's captions (`图 10-3`; `Figure 10-3` in English), titles onto its
    checked references' links; `read`, when given, gets [target, number, title] of each target
    the page's render read. Lines in `plain` (the live preview's) stay as written."""
    for part in parts.parts.values():
        if part.kind in ("figure", "table") and part.text_line not in plain:
            text = edits.text(part.text_line)
            at = len(text) - len(text.lstrip())
            number = (
                f'<span class="caption-prefix">{locale.part_text(part.kind, part.number)}</span>'
            )
            edits.replace(part.text_line, at, at, stash.put(number) + " ")
        elif part.kind in NUMBERED.values() and part.line not in plain:
            _number_title(edits, part, stash, locale)
    titled: set[tuple[int, int]] = set()
    for reference in parts.references:
        if reference.href is None or reference.line in plain:
            continue
        target = book.resolve(parts, reference.href)
        if target is None:
            continue
        if read is not None:
            read.append(target.key())
        where = (reference.line, reference.link_end)
        text = edits.text(reference.line)
        if target.title and where not in titled and text[reference.link_end - 1] != '"':
            titled.add(where)
            title = escape(target.title.replace("\\", ""), quote=True)
            edits.replace(reference.line, reference.link_end, reference.link_end, f' "{title}"')


def _number_title(edits: LineEdits, part: Part, stash: Stash, locale: Locale) -> None:
    """The part's number at the start of its directive's title (`:::exercise 练习 10-1 …`)."""
    opener = OPENER.match(edits.text(part.line))
    if opener is None or opener.start("arg") < 0:
        return
    label = escape(locale.part_text(part.kind, part.number))
    number = f'<span class="llmbook-{part.kind}__number">{label}</span>'
    at = opener.start("arg")
    edits.replace(part.line, at, at, stash.put(number) + " ")


def still_true(book: BookIndex, page: PageParts | None, read: list[list[str]]) -> bool:
    """Whether every target a kept render read is still the same (number and title)."""
    if page is None:
        return not read
    for target, number, title in read:
        found = book.at(target)
        if found is None or found.key() != [target, number, title]:
            return False
    return True


def render_example(
    markdown: str,
    first: int,
    *,
    page: PageParts,
    book: BookIndex,
    stash: Stash,
    headings: Callable[[str], list[dict[str, Any]]],
    locale: Locale,
) -> tuple[str, dict[str, str]]:
    """A guide's example (a `:::showcase` fence's text, from file line `first` of `page`) as a
    page of its own: its parts numbered, its references checked (the first false one raised)
    against the book with the example in its page's place. (Markdown, equation numbers.)"""
    lexed = lex(markdown, first)
    math = math_spans(lexed, src=page.src)
    example = page_parts(
        lexed,
        src=page.src,
        uri=page.uri,
        chapter=None,
        math=math,
        headings=headings,
        locale=locale,
    )
    view = BookIndex({**book.pages, page.uri: example}, locale=locale)
    errors = view.check_page(example, strict=False)
    if errors:
        raise errors[0]
    edits = LineEdits(lexed)
    put_parts(edits, example, view, stash, locale=locale)
    return edits.markdown(), equation_numbers(example)

"""Finished HTML goes into the engine's own stash, Python-Markdown's `htmlStash`: a stage writes the
placeholder it gets back, and Python-Markdown puts the HTML in after conversion (in headings and
the table of contents too). `Stash` is the stages' view of it.
"""

from __future__ import annotations

from collections.abc import Callable

import markdown

__all__ = ["Stash", "engine_stash"]


class Stash:
    """`put(html)` stores finished HTML and returns its placeholder; `len()` how many are stored."""

    def __init__(self, put: Callable[[str], str], count: Callable[[], int]) -> None:
        self.put, self.count = put, count

    @classmethod
    def of(cls, md: markdown.Markdown) -> Stash:
        return cls(md.htmlStash.store, lambda: md.htmlStash.html_counter)

    def __len__(self) -> int:
        return self.count()


def engine_stash() -> tuple[Stash, Callable[[str], str]]:
    """A stash of its own Python-Markdown instance, and the function that puts its HTML back into
    a text (what conversion does at its end): for tools and tests that run one stage."""
    md = markdown.Markdown()
    return Stash.of(md), md.postprocessors["raw_html"].run

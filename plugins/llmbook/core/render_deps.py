"""What a page's render depended on besides its own inputs (`Deps`): kept with a rendered page
(render_cache.py) and a whole conversion (converted.py), checked again before either is reused."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Deps"]


@dataclass
class Deps:
    """What a page's render depended on besides its inputs: checked again before it is reused."""

    figures: list[str] = field(default_factory=list)  # site paths of the figures it linked
    lookups: list[list[str]] = field(default_factory=list)  # [name, title, url] it looked up
    # [target, number, title] of each part of the book its references link to
    references: list[list[str]] = field(default_factory=list)
    terms: list[list[str]] = field(default_factory=list)  # [term, what it showed] (book/terms.py)
    # [key, "entry" or "listing", digest] of what it showed of the bibliography
    cited: list[list[str]] = field(default_factory=list)
    demos: list[list[str]] = field(default_factory=list)  # [ID, code key] of each demo shown

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deps:
        figures = [str(path) for path in data["figures"]]
        lookups = [[str(part) for part in lookup] for lookup in data["lookups"]]
        references = [[str(part) for part in target] for target in data["references"]]
        terms = [[str(part) for part in term] for term in data["terms"]]
        cited = [[str(part) for part in shown] for shown in data["cited"]]
        demos = [[str(part) for part in demo] for demo in data["demos"]]
        if any(len(entry) != 3 for entry in lookups + references + cited) or any(
            len(pair) != 2 for pair in terms + demos
        ):
            raise ValueError(
                "a lookup is [name, title, url], a reference [target, number, title], a term "
                "[term, what it showed], a citation [key, what it showed, digest], a demo "
                "[ID, code key]"
            )
        return cls(figures, lookups, references, terms, cited, demos)

"""One page's render as every step reads it: the page, its model (with a notebook's line map), the
stash its HTML goes into, the words it is written in, the store, what the render depended on, and
the lines the live preview shows as written. `Site.context` makes it once per render; the steps
(the book's, the directives') read it instead of a dozen arguments.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.lexer import Lexed
from llmbook.core.page_ref import PageRef
from llmbook.core.render_deps import Deps
from llmbook.core.stash import Stash
from llmbook.core.store import Store

__all__ = ["PageContext", "PageError"]


@dataclass(frozen=True)
class PageError:
    """An error the live preview shows in a box on its page."""

    line: int  # the line in the author's file
    text: str  # the exact text of the build error: `docs/x.md:LINE: … Fix: …`


@dataclass(frozen=True)
class PageContext:
    src: str  # "docs/chapters/x.md": how errors name the page
    lexed: Lexed  # its model, as the load stage lexed it; a notebook's names its cells
    stash: Stash  # where finished HTML goes (the engine's)
    locale: Locale  # the words the page is rendered in
    page: PageRef | None = None  # None: a standalone text (a showcase's example, a test)
    store: Store | None = None  # where conversions are kept (formulas)
    deps: Deps | None = None  # when given, gets what the render depended on (the render cache)
    # The live preview's: file lines shown as written, and the errors boxed at their lines.
    plain: frozenset[int] = frozenset()
    errors: tuple[PageError, ...] = ()

    def shown_with(self, plain: frozenset[int], errors: Iterable[PageError]) -> PageContext:
        """The same render with those lines as written and those boxes (the live preview's)."""
        return dataclasses.replace(self, plain=plain, errors=tuple(errors))

    def error(self, line: int, message: str, fix: str | None = None) -> AuthorError:
        """The author error at file line `line`, named as the page's model names it."""
        return AuthorError(self.src, line, message, fix, page=self.lexed)

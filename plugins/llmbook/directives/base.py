"""The directive base class and the per-page context every directive renders with.

A directive is the unit of extension, whole in its module. It declares `NAME`, its argument rule
and where it may stand, its typed `OPTIONS` (options.py), the classes of its web form
(`CLASSES`), what a translation must keep of it (`MARKS`) and the locale keys of its words
(`WORDS`); it overrides `validate` (raise AuthorError on bad input; runs on the original source,
so lines are true), `render` (the Markdown lines that replace the block; finished HTML goes
through the page's stash), `print_form` (what paper shows of its web form: printing.py),
`notebook_form` (what a Jupyter notebook of the page shows of it: notebook.py) and `marks` (a
translation's marks, read by translate/fingerprint.py).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from llmbook.core.errors import AuthorError, quoted
from llmbook.core.fragments import FragmentRenderer
from llmbook.core.i18n import Locale
from llmbook.core.page_ref import PageRef
from llmbook.directives.nodes import Block, Document, Text
from llmbook.directives.notebook import titled
from llmbook.directives.options import Validator, split_options

if TYPE_CHECKING:
    from bs4 import BeautifulSoup

    from llmbook.core.page_context import PageContext
    from llmbook.core.site_index import SiteIndex
    from llmbook.core.stash import Stash
    from llmbook.demos.cache import DemoFrames
    from llmbook.directives.notebook import Lines, NotebookPage
    from llmbook.directives.printing import PrintPage

__all__ = [
    "Context",
    "Directive",
    "GlossaryView",
    "Lookup",
    "escape",
    "refuse_body",
]

REQUIRED, OPTIONAL, FORBIDDEN = "required", "optional", "forbidden"


def escape(text: str) -> str:
    """Escape for HTML text and double-quoted attributes."""
    return html.escape(text, quote=True)


class Directive:
    """One `:::NAME` directive."""

    NAME: ClassVar[str] = ""
    ARGUMENT: ClassVar[str] = OPTIONAL
    PARENTS: ClassVar[tuple[str, ...] | None] = None  # None: anywhere; else the allowed parents
    NESTED: ClassVar[tuple[str, ...] | None] = None  # None: any block inside; else those allowed
    # Its body is free Markdown (no structure of its own to parse), so the live preview may put an
    # error box among its lines.
    FLOW: ClassVar[bool] = False
    # The classes its web form writes that its print form selects: no other module names them.
    CLASSES: ClassVar[tuple[str, ...]] = ()
    # What a translation must keep of it: mark kind → how messages name it (see `marks`).
    MARKS: ClassVar[dict[str, str]] = {}
    # The locale keys (`ui`) of the words it writes on the web and in print.
    WORDS: ClassVar[tuple[str, ...]] = ()
    # Its typed options, written in braces after its title (options.py): name → (default,
    # validator); empty: braces are part of the title.
    OPTIONS: ClassVar[dict[str, tuple[Any, Validator]]] = {}
    # The kind of the book's numbered parts it is ("exercise": `练习 10-1`), or "".
    NUMBERED: ClassVar[str] = ""

    def example(self, ctx: Context) -> str:
        """An opener line fix messages quote (`:::key What to remember`), in the page's words."""
        return f":::{self.NAME} {ctx.locale.example(self.NAME)}"

    def check(self, node: Block, parent: Block, ctx: Context) -> None:
        """The rules every directive shares (argument, placement, children), then `validate`."""
        example = self.example(ctx)
        if self.ARGUMENT == REQUIRED and not node.arg:
            raise ctx.error(
                node.line,
                f":::{self.NAME} needs a title",
                f'write it after the name, e.g. "{example}"',
            )
        if self.ARGUMENT == FORBIDDEN and node.arg:
            raise ctx.error(
                node.line,
                f":::{self.NAME} takes nothing after its name, got {quoted(repr(node.arg))}",
                f"write the text in the block's body, below the :::{self.NAME} line",
            )
        if self.PARENTS is not None and parent.name not in self.PARENTS:
            places = " or ".join(f":::{p}" for p in self.PARENTS)
            raise ctx.error(
                node.line,
                f":::{self.NAME} belongs inside {places}",
                f"move it into a {places} block",
            )
        for child in node.blocks():
            if self.NESTED is not None and child.name not in self.NESTED:
                allowed = ", ".join(f":::{n}" for n in self.NESTED) or "no blocks"
                raise ctx.error(
                    child.line,
                    f":::{child.name} cannot stand inside :::{self.NAME} (it holds {allowed})",
                    f"move :::{child.name} out of the :::{self.NAME} block",
                )
        if self.OPTIONS:
            node.options = self.options(node, ctx)
        self.validate(node, ctx)

    def options(self, node: Block, ctx: Context) -> dict[str, Any]:
        """Its options' values, each default unless written; an unknown or invalid one is an
        author error at the opener's line."""
        values = {name: default for name, (default, _) in self.OPTIONS.items()}
        for name, text in split_options(node.arg)[1]:
            if name not in self.OPTIONS:
                raise ctx.error(
                    node.line,
                    f":::{self.NAME} has no option {quoted(name)}",
                    f"write one of {', '.join(self.OPTIONS)} in its braces, e.g. "
                    f'"{self.example(ctx)}"',
                )
            try:
                values[name] = self.OPTIONS[name][1](text)
            except ValueError as error:
                raise ctx.error(
                    node.line,
                    f":::{self.NAME} option {name} {quoted(repr(text))} is invalid: {error}",
                    f'write it as in "{self.example(ctx)}"',
                ) from None
        return values

    def title(self, node: Block) -> str:
        """Its argument without the braces of its options."""
        return split_options(node.arg)[0] if self.OPTIONS else node.arg

    def validate(self, node: Block, ctx: Context) -> None:
        """Directive-specific checks; raise `ctx.error(...)`."""

    def render(self, node: Block, ctx: Context) -> list[str]:
        raise NotImplementedError

    def print_form(self, soup: BeautifulSoup, page: PrintPage) -> None:
        """Its web form on a built page (`soup`) made what paper and an e-reader show; it may add
        to the page's end (`page.add_end`). Default: printed as the web shows it (boxes and
        folds print as boxes)."""

    def notebook_form(self, node: Block, page: NotebookPage) -> Lines:
        """The Markdown a Jupyter notebook of the page shows for it (a `CodeCell` where a block of
        its body ran). Default: a blockquote, its title in bold, its body as the notebook shows
        it."""
        return titled(page.title(node), page.children(node))

    def marks(self, text: str, *, opener: bool, locale: Locale) -> list[tuple[str, str]]:
        """(kind, value) a translation must keep of one line of its body, or of its opener line
        (`opener`); a kind is a key of `MARKS`."""
        return []


def refuse_body(node: Block, ctx: Context, problem: str, fix: str) -> None:
    """For a directive that takes no body: its first written line is an author error."""
    written = [number for number, line in node.text_lines() if line.strip()]
    if written:
        raise ctx.error(written[0], problem, fix)


class Lookup(Protocol):
    """What a page's directives see of the build's registry (`registry.Registry`)."""

    def get(self, name: str) -> Directive | None:
        """The directive called `name` (None: the build knows none)."""


class GlossaryView(Protocol):
    """The book's glossary as a page's directives see it (made by the book layer)."""

    def render_terms(self, markdown: str, first: int) -> str:
        """A standalone text's `{term}` roles as links (from file line `first`)."""

    def listing(self) -> str:
        """The glossary page's list of every term, as HTML."""


@dataclass
class Context:
    """What directives see of the page: its path, stash, site index, and helpers to emit HTML."""

    src: str
    doc: Document
    # the site's language (`theme.language`): the words directives write and read (i18n.py)
    locale: Locale
    directives: Lookup  # the build's registry (registry.py): every directive a page may use
    stash: Stash | None = None
    site: SiteIndex | None = None
    page: PageRef | None = None  # None: a standalone text (tests, a showcase without a site)
    demos: DemoFrames | None = None  # the book's demos and their frames (None: it has none)
    # What the site's book steps made for this page's directives, by directive name (Markdown):
    # `bibliography`, the list of every entry.
    made: Mapping[str, str] = field(default_factory=dict)
    # A guide's example text (from a file line) as the book numbers and checks it: (Markdown,
    # equation numbers); None outside a build.
    example: Callable[[str, int], tuple[str, dict[str, str]]] | None = None
    glossary: GlossaryView | None = None  # None: a text rendered without the book
    _fragments: FragmentRenderer | None = field(default=None, repr=False)

    @classmethod
    def of(cls, page: PageContext, doc: Document, **rest: Any) -> Context:
        """The directives' view of a page being rendered: its path, stash, words and place in
        the site are the page's context's; `rest`, what the site's steps give them."""
        return cls(page.src, doc, page.locale, stash=page.stash, page=page.page, **rest)

    def ui(self, key: str, **fields: object) -> str:
        """Interface text in the site's language."""
        return self.locale.ui(key, **fields)

    def error(self, line: int, message: str, fix: str | None = None) -> AuthorError:
        """The author error at file line `line` of the page."""
        return AuthorError(self.src, line, message, fix)

    @property
    def page_key(self) -> str:
        """A stable key for this page (localStorage, element ids)."""
        return self.page.uri if self.page is not None else self.src

    # -- rendering helpers ----------------------------------------------------------------------
    def token(self, html_text: str) -> str:
        assert self.stash is not None, "rendering needs the page's stash"
        return self.stash.put(html_text)

    def unique(self) -> int:
        """A number unique on this page (the stash only grows), for element ids."""
        assert self.stash is not None
        return len(self.stash)

    def fragment(self, markdown: str) -> str:
        """Markdown → HTML for author text that lands in a widget; raw HTML shows as text."""
        if self._fragments is None:
            self._fragments = FragmentRenderer.for_site(self.site)
        return _keep_placeholders(markdown, self._fragments.block)

    def inline(self, markdown: str) -> str:
        """Like `fragment` for one line (titles, options): no surrounding <p>."""
        if self._fragments is None:
            self._fragments = FragmentRenderer.for_site(self.site)
        return _keep_placeholders(markdown, self._fragments.inline)

    def children(self, node: Block) -> list[str]:
        """The Markdown of a block's body, its nested blocks rendered in place."""
        out: list[str] = []
        for child in node.children:
            if isinstance(child, Text):
                out.extend(child.lines)
            else:
                directive = self.directives.get(child.name)
                assert directive is not None
                out.extend(directive.render(child, self))
        return out

    def wrap(self, node: Block, open_html: str, close_html: str, body: list[str]) -> list[str]:
        """Body Markdown between two HTML tokens; blank lines keep each token its own paragraph."""
        pad = node.indent
        return ["", pad + self.token(open_html), "", *body, "", pad + self.token(close_html), ""]

    def single(self, node: Block, html_text: str) -> list[str]:
        return ["", node.indent + self.token(html_text), ""]


# The page's own stash placeholders (formulas, checked numbers) inside author text: the fragment
# renderer would strip their STX/ETX, so they travel as plain tokens and come back as they were,
# for the page's Markdown to restore.
_PLACEHOLDER = re.compile("\x02wzxhzdk:(\\d+)\x03")
_KEPT = re.compile(r"LLMBOOKKEPT(\d+)Z")


def _keep_placeholders(text: str, convert: Callable[[str], str]) -> str:
    kept = _PLACEHOLDER.sub(lambda m: f"LLMBOOKKEPT{m.group(1)}Z", text)
    return _KEPT.sub(lambda m: f"\x02wzxhzdk:{m.group(1)}\x03", convert(kept))

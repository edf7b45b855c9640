"""Who uses which glossary term: every page's `{term}` roles read at the build's start, checked
against the glossary, and the pages that use each term recorded for the glossary page.

Made beside the book's index (after the pages ran, before any renders). What a page's render
shows of the glossary (a term's definition, the glossary page's listing) is what `shown` answers;
a kept render is reused only while those answers are the same (`still_true`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llmbook.book.glossary import FILE_NAME, Entry, Glossary
from llmbook.core.errors import AuthorError, quoted
from llmbook.core.i18n import Locale
from llmbook.core.project import Project
from llmbook.core.store import key
from llmbook.core.term_syntax import TermUse, find_terms

__all__ = ["LISTING", "PageInfo", "TermIndex", "term_index"]

LISTING = "*listing"  # what the glossary page's render records of its listing


@dataclass(frozen=True)
class PageInfo:
    src: str
    uri: str  # relative to the docs folder
    title: str


@dataclass
class TermIndex:
    locale: Locale | None = None  # the build's: the language a term is named and defined in
    book_language: str = ""  # the book's own (the first of `languages`): its name shown beside
    glossary: Glossary = field(default_factory=Glossary)
    pages: list[PageInfo] = field(default_factory=list)  # nav order, then the site's
    uses: dict[str, list[TermUse]] = field(default_factory=dict)  # by page src
    glossary_page: PageInfo | None = None  # the page that holds `:::glossary`
    errors: list[AuthorError] = field(default_factory=list)

    @classmethod
    def of(
        cls,
        glossary: Glossary | AuthorError,
        plans: Mapping[str, Any],
        info: Callable[[str], PageInfo],
        nav: list[str],
        *,
        locale: Locale,
        book_language: str,
    ) -> TermIndex:
        """Every page's terms (`plans`: the executor's plans by src) checked against `glossary`
        (or the error that loading it raised); `nav`: page uris in the nav's order."""
        loaded = glossary if isinstance(glossary, Glossary) else Glossary()
        index = cls(locale, book_language, loaded)
        if isinstance(glossary, AuthorError):
            index.errors.append(glossary)
        order = {uri: n for n, uri in enumerate(nav)}
        pages = [info(src) for src in plans]
        index.pages = sorted(pages, key=lambda p: order.get(p.uri, len(order)))
        for src, plan in plans.items():
            index.uses[src] = _page_terms(plan)
            if plan.doc is not None and any(b.name == "glossary" for b in plan.doc.walk()):
                index._set_glossary_page(info(src), plan.doc)
        index._check()
        return index

    def _set_glossary_page(self, page: PageInfo, doc: Any) -> None:
        if self.glossary_page is not None:
            line = next(b.line for b in doc.walk() if b.name == "glossary")
            self.errors.append(
                AuthorError(
                    page.src,
                    line,
                    f"a second :::glossary (the first is on {self.glossary_page.src})",
                    "keep one glossary page: remove this block",
                )
            )
            return
        self.glossary_page = page

    def _check(self) -> None:
        first_use = None
        loaded = not self.errors  # a glossary that failed to load: its error is enough
        for src, uses in self.uses.items():
            for use in uses:
                first_use = first_use or use
                if loaded and self.glossary.lookup(use.name) is None:
                    self.errors.append(self.undefined(src, use))
        if first_use is not None and self.glossary_page is None:
            src = next(s for s, uses in self.uses.items() if first_use in uses)
            self.errors.append(
                AuthorError(
                    src,
                    first_use.line,
                    f"the term {quoted(repr(first_use.name))} links to the glossary page, and no page holds "
                    ":::glossary",
                    "add a page (e.g. docs/glossary.md) with a :::glossary block, and put it in "
                    "the nav",
                )
            )

    def undefined(self, src: str, use: TermUse) -> AuthorError:
        nearest = self.glossary.nearest(use.name)
        fix = (
            f"write one of the glossary's terms ({', '.join(nearest)}), or add"
            if nearest
            else "add"
        )
        return AuthorError(
            src,
            use.line,
            f"the term {quoted(repr(use.name))} is not in the glossary",
            f'{fix} an entry "- term: {use.name}" with its definition to {self.glossary.src}',
        )

    def used_by(self, entry: Entry) -> list[PageInfo]:
        """The pages that use `entry`, in nav order."""
        return [
            page
            for page in self.pages
            if any(self.glossary.lookup(u.name) is entry for u in self.uses.get(page.src, ()))
        ]

    def label(self, entry: Entry) -> tuple[str, str | None]:
        """The term's name in the build's language, and the other name shown beside it."""
        assert self.locale is not None, "a term is shown by a glossary read in a language"
        return entry.label(self.locale.code, self.book_language or self.locale.code)

    def heading(self, entry: Entry) -> str:
        """The term's names as its popover heads them: `GQA (分组查询注意力)`."""
        assert self.locale is not None
        name, other = self.label(entry)
        return self.locale.ui("term_other_name", term=name, other=other) if other else name

    def title(self, entry: Entry) -> str:
        """What a term's link shows on hover: `GQA (分组查询注意力): Attention whose …`."""
        assert self.locale is not None
        return self.locale.ui("term_title", term=self.heading(entry), definition=entry.definition)

    def unused(self) -> list[Entry]:
        return [entry for entry in self.glossary.entries if not self.used_by(entry)]

    def summary(self) -> list[str]:
        """The build log's lines: the counts, and the terms no page uses."""
        used = sum(1 for uses in self.uses.values() if uses)
        lines = [
            f"glossary: {len(self.glossary.entries)} terms, "
            f"{sum(map(len, self.uses.values()))} uses on {used} pages"
        ]
        unused = self.unused()
        if unused:
            names = ", ".join(e.term for e in unused)
            lines.append(f"glossary: used on no page: {names} ({self.glossary.src})")
        return lines

    def shown(self, name: str) -> str:
        """What a render shows of `name` (a term, or LISTING), to compare with what it recorded."""
        if name == LISTING:
            listing = [
                [*self.label(e), e.definition, e.slug, *[[p.uri, p.title] for p in self.used_by(e)]]
                for e in self.glossary.entries
            ]
            return key(listing)
        entry = self.glossary.lookup(name)
        if entry is None or self.glossary_page is None:
            return ""
        return f"{self.glossary_page.uri}#{entry.slug} {self.title(entry)}"

    def still_true(self, recorded: list[list[str]]) -> bool:
        """Whether everything a kept render showed of the glossary is still what it shows."""
        return all(self.shown(name) == value for name, value in recorded)


def term_index(
    project: Project,
    plans: Mapping[str, Any],
    title: Callable[[str], str],
    nav: list[str],
    *,
    locale: Locale,
    book_language: str,
) -> TermIndex:
    """The build's terms: docs/glossary.yml loaded (a translating build's `glossary.<code>.yml`
    when there is one), every page of `plans` read (`title(src)`: how the glossary page names a
    page), pages ordered as `nav` (docs-relative uris) lists them; named in `locale`'s language,
    the name in `book_language` (the book's own) beside it."""
    source = project.docs_dir / FILE_NAME
    translated = source.with_suffix(f".{project.translating}.yml")
    path = translated if project.translating and translated.is_file() else source
    try:
        glossary: Glossary | AuthorError = Glossary.load(path, _src(project, path))
        if path != source:
            # its names, where it gives none, are its source's (whose errors translate/ reports)
            glossary = glossary.named_as(_source_glossary(project, source))
    except AuthorError as error:
        glossary = error

    def info(page: str) -> PageInfo:
        return PageInfo(page, project.uri(page), title(page))

    return TermIndex.of(glossary, plans, info, nav, locale=locale, book_language=book_language)


def _src(project: Project, path: Path) -> str:
    """How errors name a glossary file: relative to the project when it is inside it."""
    if path.is_relative_to(project.root):
        return path.relative_to(project.root).as_posix()
    return str(path)


def _source_glossary(project: Project, source: Path) -> Glossary:
    try:
        return Glossary.load(source, _src(project, source))
    except AuthorError:
        return Glossary()


def _page_terms(plan: Any) -> list[TermUse]:
    lexed = plan.page.lexed
    code = {lexed.first + i for i in lexed.code_lines()}
    return [
        use
        for number in lexed.numbers
        if number not in code
        for use in find_terms(lexed.line(number), number, plan.math.get(number, []))
    ]

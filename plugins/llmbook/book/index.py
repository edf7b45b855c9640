"""The whole book's numbered parts, and every reference checked against them.

Made at the build's start from every page's model (after the pages ran, before any renders), so a
reference to another page is checked against that page as it is now. A reference written as a link
must name its target's current number; one written without a link is unbound: an error on a strict
page, with the likely target in its fix. The index also records who references what: a page whose
reference's target changed renders again (its link shows the target's title).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote

from llmbook.book.parts import PageParts, Part
from llmbook.core.book_syntax import Reference
from llmbook.core.errors import AuthorError, quoted
from llmbook.core.i18n import Locale

__all__ = ["BookIndex", "ReferenceCounts", "Resolved"]

_PAGE_KINDS = ("chapter", "lesson")


@dataclass(frozen=True)
class Resolved:
    """What a bound reference points at: a page, and a part of it (None: the page itself)."""

    page: PageParts
    part: Part | None

    @property
    def number(self) -> str | None:
        return self.part.number if self.part is not None else self.page.chapter

    @property
    def title(self) -> str:
        return self.part.title if self.part is not None else self.page.title

    def key(self) -> list[str]:
        """What a page's render depended on: [target, its number, its title]."""
        anchor = f"#{self.part.id}" if self.part is not None else ""
        return [self.page.uri + anchor, self.number or "", self.title]


@dataclass
class ReferenceCounts:
    checked: int = 0
    unbound: int = 0

    def summary(self) -> str:
        return f"references: {self.checked} checked, {self.unbound} unbound"


@dataclass
class BookIndex:
    pages: dict[str, PageParts] = field(default_factory=dict)  # by uri
    counts: ReferenceCounts = field(default_factory=ReferenceCounts)
    # pages that could not be read (their own error is reported): links into them go unchecked
    unread: frozenset[str] = frozenset()  # by uri
    # the build's: its errors quote a reference in its own language's forms (None: no book read)
    locale: Locale | None = None

    @classmethod
    def of(
        cls, pages: list[PageParts], locale: Locale, unread: frozenset[str] = frozenset()
    ) -> BookIndex:
        return cls({page.uri: page for page in pages}, unread=unread, locale=locale)

    def page(self, src: str) -> PageParts | None:
        return next((p for p in self.pages.values() if p.src == src), None)

    def resolve(self, page: PageParts, href: str) -> Resolved | None:
        """The page and part `href` (written on `page`) points at; None outside the book."""
        path, _, anchor = href.partition("#")
        if path:
            if "://" in path or path.startswith(("mailto:", "/")):
                return None
            uri = posixpath.normpath(posixpath.join(posixpath.dirname(page.uri), unquote(path)))
        else:
            uri = page.uri
        return self.at(f"{uri}#{anchor}" if anchor else uri)

    def at(self, target: str) -> Resolved | None:
        """The page and part of `target`, a docs-relative uri with its anchor (`Resolved.key`)."""
        uri, _, anchor = target.partition("#")
        found = self.pages.get(uri)
        if found is None:
            return None
        return Resolved(found, found.parts.get(anchor) if anchor else None)

    def check(self, strict: dict[str, bool]) -> list[AuthorError]:
        """Every page's sections in sequence and references true; `strict[src]`: whether an
        unbound reference on that page is an error."""
        self.counts = ReferenceCounts()
        errors: list[AuthorError] = []
        for page in self.pages.values():
            errors += page.errors + self.check_page(page, strict=bool(strict.get(page.src)))
        return errors

    def check_page(self, page: PageParts, *, strict: bool) -> list[AuthorError]:
        """The page's references checked (and counted)."""
        errors = []
        for reference in page.references:
            if reference.bound:
                self.counts.checked += 1
                problem = self._wrong(page, reference)
            else:
                self.counts.unbound += 1
                problem = self._unbound(page, reference) if strict else None
            if problem is not None:
                errors.append(AuthorError(page.src, reference.line, *problem))
        return errors

    def _wrong(self, page: PageParts, ref: Reference) -> tuple[str, str] | None:
        assert ref.href is not None
        link = quoted(f"[{ref.text}]({ref.href})")
        path = ref.href.partition("#")[0]
        target = self.resolve(page, ref.href)
        if target is None and self._unread(page, path):
            return None
        if target is None:
            return (
                f"the reference {link} links to {path or ref.href}, which is no page of the book",
                "link a page of the docs folder (a relative path to its .md or .ipynb file)",
            )
        anchor = ref.href.partition("#")[2]
        assert self.locale is not None, "a book's references are checked in its language"
        part_text = self.locale.written_in(ref.language).part_text
        if ref.kind in _PAGE_KINDS:
            if target.page.chapter is None or target.page.chapter_kind != ref.kind:
                return (
                    f"the reference {link}: {target.page.src} is no {part_text(ref.kind, 'N')}",
                    f"give that page `chapter: {ref.number}` in its front matter or a first "
                    f"heading `# {part_text(ref.kind, ref.number)} …`, or link the right page",
                )
            if target.page.chapter != ref.number:
                now = part_text(ref.kind, target.page.chapter)
                return self._stale(ref, link, now, target)
            return None
        if not anchor or target.part is None:
            return (
                f"the reference {link}: {target.page.src} has no {ref.kind} #{anchor}"
                if anchor
                else f"the reference {link} names no {ref.kind}",
                _labels_fix(target.page, ref.kind, part_text),
            )
        if target.part.kind != ref.kind:
            return (
                f"the reference {link}: #{anchor} is a {target.part.kind}, not a {ref.kind}",
                f"write {part_text(target.part.kind, target.part.number)}, or link the "
                f"{ref.kind} you mean",
            )
        if target.part.number != ref.number:
            now = part_text(ref.kind, target.part.number)
            return self._stale(ref, link, now, target)
        return None

    def _unread(self, page: PageParts, path: str) -> bool:
        """Whether `path` (written on `page`) is a page that could not be read."""
        if not path or "://" in path or path.startswith(("mailto:", "/")):
            return False
        uri = posixpath.normpath(posixpath.join(posixpath.dirname(page.uri), unquote(path)))
        return uri in self.unread

    @staticmethod
    def _stale(ref: Reference, link: str, now: str, target: Resolved) -> tuple[str, str]:
        title = f" ({target.title})" if target.title else ""
        return (
            f"written {ref.text}, the target is now {now}{title}: {link}",
            f"write {now}, or link the {ref.kind} you mean",
        )

    def _unbound(self, page: PageParts, ref: Reference) -> tuple[str, str]:
        likely = self.likely(ref)
        if likely:
            href = _relative(page.uri, likely)
            fix = f"link it to its target: [{ref.text}]({href})"
        else:
            fix = (
                f"link it to its target, e.g. [{ref.text}](../chapters/page.md#label); no "
                f"{ref.kind} of the book is numbered {ref.number}"
            )
        return (f"the reference {ref.text} has no target (it is not checked)", fix)

    def likely(self, ref: Reference) -> str | None:
        """The uri (and anchor) of the only part of the book with the reference's number."""
        found = []
        for page in self.pages.values():
            if ref.kind in _PAGE_KINDS:
                if page.chapter_kind == ref.kind and page.chapter == ref.number:
                    found.append(page.uri)
            else:
                found += [
                    f"{page.uri}#{p.id}"
                    for p in page.parts.values()
                    if p.kind == ref.kind and p.number == ref.number
                ]
        return found[0] if len(found) == 1 else None


def _labels_fix(page: PageParts, kind: str, part_text: Callable[[str, str], str]) -> str:
    labels = [f"#{p.id} ({part_text(p.kind, p.number)})" for p in page.numbered(kind)]
    if labels:
        return f"link one of its {kind}s: {', '.join(labels)}"
    return f"label the {kind} on {page.src}, then link its label"


def _relative(from_uri: str, to: str) -> str:
    path, _, anchor = to.partition("#")
    if path == from_uri:
        return f"#{anchor}"
    rel = posixpath.relpath(path, posixpath.dirname(from_uri) or ".")
    return f"{rel}#{anchor}" if anchor else rel


CAPTIONS = "pymdownx.blocks.caption"


def caption_setup(
    pages: list[PageParts], extensions: list[object], configs: dict[str, dict[str, object]]
) -> list[AuthorError]:
    """A labelled caption needs pymdownx.blocks.caption, with its own numbering off (the book
    numbers per chapter): an error at the first caption that would render wrong."""
    first = next(
        (
            (page, part)
            for page in pages
            for part in page.parts.values()
            if part.kind in ("figure", "table")
        ),
        None,
    )
    if first is None:
        return []
    page, part = first
    if CAPTIONS not in extensions:
        problem = f"the caption needs {CAPTIONS}, which is not among the site's Markdown extensions"
    elif configs.get(CAPTIONS, {}).get("auto", True) is not False:
        problem = f"{CAPTIONS} numbers captions itself (its `auto` option is on)"
    else:
        return []
    fix = f"list `{CAPTIONS}: {{auto: false}}` under markdown_extensions in mkdocs.yml"
    return [AuthorError(page.src, part.line, problem, fix)]

"""The build's translations (`Translations`): which files the build renders, each translation
checked against its source (code, numbers, structure), given its source's results, stale when
its source moved since it was marked; the language switcher and a fallback's note on each page.

Made by the site when the `languages` option names more than one language; the executor asks it
for a translation's source (`source_file`), pairs them (`pair`) and maps the source's results
(`result`); the site asks for the book-wide checks (`check`) and each page's banner (`banner`).
"""

from __future__ import annotations

import html
import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from llmbook.book.glossary import FILE_NAME as GLOSSARY
from llmbook.book.glossary import Glossary
from llmbook.core.errors import AuthorError, LLMBookError, location, quoted
from llmbook.core.i18n import Locale
from llmbook.core.project import Project
from llmbook.core.store import Store, bytes_digest, key, llmbook_hash
from llmbook.core.store_namespaces import TRANSLATIONS
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.front_matter import split_front_matter
from llmbook.execute.stages.run import RunResult
from llmbook.translate.correspond import Correspondence, correspond
from llmbook.translate.fingerprint import Fingerprint, fingerprint
from llmbook.translate.layout import Languages
from llmbook.translate.record import RECORD_KEY, Change, changes
from llmbook.translate.results import translated_result

__all__ = ["Translations", "read_record"]


class Translations:
    def __init__(
        self,
        languages: Languages,
        project: Project,
        *,
        locale: Locale,
        strict: bool,
        store: Store | None = None,
    ) -> None:
        self.languages = languages
        self.locale = locale  # the build's: the switcher's and the note's words
        self.project = project
        self.strict = strict
        self.store = store if store is not None else Store(None)
        self._pairs: dict[str, Correspondence] = {}
        self._fingerprints: dict[str, tuple[PageSource, Fingerprint]] = {}
        self.stale: dict[str, list[Change]] = {}  # translation → what changed (the last check)

    @classmethod
    def from_options(
        cls,
        options: Mapping[str, Any],
        project: Project,
        locale: Locale,
        store: Store | None = None,
    ) -> Translations | None:
        languages = tuple(options.get("languages") or ())
        if len(languages) < 2:
            return None
        current = locale.code
        if current not in languages:
            raise LLMBookError(
                f"mkdocs.yml: this build's language {current!r} (theme.language, or the llmbook "
                f"option `language`) is not one of the book's `languages` {list(languages)}: add "
                "it to `languages`, or build with one of them"
            )
        strict = bool(options.get("translations_strict"))
        return cls(
            Languages(languages, current), project, locale=locale, strict=strict, store=store
        )

    # -- which files -----------------------------------------------------------------------------

    def is_translation(self, src: str) -> bool:
        return self.languages.language_of(src) is not None

    def translations(self) -> list[str]:
        """Every translation file in the docs folder (project-relative, sorted)."""
        docs = self.project.docs_dir
        found = [
            self._src(path)
            for pattern in ("*.md", "*.ipynb")
            for path in docs.rglob(pattern)
            if self.languages.language_of(path.name)
        ]
        return sorted(found)

    def page_file(self, src: str) -> str | None:
        """What an engine makes of a file it found in the docs folder: None for a translation
        (never a page of its own), else the file the page is read from (`built_from`)."""
        return None if self.is_translation(src) else self.built_from(src)

    def built_from(self, source: str) -> str:
        """The file this build renders for the page of `source`: its translation into this
        build's language when there is one (a translating build), else the source itself."""
        if not self.languages.translating:
            return source
        translated = self.languages.translation_of(source)
        return translated if (self.project.root / translated).is_file() else source

    # -- the executor's companion ----------------------------------------------------------------

    def source_file(self, src: str) -> tuple[str, bytes] | None:
        """A translation's source (its path, its file), when this build renders `src` as one."""
        if (
            not self.languages.translating
            or self.languages.language_of(src) != self.languages.current
        ):
            return None
        source = self.languages.source_of(src)
        path = self.project.root / source
        return (source, path.read_bytes()) if path.is_file() else None

    def runs(self, src: str) -> str:
        """The path whose `execute_pages` patterns decide whether `src` runs: its source's."""
        return self.languages.source_of(src)

    def pair(self, translation: PageSource, source: PageSource) -> list[AuthorError]:
        """The translation checked against its source; the pairing kept for `result`."""
        theirs = self._fingerprint(source)
        found = self._pairs[translation.src] = correspond(
            fingerprint(translation, self.locale), theirs
        )
        return found.errors

    def result(self, translation: PageSource, source: PageSource, result: RunResult) -> RunResult:
        pairs = self._pairs[translation.src].pairs
        return translated_result(translation, source, result, pairs)

    def _fingerprint(self, source: PageSource) -> Fingerprint:
        """The source's fingerprint, made once per loaded source."""
        kept = self._fingerprints.get(source.src)
        if kept is None or kept[0] is not source:
            kept = self._fingerprints[source.src] = (source, fingerprint(source, self.locale))
        return kept[1]

    # -- the book ------------------------------------------------------------------------------

    def check(self, sources: Mapping[str, PageSource], log: logging.LoggerAdapter | logging.Logger):
        """Every translation's staleness (and a translation without a source): errors under
        `translations_strict` (a prose-only change is logged), else warnings; the errors."""
        errors: list[AuthorError] = self.check_glossary()
        self.stale = {}
        for src in self.translations():
            source = self.languages.source_of(src)
            if not (self.project.root / source).is_file():
                errors.append(_orphan(src, source))
                continue
            kept = self._fingerprints.get(source)
            page = sources.get(source) or (kept[0] if kept is not None else None)
            if page is None:
                continue  # it failed to load: reported there
            try:
                found, line = self._changes(src, page)
            except AuthorError as error:  # its front matter (in a build that does not run it)
                errors.append(error)
                continue
            if not found:
                continue
            self.stale[src] = found
            error = _stale(src, line, source, found)
            if all(c.prose_only for c in found):
                model = sources[src].lexed if src in sources else None
                log.info(
                    f"{location(src, line, model)}: {error.problem} (prose only: not an error)"
                )
            elif self.strict:
                errors.append(error)
            else:
                log.warning(str(error))
        return errors

    def _changes(self, src: str, source: PageSource) -> tuple[list[Change], int]:
        """What changed in `source` since translation `src` was marked, and the record's line:
        kept in the store by the two texts (a warm build reads no record, digests no code)."""
        raw = (self.project.root / src).read_bytes()
        entry = key(
            "stale", source.lexed.text, source.lexed.first, bytes_digest(raw), llmbook_hash()
        )
        memo = self.store.memo(TRANSLATIONS, entry, codec="pickle")
        kept = memo.get()
        if kept is None:
            record, line = read_record(self.project.root / src, src)
            kept = (changes(record, self._fingerprint(source)), line)
            memo.put(kept)
        return kept

    def check_glossary(self) -> list[AuthorError]:
        """Each translated glossary (`glossary.<code>.yml` of each of the book's other
        languages) has its source's entries, in order, with the same terms and aliases: only
        the definitions are translated (names in its language may be added)."""
        source = self.project.docs_dir / GLOSSARY
        errors: list[AuthorError] = []
        for language in self.languages.all[1:]:
            path = source.with_suffix(f".{language}.yml")
            if not path.is_file() or not source.is_file():
                continue
            digests = [bytes_digest(p.read_bytes()) for p in (source, path)]
            memo = self.store.memo(
                TRANSLATIONS, key("glossary", *digests, llmbook_hash()), codec="pickle"
            )
            found = memo.get()
            if found is None:
                try:
                    theirs = Glossary.load(source, self._src(source))
                    found = _glossary_errors(Glossary.load(path, self._src(path)), theirs)
                except AuthorError as error:
                    found = [error]
                memo.put(found)
            errors += found
        return errors

    # -- a page --------------------------------------------------------------------------------

    def banner(self, src: str, url: str) -> str:
        """The language switcher (relative links: it works from file://), and on a page shown
        untranslated, a note saying so."""
        here = self.languages.current
        links = []
        for language in self.languages.all:
            name = html.escape(self.locale.written_in(language).name)
            if language == here:
                links.append(
                    f'<span class="llmbook-languages__current" lang="{language}">{name}</span>'
                )
            else:
                href = html.escape(self.languages.link(url, language))
                links.append(f'<a href="{href}" hreflang="{language}" lang="{language}">{name}</a>')
        label = html.escape(self.locale.ui("languages"))
        out = f'<nav class="llmbook-languages" aria-label="{label}">{" · ".join(links)}</nav>'
        written_in = self.languages.written_in(src)
        if self.languages.translating and not self.is_translation(src) and written_in != here:
            note = self.locale.ui(
                "untranslated",
                language=self.locale.language_name(here),
                source=self.locale.language_name(written_in or self.languages.default),
            )
            out += f'<p class="llmbook-untranslated">{html.escape(note)}</p>'
        return out

    def marked_untranslated(self, src: str, html: str) -> str:
        """A page shown untranslated (its HTML) with its text marked as the book's own language
        (`lang`: screen readers and fonts), all but the note that says so."""
        note = '<p class="llmbook-untranslated">'
        if not self.languages.translating or note not in html:
            return html
        before, _, after = html.partition(note)
        note_end = after.index("</p>") + len("</p>")
        lang = self.languages.default
        return (
            f'<div lang="{lang}">{before}</div>{note}{after[:note_end]}'
            f'<div lang="{lang}">{after[note_end:]}</div>'
        )

    def _src(self, path: Path) -> str:
        return path.relative_to(self.project.root).as_posix()


def read_record(path: Path, src: str) -> tuple[Any, int]:
    """A translation's record and the line it is on (1 when it has none); AuthorError naming
    `src` when its front matter is not valid YAML."""
    text = path.read_text(encoding="utf-8-sig")
    if path.suffix == ".ipynb":
        try:
            meta = json.loads(text).get("metadata", {}).get("llmbook", {})
        except (ValueError, AttributeError):
            return None, 1
        return meta.get(RECORD_KEY), 1
    meta, _, _ = split_front_matter(text, src=src)
    lines = text.splitlines()
    line = next((i + 1 for i, t in enumerate(lines[:400]) if t.startswith(f"{RECORD_KEY}:")), 1)
    return meta.get(RECORD_KEY), line


_GLOSSARY_RULE = (
    "a translated glossary has its source's entries in order, with the same term and aliases"
)


def _glossary_errors(ours: Glossary, theirs: Glossary) -> list[AuthorError]:
    errors = []
    for i, entry in enumerate(theirs.entries):
        mine = ours.entries[i] if i < len(ours.entries) else None
        same = f"`term: {entry.term}`" + (
            f" and `aliases: [{', '.join(entry.aliases)}]`" if entry.aliases else ""
        )
        if mine is None:  # the translation ends before its source: add it after its last entry
            errors.append(
                AuthorError(
                    ours.src,
                    ours.entries[-1].line if ours.entries else 1,
                    f"{theirs.src}'s entry {quoted(repr(entry.term))} ({location(theirs.src, entry.line, None)}) "
                    f"is missing: {_GLOSSARY_RULE}",
                    f"add it after this entry, with {same}; translate only its definition",
                )
            )
            break
        if (mine.term, mine.aliases) != (entry.term, entry.aliases):
            errors.append(
                AuthorError(
                    ours.src,
                    mine.line,
                    f"entry {i + 1} does not translate {theirs.src}'s entry {quoted(repr(entry.term))} "
                    f"({location(theirs.src, entry.line, None)}): {_GLOSSARY_RULE}",
                    f"give it {same}; translate only its definition",
                )
            )
            break  # the rest are shifted: one error says where it starts
    if not errors and len(ours.entries) > len(theirs.entries):
        extra = ours.entries[len(theirs.entries)]
        errors.append(
            AuthorError(
                ours.src,
                extra.line,
                f"the entry {quoted(repr(extra.term))} is not in {theirs.src}",
                "add it to the source glossary first, or remove it",
            )
        )
    return errors


def _orphan(src: str, source: str) -> AuthorError:
    return AuthorError(
        src,
        1,
        f"this translation's source {source} does not exist",
        "rename the translation after its source (x.md → x.en.md), or remove it",
    )


def _stale(src: str, line: int, source: str, found: list[Change]) -> AuthorError:
    if found[0].kind == "unmarked":
        return AuthorError(
            src,
            line,
            f"the translation of {source} records no source (it was never marked)",
            f"once it says what its source says, run `python -m llmbook.translate mark {src}`",
        )
    return AuthorError(
        src,
        line,
        f"stale translation: its source {source} changed since it was marked: "
        + "; ".join(c.text for c in found),
        f"bring the translation up to date, then run `python -m llmbook.translate mark {src}`",
    )

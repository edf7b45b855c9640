"""Words are data: every word llmbook writes in a language, and how a book in that language writes
its references, quiz keywords and grouping notes, come from one locale file (`locales/<code>.yml`).

The site's language is `theme.language` (English where mkdocs.yml sets none, as Material's is). A
book adds a language, or overrides words of a shipped one, with a file of the same shape in the
folder its `locales` option names. A `Locale` is passed explicitly to everything that writes or
reads words: no code defaults to a language.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml

from llmbook.core.errors import LLMBookError
from llmbook.core.store import key as store_key

__all__ = [
    "Locale",
    "LocaleError",
    "ReferenceForm",
    "book_locale",
    "load_locale",
    "options_locale",
    "shipped_languages",
]

SHIPPED = Path(__file__).parents[1] / "locales"
# A site whose mkdocs.yml sets no `theme.language` is in English, as Material's default is.
DEFAULT_LANGUAGE = "en"
# The one locale every other is checked against: its keys are the ones a locale must have.
_SCHEMA = "en"
_KINDS = ("section", "chapter", "lesson", "figure", "table", "exercise", "equation")


class LocaleError(LLMBookError):
    """A language without a locale, or a locale file that is incomplete or malformed."""


@dataclass(frozen=True)
class ReferenceForm:
    """How a language writes a reference to one kind of numbered part."""

    kind: str  # "section", "chapter", "lesson", "figure", "table", "exercise", "equation"
    write: str  # "Section {number}"
    write_whole: str  # for a section number without a dot (`第 {number} 节`)
    match: tuple[str, ...]  # patterns, the number in the group `number`


@dataclass(frozen=True, eq=False)
class Locale:
    """One language's words (`ui`), reference forms, quiz keywords and fix examples; `read_from`:
    the other locales whose written forms a page in this one may also hold (the book's own
    language in a translating build, English's quiz keywords everywhere)."""

    code: str
    data: Mapping[str, Any] = field(repr=False)
    read_from: tuple[Locale, ...] = ()

    @cached_property
    def digest(self) -> str:
        """What a cache keys on: every word and form, and those it reads."""
        return store_key(self.data, [other.digest for other in self.read_from])[:16]

    @cached_property
    def reading_digest(self) -> str:
        """What reading a page depends on: the words of every readable locale, in no order (the
        Chinese and the English build of a book read its pages alike: their caches agree)."""
        return store_key(sorted(store_key(lo.data) for lo in self.readable))[:16]

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Locale) and other.digest == self.digest

    # -- writing ------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        """The language's own name (`Français`)."""
        return str(self.data["name"])

    def ui(self, key: str, **fields: object) -> str:
        """The text `key`, its `{fields}` filled in."""
        text = self.data["ui"][key]
        return text.format(**fields) if fields else text

    def language_name(self, code: str) -> str:
        """Language `code`'s name in this language (`allemand` in French); the code itself when
        the locale does not name it."""
        names = self.data.get("names") or {}
        return str(names.get(code) or names.get(code.split("-")[0]) or code)

    def example(self, directive: str, **fields: object) -> str:
        """A directive's title as fix messages quote it (`本节必须记住`)."""
        examples = self.data["examples"]
        text = examples.get(directive) or examples["title"]
        return text.format(**fields) if fields else text

    def part_text(self, kind: str, number: str) -> str:
        """How this language writes a reference to part `number` of `kind` (`Figure 10-3`)."""
        form = self.forms[kind]
        pattern = form.write if "." in number or kind != "section" else form.write_whole
        return pattern.format(number=number)

    @cached_property
    def forms(self) -> dict[str, ReferenceForm]:
        refs = self.data["references"]
        return {
            kind: ReferenceForm(
                kind,
                refs[kind]["write"],
                refs[kind].get("write_whole") or refs[kind]["write"],
                tuple(refs[kind]["match"]),
            )
            for kind in _KINDS
        }

    def section(self, name: str) -> Mapping[str, Any]:
        """A section of the file the plugin does not read itself (a book's demos' words)."""
        found = self.data.get(name)
        return found if isinstance(found, Mapping) else {}

    # -- reading ------------------------------------------------------------------------------
    def reading(self, others: Iterable[Locale]) -> Locale:
        """This locale, reading also what `others` write (each at most once, not itself)."""
        seen = {self.code}
        extra = []
        for other in others:
            if other.code not in seen:
                seen.add(other.code)
                extra.append(other)
        return Locale(self.code, self.data, tuple(extra))

    @property
    def readable(self) -> tuple[Locale, ...]:
        """This locale first, then those whose forms it reads."""
        return (self, *self.read_from)

    def written_in(self, code: str) -> Locale:
        """The readable locale `code` (the one a reference was written in)."""
        return next((lo for lo in self.readable if lo.code == code), self)

    @cached_property
    def reference_patterns(self) -> tuple[tuple[str, str, re.Pattern[str]], ...]:
        """(kind, language, pattern) of every readable form, in order."""
        found = []
        for lo in self.readable:
            for kind, form in lo.forms.items():
                found.extend((kind, lo.code, re.compile(p)) for p in form.match)
        return tuple(found)

    @cached_property
    def quiz_answer(self) -> re.Pattern[str]:
        return _keyword_line(self._quiz_words("answer"), r"(?P<letter>.*?)\s*$")

    @cached_property
    def quiz_explanation(self) -> re.Pattern[str]:
        return _keyword_line(self._quiz_words("explanation"), r"(?P<text>.*)$")

    def quiz_word(self, kind: str) -> str:
        """The word this language starts a quiz's `kind` line with (`Answer`)."""
        return str(self.data["quiz"][kind][0])

    def _quiz_words(self, kind: str) -> list[str]:
        # English's keywords are read in every language (a quiz copied from an English book)
        words = [w for lo in self.readable for w in lo.data["quiz"][kind]]
        words += _schema()["quiz"][kind]
        return sorted(set(words), key=lambda w: (-len(w), w))

    @cached_property
    def title_patterns(self) -> tuple[tuple[str, re.Pattern[str]], ...]:
        """(kind, pattern) of a title that numbers its page (`# Chapter 3`), every readable form."""
        return tuple(
            (kind, re.compile(pattern))
            for lo in self.readable
            for kind, pattern in (lo.data.get("titles") or {}).items()
            if pattern
        )

    @cached_property
    def ordinal_patterns(self) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
        """Words before and after a number that make it an ordinal (`Step 3`, `第 3 课`)."""
        parts = [lo.data.get("ordinals") or {} for lo in self.readable]
        before = "|".join(f"(?:{p['before']})" for p in parts if p.get("before"))
        after = "|".join(f"(?:{p['after']})" for p in parts if p.get("after"))
        return (re.compile(before) if before else None, re.compile(after) if after else None)

    @cached_property
    def groupings(self) -> tuple[tuple[re.Pattern[str], str, Mapping[str, int]], ...]:
        """A shape flow's grouping note in every readable form: (pattern, quote, number words)."""
        found = []
        for lo in self.readable:
            grouping = lo.data.get("grouping") or {}
            if grouping.get("match"):
                numbers = {str(k): int(v) for k, v in (grouping.get("numbers") or {}).items()}
                found.append((re.compile(grouping["match"]), grouping["quote"], numbers))
        return tuple(found)


def _keyword_line(words: list[str], rest: str) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"^\s*(?:{alternatives})\s*[:：]\s*{rest}")


# -- loading ----------------------------------------------------------------------------------
def shipped_languages() -> list[str]:
    """The languages llmbook ships a locale for."""
    return sorted(p.stem for p in SHIPPED.glob("*.yml"))


def load_locale(language: str, book_folder: Path | None = None) -> Locale:
    """The locale of `language` (a `theme.language`: `fr`, `pt-BR`): the shipped file of it or of
    its base language, under the book's own file of it (`book_folder/<language>.yml`), if any.
    LocaleError when neither exists or the result lacks words."""
    code = language.strip()
    if not code:
        raise LocaleError("no language given")
    # the base language's file, then the language's own (`pt`, `pt-BR`), the book's over llmbook's
    names = dict.fromkeys((code.split("-")[0].split("_")[0], code))
    folders = [SHIPPED] if book_folder is None else [SHIPPED, Path(book_folder)]
    paths = [folder / f"{name}.yml" for folder in folders for name in names]
    layers = [(path, _read(path)) for path in paths if path.is_file()]
    if not layers:
        where = f", and {book_folder} has no {code}.yml" if book_folder is not None else ""
        raise LocaleError(
            f"llmbook has no words for the language {code!r}: it ships "
            f"{', '.join(shipped_languages())}{where}. Fix: set theme.language to one of those, or "
            f"add the file {code}.yml to the folder the llmbook option `locales` names (a copy of "
            f"llmbook/locales/en.yml translated: docs/guide/en/languages.md)"
        )
    data: dict[str, Any] = {}
    for _, layer in layers:
        data = _merged(data, layer)
    _check(data, layers[-1][0])
    return Locale(code, data)


def book_locale(
    language: str, languages: Iterable[str], folder: Path | None, config_file: str
) -> Locale:
    """The locale a build writes in: `language` (its `theme.language`; English when empty),
    reading also the forms of the book's other `languages` (a translating build shows a page
    untranslated in its source's). LocaleError names `config_file` when a language has no locale."""
    try:
        own = load_locale(language or DEFAULT_LANGUAGE, folder)
        others = [load_locale(code, folder) for code in languages if code != own.code]
    except LocaleError as error:
        raise LocaleError(f"{config_file}: {error}") from None
    return own.reading(others)


def options_locale(options: Mapping[str, Any], root: Path) -> Locale:
    """The build's locale from the llmbook options (`language`, which the adapters fill in from
    `theme.language`; `languages`; `locales`, a folder relative to mkdocs.yml's)."""
    folder = Path(root) / options["locales"] if options.get("locales") else None
    if folder is not None and not folder.is_dir():
        raise LocaleError(
            f"mkdocs.yml: the llmbook option `locales` names {options['locales']}, which is no "
            f"folder (beside mkdocs.yml: {folder}). Fix: create it with the book's <language>.yml "
            "files, or correct the path"
        )
    languages = [str(code) for code in options.get("languages") or ()]
    return book_locale(str(options.get("language") or ""), languages, folder, "mkdocs.yml")


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's: 5-20x faster, same result


def _read(path: Path) -> dict[str, Any]:
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        raise LocaleError(f"{path}{line}: the locale is not valid YAML ({error})") from None
    if not isinstance(data, dict):
        raise LocaleError(f"{path}: a locale is a mapping (code, name, ui, …), not {data!r}")
    return data


def _merged(base: dict[str, Any], layer: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in layer.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merged(dict(out[key]), value)
        else:
            out[key] = value
    return out


def _check(data: Mapping[str, Any], path: Path) -> None:
    """Every section and word English's locale has, with no field English's does not fill in,
    and every pattern a valid regular expression: a bad locale fails at load, not mid-build."""
    schema = _schema()
    missing = [k for k in ("name", "quiz", "references", "examples", "ui") if k not in data]
    missing += [f"ui.{k}" for k in schema["ui"] if k not in (data.get("ui") or {})]
    missing += [f"references.{k}" for k in _KINDS if k not in (data.get("references") or {})]
    missing += [f"quiz.{k}" for k in ("answer", "explanation") if k not in (data.get("quiz") or {})]
    if missing:
        raise LocaleError(
            f"{path}: the locale lacks {', '.join(missing[:12])}"
            f"{f' and {len(missing) - 12} more' if len(missing) > 12 else ''}. "
            f"Fix: add them, as llmbook/locales/en.yml has them"
        )
    for key, text in data["ui"].items():
        given = _fields(str(schema["ui"].get(key, "")))
        unknown = _fields(str(text)) - given
        if unknown:
            names = ", ".join(f"{{{name}}}" for name in sorted(unknown))
            allowed = ", ".join(f"{{{name}}}" for name in sorted(given))
            fix = f"use only {allowed}" if allowed else f"write the text without {names}"
            raise LocaleError(
                f"{path}: ui.{key} fills in {names}, which llmbook does not give it. Fix: {fix}"
            )
    for kind in _KINDS:
        for pattern in data["references"][kind].get("match") or []:
            _compiles(pattern, path, f"references.{kind}", needs="number")


def _compiles(pattern: str, path: Path, where: str, needs: str) -> None:
    try:
        compiled = re.compile(pattern)
    except re.error as error:
        raise LocaleError(
            f"{path}: {where} is not a regular expression ({error}). Fix: correct the pattern"
        ) from None
    if needs not in compiled.groupindex:
        raise LocaleError(
            f"{path}: {where}'s pattern {pattern!r} has no group ({needs}). Fix: write the "
            f"number as (?P<{needs}>…)"
        )


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name}
    except ValueError:
        return set()


_SCHEMA_DATA: dict[str, Any] = {}


def _schema() -> dict[str, Any]:
    if not _SCHEMA_DATA:
        _SCHEMA_DATA.update(_read(SHIPPED / f"{_SCHEMA}.yml"))
    return _SCHEMA_DATA

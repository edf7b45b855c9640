"""The book's glossary: one data file, `docs/glossary.yml`, read and checked at the build's start.

    - term: GQA
      definition: Attention whose query heads share K/V heads, one pair per group.
      zh: 分组查询注意力
      aliases: [Grouped-Query Attention]

Every entry needs `term` (the name pages write) and a one-line `definition`, in the book's own
language; a language's code as a key (`zh`, `fr`, `pt-BR`) gives the term's name in that language,
and `aliases` other names a page may write. A translating build reads `glossary.<code>.yml`
instead when there is one: the same entries, their definitions in that language (translate/).
A malformed entry stops the build at its line in the file (PyYAML's node marks).
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from llmbook.core.errors import AuthorError, quoted

__all__ = ["FILE_NAME", "Entry", "Glossary"]

FILE_NAME = "glossary.yml"
_KEYS = ("term", "definition", "aliases")
_REQUIRED = ("term", "definition")
# A key that names a language (`zh`, `fr`, `pt-BR`): the term's name in that language.
_LANGUAGE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")
_EXAMPLE = '"- term: GQA" with "definition:" under it'


@dataclass(frozen=True)
class Entry:
    term: str
    definition: str
    names: tuple[tuple[str, str], ...] = ()  # (language code, the term's name in it), as written
    aliases: tuple[str, ...] = ()
    line: int = 0  # in its glossary file

    @property
    def slug(self) -> str:
        """The entry's anchor on the glossary page: `term-gqa`, `term-kv-cache`."""
        return "term-" + re.sub(r"[^\w]+", "-", self.term.casefold()).strip("-")

    def name_in(self, language: str) -> str:
        """The term's name in `language` (or its base language: `pt` for `pt-BR`), else `term`."""
        names = dict(self.names)
        return names.get(language) or names.get(language.split("-")[0]) or self.term

    def label(self, language: str, book: str) -> tuple[str, str | None]:
        """What a site in `language` calls the term, and the other name shown beside it: its name
        in the `book`'s own language where that differs, else the term as pages write it where
        that differs (a Chinese name beside `GQA`); None when every name is the same."""
        shown = self.name_in(language)
        other = next((n for n in (self.name_in(book), self.term) if n != shown), None)
        return shown, other


@functools.lru_cache(maxsize=8)  # the same text composes once per process (`mkdocs serve`)
def _compose(text: str) -> yaml.Node | None:
    """The YAML nodes of a glossary's text (read, never changed, by `Glossary.load`)."""
    return yaml.compose(text)


@dataclass
class Glossary:
    src: str = f"docs/{FILE_NAME}"  # as errors name it
    entries: list[Entry] = field(default_factory=list)
    _names: dict[str, Entry] = field(default_factory=dict)

    @classmethod
    def load(cls, path: Path, src: str) -> Glossary:
        """The glossary in `path` (empty when there is none); AuthorError at a malformed entry."""
        glossary = cls(src)
        if not path.is_file():
            return glossary
        try:
            root = _compose(path.read_text(encoding="utf-8-sig"))
        except yaml.MarkedYAMLError as error:
            mark = error.problem_mark or error.context_mark
            line = mark.line + 1 if mark is not None else 1
            raise AuthorError(
                src, line, f"glossary.yml is not valid YAML ({error.problem})", f"write {_EXAMPLE}"
            ) from None
        if root is None:
            return glossary
        if not isinstance(root, yaml.SequenceNode):
            raise AuthorError(
                src, _line(root), "glossary.yml is a list of entries", f"write each as {_EXAMPLE}"
            )
        for node in root.value:
            glossary.add(_entry(src, node))
        return glossary

    def named_as(self, source: Glossary) -> Glossary:
        """This translated glossary with the names its entries leave out taken from the same
        terms' entries in `source` (a translation gives its own language's name, or none)."""
        out = Glossary(self.src)
        for entry in self.entries:
            theirs = source.lookup(entry.term)
            names = {**dict(theirs.names if theirs else ()), **dict(entry.names)}
            out.add(dataclasses.replace(entry, names=tuple(names.items())))
        return out

    def add(self, entry: Entry) -> None:
        for name in (entry.term, *entry.aliases):
            known = self._names.get(_key(name))
            if known is not None:
                raise AuthorError(
                    self.src,
                    entry.line,
                    f"the name {quoted(repr(name))} is given twice (entry {known.term} on line {known.line})",
                    "keep one entry for a term, its other names as its aliases",
                )
            self._names[_key(name)] = entry
        self.entries.append(entry)

    def lookup(self, name: str) -> Entry | None:
        """The entry called `name` (its term or an alias; case, spaces and hyphens aside)."""
        return self._names.get(_key(name))

    def nearest(self, name: str) -> list[str]:
        """The terms closest to `name`, nearest first (for an error's fix)."""
        names = {_key(n): e.term for e in self.entries for n in (e.term, *e.aliases)}
        close = difflib.get_close_matches(_key(name), list(names), n=6, cutoff=0.5)
        return list(dict.fromkeys(names[k] for k in close))[:3]


def _key(name: str) -> str:
    return re.sub(r"[\s_\-]+", "", name.casefold())


def _line(node: yaml.Node) -> int:
    return node.start_mark.line + 1


def _entry(src: str, node: yaml.Node) -> Entry:
    """One entry, checked: the mapping of `term`, `definition`, optional `aliases` and names."""
    if not isinstance(node, yaml.MappingNode):
        raise AuthorError(src, _line(node), "a glossary entry is a mapping", f"write {_EXAMPLE}")
    values: dict[str, yaml.Node] = {}
    names: list[tuple[str, str]] = []
    for key_node, value_node in node.value:
        key = str(key_node.value)
        if key in _KEYS:
            values[key] = value_node
        elif _LANGUAGE.fullmatch(key):
            names.append((key, _text(src, value_node, f"{key} name")))
        else:
            raise AuthorError(
                src,
                _line(key_node),
                f"a glossary entry has the unknown key {quoted(repr(key))}",
                f"use only {', '.join(_KEYS)}, and a language's code for the term's name in "
                'that language ("fr: Attention à requêtes groupées")',
            )
    name = _text(src, values["term"], "term") if "term" in values else None
    for key in _REQUIRED:
        if key not in values:
            which = f"the entry {name}" if name else "a glossary entry"
            raise AuthorError(
                src, _line(node), f"{which} has no {key}", f'add "{key}:" to it ({_EXAMPLE})'
            )
    aliases = values.get("aliases")
    return Entry(
        _text(src, values["term"], "term"),
        _text(src, values["definition"], "definition"),
        tuple(names),
        _aliases(src, aliases) if aliases is not None else (),
        _line(node),
    )


def _text(src: str, node: yaml.Node, key: str) -> str:
    text = str(node.value).strip() if isinstance(node, yaml.ScalarNode) else ""
    if not text or "\n" in text:
        raise AuthorError(
            src,
            _line(node),
            f"the {key} of a glossary entry is one line of text",
            f'write "{key.split()[0]}: …" with the text on the same line',
        )
    return text


def _aliases(src: str, node: yaml.Node) -> tuple[str, ...]:
    if not isinstance(node, yaml.SequenceNode):
        raise AuthorError(
            src,
            _line(node),
            "aliases of a glossary entry are a list",
            'write "aliases: [Grouped-Query Attention]"',
        )
    return tuple(_text(src, item, "alias") for item in node.value)

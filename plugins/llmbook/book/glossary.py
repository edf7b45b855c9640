"""The book's glossary: one data file, `docs/glossary.yml`, read and checked at the build's start.

    - term: GQA
      zh: 分组查询注意力
      definition: 把查询头分成几组、每组共用一对 K/V 头的注意力。
      aliases: [Grouped-Query Attention]

Every entry needs `term`, `zh` and a one-line `definition`; `aliases` are other names a page may
write. A malformed entry stops the build at its line in glossary.yml (PyYAML's node marks).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from llmbook.errors import AuthorError, quoted

__all__ = ["FILE_NAME", "Entry", "Glossary"]

FILE_NAME = "glossary.yml"
_KEYS = ("term", "zh", "definition", "aliases")
_REQUIRED = ("term", "zh", "definition")
_EXAMPLE = '"- term: GQA" with "zh:" and "definition:" under it'


@dataclass(frozen=True)
class Entry:
    term: str
    zh: str
    definition: str
    aliases: tuple[str, ...] = ()
    line: int = 0  # in glossary.yml
    english: bool = (
        False  # from a translated glossary (`glossary.en.yml`): its definition is English
    )

    @property
    def slug(self) -> str:
        """The entry's anchor on the glossary page: `term-gqa`, `term-kv-cache`."""
        return "term-" + re.sub(r"[^\w]+", "-", self.term.casefold()).strip("-")

    @property
    def title(self) -> str:
        """What a term's link shows on hover: `分组查询注意力：把查询头分成…`."""
        if self.english:
            return f"{self.term} ({self.zh}): {self.definition}"
        return f"{self.zh}：{self.definition}"


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
            root = yaml.compose(path.read_text(encoding="utf-8-sig"))
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
        english = path.name != FILE_NAME and not path.name.endswith(".zh.yml")
        for node in root.value:
            glossary.add(dataclasses.replace(_entry(src, node), english=english))
        return glossary

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
    """One entry, checked: the mapping of `term`, `zh`, `definition` and optional `aliases`."""
    if not isinstance(node, yaml.MappingNode):
        raise AuthorError(src, _line(node), "a glossary entry is a mapping", f"write {_EXAMPLE}")
    values: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value)
        if key not in _KEYS:
            raise AuthorError(
                src,
                _line(key_node),
                f"a glossary entry has the unknown key {quoted(repr(key))}",
                f"use only {', '.join(_KEYS)}",
            )
        values[key] = value_node
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
        _text(src, values["zh"], "zh"),
        _text(src, values["definition"], "definition"),
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
            f'write "{key}: …" with the text on the same line',
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

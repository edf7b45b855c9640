"""The directives one build knows, by name: the shipped ones and the book's own box types.

A registry belongs to the build (as pymdown-extensions' blocks belong to one Markdown instance),
made once from its options (`box_types`) and passed to every stage that reads a page; nothing is
registered by importing a module. It is immutable: a build that wants more makes a new one
(`extended`). A duplicate name is a programming or configuration error, raised at once.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator

from llmbook.directives.base import Directive

__all__ = ["DuplicateDirective", "Registry"]


class DuplicateDirective(ValueError):
    """Two directives of one registry share a name (or one has none)."""


class Registry:
    """Directive name → its (stateless) instance, in the order they were given."""

    def __init__(self, classes: Iterable[type[Directive]] = ()) -> None:
        self._directives: dict[str, Directive] = {}
        for cls in classes:
            if not cls.NAME:
                raise DuplicateDirective(f"directive class {cls.__name__} has no NAME")
            if cls.NAME in self._directives:
                raise DuplicateDirective(f"directive {cls.NAME!r} is registered twice")
            self._directives[cls.NAME] = cls()

    def extended(self, classes: Iterable[type[Directive]]) -> Registry:
        """A new registry: these directives and `classes` (a name already taken raises)."""
        return Registry([*(type(d) for d in self), *classes])

    def key(self) -> list[list[object]]:
        """What a cache of checked or rendered pages keys on: each directive's name, class and
        declared data (a configured box's icon, title, collapse)."""
        return [[d.NAME, type(d).__qualname__, sorted(_declared(type(d)).items())] for d in self]

    def get(self, name: str) -> Directive | None:
        return self._directives.get(name)

    def names(self) -> list[str]:
        return sorted(self._directives)

    def __contains__(self, name: object) -> bool:
        return name in self._directives

    def __iter__(self) -> Iterator[Directive]:
        return iter(self._directives.values())

    def __len__(self) -> int:
        return len(self._directives)


def _declared(cls: type) -> dict[str, str]:
    """A directive class's own upper-case class attributes, as text the same in every process
    (a validator is named by its qualified name, never by its address)."""
    return {k: _stable(v) for k, v in vars(cls).items() if k.isupper()}


def _stable(value: object) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_stable(k)}: {_stable(v)}" for k, v in value.items()) + "}"
    if isinstance(value, set | frozenset):
        return "{" + ", ".join(sorted(map(_stable, value))) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_stable, value)) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = (f"{f.name}={_stable(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__qualname__}({', '.join(fields)})"
    if callable(value):
        name = getattr(value, "__qualname__", type(value).__qualname__)
        return f"{getattr(value, '__module__', '')}.{name}"
    return _ADDRESS.sub("", repr(value))  # an object's default repr holds its address


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")

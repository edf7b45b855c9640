"""Which module defines each demo, known without importing any of them (they import torch): every
module of this package whose class states `ID = "…"` is a demo's, found by reading its source.
Adding a demo is its module and its small script; no list to keep.

A demo module registers its class with `@register` when it is first imported (see base.get_demo).
"""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["MODULES", "declared_ids"]


def declared_ids(source: str) -> list[str]:
    """The `ID = "…"` string constants that classes of `source` state at their top level."""
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if (
                isinstance(statement, ast.Assign)
                and [getattr(t, "id", None) for t in statement.targets] == ["ID"]
                and isinstance(statement.value, ast.Constant)
                and isinstance(statement.value.value, str)
            ):
                found.append(statement.value.value)
    return found


def _catalog() -> dict[str, str]:
    modules: dict[str, str] = {}
    for path in sorted(Path(__file__).parent.glob("*.py")):
        for demo_id in filter(None, declared_ids(path.read_text(encoding="utf-8"))):
            if demo_id in modules:
                raise RuntimeError(f"demo ID {demo_id!r} is declared twice ({path.name})")
            modules[demo_id] = f"llmbook.demos.{path.stem}"
    return modules


MODULES: dict[str, str] = _catalog()

"""`llmbook new DIR --language L`: a new book that builds with `mkdocs build --strict` at once.

The files are package data (llmbook/templates/<language>/): one whole folder per language
llmbook ships a locale for, every file in that language (its comments, the workflow's step names,
the first page). Names that start with a dot are stored without it (`gitignore`, `github/`), so no
packaging step can drop them, and get it back when written.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from llmbook.core.i18n import shipped_languages

__all__ = ["NotEmpty", "new_book"]

# Stored without their dot (see above); written with it.
_DOTTED = {"gitignore": ".gitignore", "github": ".github"}


class NotEmpty(Exception):
    """The folder for a new book already holds something: nothing is written into it."""


def new_book(folder: Path, *, language: str) -> list[Path]:
    """Write a new book in `language` into `folder` (created; it must be empty or absent); the
    files written."""
    if language not in shipped_languages():
        raise ValueError(
            f"llmbook new writes a book in {', '.join(shipped_languages())}, not {language!r}"
        )
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise NotEmpty(
            f"{folder} is not empty: `llmbook new` writes a book only into an empty or new "
            "folder. Fix: choose a new folder name, or empty this one."
        )
    return _copy(resources.files("llmbook") / "templates" / language, folder)


def _copy(source: Traversable, target: Path) -> list[Path]:
    written = []
    for entry in sorted(source.iterdir(), key=lambda e: e.name):
        if entry.name == "__pycache__":
            continue
        path = target / _DOTTED.get(entry.name, entry.name)
        if entry.is_dir():
            written += _copy(entry, path)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(entry.read_bytes())
            written.append(path)
    return written

"""`llmbook new DIR`: a new book that builds with `mkdocs build --strict` at once.

The files are package data (llmbook/templates/): `common/` for every language, then the
language's own folder. Names that start with a dot are stored without it (`gitignore`,
`github/`), so no packaging step can drop them, and get it back when written. A book in Chinese,
Japanese or Korean requires `llmbook[cjk]` (cjk.py) in its requirements.txt, any other `llmbook`.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from llmbook.cjk import cjk_languages

__all__ = ["LANGUAGES", "NotEmpty", "new_book"]

LANGUAGES = ("en", "zh")
# Stored without their dot (see above); written with it.
_DOTTED = {"gitignore": ".gitignore", "github": ".github"}


class NotEmpty(Exception):
    """The folder for a new book already holds something: nothing is written into it."""


def new_book(folder: Path, language: str = "en") -> list[Path]:
    """Write a new book into `folder` (created; it must be empty or absent); the files written."""
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {LANGUAGES}")
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise NotEmpty(
            f"{folder} is not empty: `llmbook new` writes a book only into an empty or new "
            "folder. Fix: choose a new folder name, or empty this one."
        )
    templates = resources.files("llmbook") / "templates"
    written: list[Path] = []
    for part in ("common", language):
        written += _copy(templates / part, folder)
    if cjk_languages([language]):
        requirements = folder / "requirements.txt"
        lines = requirements.read_text(encoding="utf-8").splitlines(keepends=True)
        lines = ["llmbook[cjk]\n" if line.strip() == "llmbook" else line for line in lines]
        requirements.write_text("".join(lines), encoding="utf-8")
    return written


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

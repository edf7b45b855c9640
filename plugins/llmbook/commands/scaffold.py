"""`llmbook new DIR --language L [--engine E]`: a new book that builds at once, with MkDocs
(`mkdocs build --strict`, the default) or with Zensical (its README and workflow say how).

The files are package data (llmbook/templates/<language>/): one whole folder per language
llmbook ships a locale for, every file in that language (its comments, the workflow's step names,
the first page), the book as MkDocs builds it. Another engine's folder
(llmbook/templates/<engine>/<language>/) holds the files that differ under it (README.md,
requirements.txt, the workflow), written over those; a file named `X.append` there is added to
the end of X. Zensical links only the stylesheets and scripts the config lists (the MkDocs plugin
links llmbook's by itself): its mkdocs.yml ends with its comment (`mkdocs.yml.append`) and the
lists of llmbook's assets, as this llmbook ships them. Names that start with a dot are stored
without it (`gitignore`, `github/`), so no packaging step can drop them, and get it back when
written.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from llmbook.core.i18n import shipped_languages

__all__ = ["ENGINES", "NotEmpty", "new_book"]

# The engines a new book can be built with; the first is the default.
ENGINES = ("mkdocs", "zensical")

# Stored without their dot (see above); written with it.
_DOTTED = {"gitignore": ".gitignore", "github": ".github"}


class NotEmpty(Exception):
    """The folder for a new book already holds something: nothing is written into it."""


def new_book(folder: Path, *, language: str, engine: str = ENGINES[0]) -> list[Path]:
    """Write a new book in `language`, built with `engine`, into `folder` (created; it must be
    empty or absent); the files written."""
    if language not in shipped_languages():
        raise ValueError(
            f"llmbook new writes a book in {', '.join(shipped_languages())}, not {language!r}"
        )
    if engine not in ENGINES:
        raise ValueError(
            f"llmbook new writes a book built with {' or '.join(ENGINES)}, not {engine!r}"
        )
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise NotEmpty(
            f"{folder} is not empty: `llmbook new` writes a book only into an empty or new "
            "folder. Fix: choose a new folder name, or empty this one."
        )
    templates = resources.files("llmbook") / "templates"
    written = _copy(templates / language, folder)
    if engine != ENGINES[0]:  # its own README, requirements and workflow, over MkDocs'
        written += [p for p in _copy(templates / engine / language, folder) if p not in written]
    if engine == "zensical":
        with (folder / "mkdocs.yml").open("a", encoding="utf-8") as config:
            config.write(_asset_lists())
    return written


def _asset_lists() -> str:
    """`extra_css` and `extra_javascript` listing llmbook's assets (the iframe-worker shim is in
    `extra.polyfills` already), as Zensical reads them."""
    from llmbook.core.assets import SITE_PREFIX, asset_paths  # MkDocs' config: only here

    files = [f"{SITE_PREFIX}/{rel}" for rel in asset_paths() if "iframe-worker" not in rel]
    lines = []
    for key, suffix in (("extra_css", ".css"), ("extra_javascript", ".js")):
        lines += [f"{key}:", *(f"  - {path}" for path in files if path.endswith(suffix))]
    return "\n".join(lines) + "\n"


def _copy(source: Traversable, target: Path) -> list[Path]:
    written = []
    for entry in sorted(source.iterdir(), key=lambda e: e.name):
        if entry.name == "__pycache__":
            continue
        name = entry.name.removesuffix(".append")
        path = target / _DOTTED.get(name, name)
        if entry.is_dir():
            written += _copy(entry, path)
        elif name != entry.name:  # to the end of the file the folder below wrote
            with path.open("ab") as end:
                end.write(entry.read_bytes())
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(entry.read_bytes())
            written.append(path)
    return written

"""Notebooks as pages under Zensical: each notebook page `docs/x.ipynb` has a twin `docs/x.md`.

Zensical renders only the `*.md` files it finds in docs_dir (a `.ipynb` is copied as a file) and
runs no plugin that could add a page. So `python -m llmbook zensical-config` writes, beside each
notebook that is a page (not a translation), a small Markdown file that names it in its front
matter; the extension, handed the twin, renders the notebook's page in its place, as it renders
a translation in place of its source. A twin is written by that command only, the same for every
edition of the book, and can be git-ignored. MkDocs never builds one: `x.ipynb` is its page.

`docs_files` walks the docs folder once for the Zensical build: its pages (Markdown pages and
notebooks, no twin, no translation), each twin's notebook, and the translations; `check` stops
the build where a twin is missing, stale or not one (a Markdown page written beside a notebook).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from llmbook.core.errors import AuthorError, LLMBookError

__all__ = [
    "MARK",
    "DocsFiles",
    "docs_files",
    "drop_twin",
    "is_twin",
    "twin_text",
    "write_twins",
]

MARK = "llmbook_notebook"  # the twin's front matter key: the notebook's file name
_TWIN = re.compile(rb"\A---\r?\n" + MARK.encode() + rb": ")
_HEAD = 64  # bytes of a Markdown file read to tell a twin


def twin_text(notebook: str) -> str:
    """The twin of notebook `notebook` (its file name, `x.ipynb`), as zensical-config writes it."""
    return (
        f"---\n{MARK}: {notebook}\n---\n"
        f"<!-- Written by `python -m llmbook zensical-config` for Zensical: the page of "
        f"{notebook}, rendered from the notebook. Do not edit; it can be git-ignored. -->\n"
    )


def is_twin(head: bytes) -> bool:
    """Whether a Markdown file starting with `head` is a twin (written by zensical-config)."""
    return _TWIN.match(head) is not None


def drop_twin(files: Any, notebook: Any) -> None:
    """MkDocs' files (`Files`) without the twin of `notebook` (a `File`): MkDocs builds the
    notebook as its page."""
    twin = files.get_file_from_path(notebook.src_uri[: -len(".ipynb")] + ".md")
    if twin is not None and twin.abs_src_path is not None:
        with open(twin.abs_src_path, "rb") as source:
            if is_twin(source.read(_HEAD)):
                files.remove(twin)


@dataclass
class DocsFiles:
    """The docs folder as a Zensical build reads it (paths as errors name them: `docs/x.md`)."""

    pages: list[str] = field(default_factory=list)  # Markdown pages and notebooks, sorted
    twins: dict[str, str] = field(default_factory=dict)  # twin → its notebook
    translations: list[str] = field(default_factory=list)
    stale: list[AuthorError] = field(default_factory=list)  # twins missing, edited or orphaned
    beside: list[AuthorError] = field(default_factory=list)  # pages written beside a notebook

    def check(self, config_name: str) -> None:
        """Stop the build with every missing, stale or hand-written twin, each with its fix."""
        if self.stale or self.beside:
            fix = _fix(config_name)
            lines = [f"{e} Fix: {fix}" for e in self.stale] + [str(e) for e in self.beside]
            raise LLMBookError("\n".join(lines))


def docs_files(docs_dir: Path, root: Path, is_translation: Callable[[str], bool]) -> DocsFiles:
    """Every page the Zensical build runs, each twin and translation, and what is wrong."""
    found = DocsFiles()
    markdown: set[str] = set()
    notebooks: set[str] = set()
    for folder, dirs, names in os.walk(docs_dir):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))  # as MkDocs: no hidden folder
        for name in names:
            if name.startswith(".") or not name.endswith((".md", ".ipynb")):
                continue
            src = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if is_translation(src):
                found.translations.append(src)
            else:
                (markdown if name.endswith(".md") else notebooks).add(src)
    for src in sorted(markdown):
        with open(root / src, "rb") as file:
            if is_twin(file.read(_HEAD)):
                found.twins[src] = posixpath.splitext(src)[0] + ".ipynb"
    _twin_problems(found, root, markdown, notebooks)
    found.pages = sorted((markdown - found.twins.keys()) | notebooks)
    found.translations.sort()
    return found


def _twin_problems(found: DocsFiles, root: Path, markdown: set[str], notebooks: set[str]) -> None:
    for twin, notebook in found.twins.items():
        if notebook not in notebooks:
            found.stale.append(
                AuthorError(twin, 1, f"the page of notebook {notebook}, which is gone")
            )
        elif _text(root / twin) != twin_text(posixpath.basename(notebook)):
            problem = f"its page for Zensical, {twin}, is not the one written for it"
            found.stale.append(AuthorError(notebook, 1, problem))
    for notebook in sorted(notebooks):
        twin = posixpath.splitext(notebook)[0] + ".md"
        if twin not in markdown:
            problem = f"Zensical builds no page of it: its twin {twin} is missing"
            found.stale.append(AuthorError(notebook, 1, problem))
        elif twin not in found.twins:
            found.beside.append(
                AuthorError(
                    notebook,
                    1,
                    f"{twin} beside it is a page of its own, where Zensical needs the notebook's "
                    "page (both would be built as one file)",
                    "rename one of the two",
                )
            )


def _fix(config_name: str) -> str:
    written = config_name.replace(".zensical.", ".")
    return f"`python -m llmbook zensical-config {written}` writes the twins again"


def _text(path: Path) -> str:
    """A twin's text, its line ends as written (a checkout may have made them CRLF)."""
    return path.read_bytes().decode("utf-8", "replace").replace("\r\n", "\n")


def write_twins(docs_dir: Path, is_translation: Callable[[str], bool]) -> list[Path]:
    """A twin beside each notebook page of `docs_dir`, twins whose notebook is gone removed; the
    twins written. A Markdown page beside a notebook (not a twin) stops it."""
    files = docs_files(docs_dir, docs_dir.parent, is_translation)
    if files.beside:
        raise LLMBookError("\n".join(str(e) for e in files.beside))
    for twin, notebook in files.twins.items():
        if not (docs_dir.parent / notebook).is_file():
            (docs_dir.parent / twin).unlink()
    written = []
    for src in files.pages:
        if src.endswith(".ipynb"):
            path = docs_dir.parent / (posixpath.splitext(src)[0] + ".md")
            text = twin_text(posixpath.basename(src))
            if not path.is_file() or _text(path) != text:
                path.write_text(text, encoding="utf-8", newline="\n")
            written.append(path)
    return written

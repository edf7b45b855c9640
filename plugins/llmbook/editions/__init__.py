"""The book's editions beside the site: a PDF (Typst) and an EPUB 3, made from the built pages.

They are made after the site is built, from its HTML: the same proven pages (a drifted number or
a failing block has already stopped the build), put in print form (`print_form.py`) with the
book's anchors (`article.py`), converted by pandoc (`pandoc.py`, memoised per page in the store)
and laid out by Typst (`pdf.py`) or packed as EPUB (`epub.py`). The engine's adapter gives the
pages in the book's order; nothing here knows MkDocs.
"""

from __future__ import annotations

import fnmatch
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from llmbook.core.store import Store
from llmbook.editions.colophon import colophon_html
from llmbook.editions.links import edition_name
from llmbook.editions.model import Book, BookPage

__all__ = ["Book", "BookPage", "book_pages", "edition_kinds", "editions_dir", "make_editions"]

KINDS = ("pdf", "epub")


def edition_kinds(configured: Sequence[str]) -> tuple[str, ...]:
    """The editions this build makes: `LLMBOOK_EDITIONS` (`pdf,epub`), else the option's list."""
    chosen = os.environ.get("LLMBOOK_EDITIONS")
    names = configured if chosen is None else [n.strip() for n in chosen.split(",") if n.strip()]
    unknown = [n for n in names if n not in KINDS]
    if unknown:
        from llmbook.core.errors import LLMBookError

        raise LLMBookError(
            f"editions: {', '.join(unknown)} is no edition. Fix: choose among {', '.join(KINDS)} "
            "(the llmbook option `editions`, or LLMBOOK_EDITIONS=pdf,epub)"
        )
    return tuple(dict.fromkeys(names))


def book_pages(pages: Sequence[BookPage], docs_dir: str, skip: Sequence[str]) -> list[BookPage]:
    """The pages of the book: the site's in nav order, but those matching a `skip` pattern
    (relative to docs_dir, e.g. `guide/*`)."""
    kept = []
    for page in pages:
        rel = os.path.relpath(page.src, docs_dir).replace(os.sep, "/")
        if not any(fnmatch.fnmatch(rel, pattern) for pattern in skip):
            kept.append(page)
    return kept


def editions_dir(root: Path, configured: str) -> Path:
    """Where the editions go: LLMBOOK_EDITIONS_DIR, else the `editions_dir` option (from root)."""
    return Path(os.environ.get("LLMBOOK_EDITIONS_DIR") or root / configured)


def make_editions(
    kinds: Sequence[str],
    pages: Sequence[BookPage],
    *,
    site_dir: Path,
    out_dir: Path,
    store: Store,
    book: Book,
    log: Callable[[str], None],
    languages: Sequence[str] = (),
) -> list[Path]:
    """Write each edition of `kinds` into `out_dir` and a copy into the site's root, where the
    site's pages link it; the paths in `out_dir`. Named by the book's language among the
    `languages` option's (`links.edition_name`): llmbook.pdf, llmbook.epub in the book's own,
    llmbook.en.pdf in English, so one folder holds every language's."""
    missing = [page.url for page in pages if not (site_dir / page.url).is_file()]
    if missing:
        from llmbook.core.errors import LLMBookError

        raise LLMBookError(
            f"editions: {site_dir / missing[0]} is missing ({len(missing)} of the book's pages "
            "are not built). Fix: build the site first, then make the editions from it"
        )
    built = [(page, (site_dir / page.url).read_text(encoding="utf-8")) for page in pages]
    ending = colophon_html(site_dir, pages, book.locale)  # the versions that computed the book
    made = []
    for kind in kinds:
        start = time.perf_counter()
        out = out_dir / edition_name(kind, book.locale.code, languages)
        with tempfile.TemporaryDirectory(prefix=f"llmbook-{kind}-") as folder:
            if kind == "pdf":
                from llmbook.editions.pdf import make_pdf

                make_pdf(built, site_dir, Path(folder), store, book, out=out, ending=ending)
            else:
                from llmbook.editions.epub import make_epub

                make_epub(built, site_dir, Path(folder), store, book, out=out, ending=ending)
        size = out.stat().st_size / 2**20
        log(f"editions: {out} ({size:.1f} MB) in {time.perf_counter() - start:.1f} s")
        shutil.copyfile(out, site_dir / out.name)
        made.append(out)
    return made

"""The PDF edition: the built pages in print form, through pandoc to Typst, compiled with the
book's template (`book.typ`) and the project's CJK font (Noto Sans CJK, embedded as a subset).

Typst lays out math as math, SVG figures as vectors, code highlighted by language; PDF bookmarks
come from the headings. A glyph that no font has is an error, as in figures.
"""

from __future__ import annotations

import posixpath
import shutil
from pathlib import Path

from llmbook.core.errors import LLMBookError
from llmbook.core.store import Memo, Store, file_digest, key, write_atomic
from llmbook.core.store_namespaces import EDITIONS
from llmbook.editions.article import book_articles
from llmbook.editions.glyphs import check_glyphs, font_folders
from llmbook.editions.model import Book, BookPage
from llmbook.editions.pandoc import page_typst
from llmbook.editions.print_form import PrintPage, fragment_html, parse_fragment, print_form

__all__ = [
    "Book",
    "book_typst",
    "compile_typst",
    "make_pdf",
    "page_images",
    "printed_pages",
    "publish",
    "template_values",
]

TEMPLATE = Path(__file__).with_name("book.typ")
_RECIPE = 1  # bump when what a whole edition is made from changes


def page_images(printed: PrintPage, page: BookPage, site_dir: Path, work: Path, prefix: str) -> str:
    """The page's HTML with every image a file in `work` (drawings written, files copied)."""
    soup = parse_fragment(printed.html)
    for image in soup.select("img[src]"):
        src = image["src"]
        if src in printed.svgs:
            name = f"{prefix}-{src}"
            (work / name).write_text(printed.svgs[src], encoding="utf-8")
        else:
            path = site_dir / posixpath.normpath(posixpath.join(posixpath.dirname(page.url), src))
            if not path.is_file():
                image.decompose()  # not a file of the site (a remote image): nothing to print
                continue
            digest = file_digest(path)[:20]
            name = f"img-{digest}{path.suffix}"
            shutil.copyfile(path, work / name)
        image["src"] = name
    return fragment_html(soup)


def book_typst(built: list[tuple[BookPage, str]], site_dir: Path, work: Path, store: Store,
               book: Book, ending: str = "") -> str:  # fmt: skip
    """The whole book's Typst source (its images written into `work`); `ending`: the HTML of
    its last part (the colophon)."""
    text = TEMPLATE.read_text(encoding="utf-8")
    for name, value in template_values(book).items():
        text = text.replace("{{" + name + "}}", value.replace("\\", "\\\\").replace('"', '\\"'))
    parts = [text]
    printed = printed_pages(built, site_dir, work, book)
    check_glyphs((page.src, html) for (page, _), html in zip(built, printed, strict=True))
    for (page, _), html in zip(built, printed, strict=True):
        parts.append(f"// {page.src}\n#pagebreak(weak: true)\n" + page_typst(html, store))
    if ending:
        parts.append("// colophon\n#pagebreak(weak: true)\n" + page_typst(ending, store))
    return "\n".join(parts)


def template_values(book: Book) -> dict[str, str]:
    """What `book.typ` is filled in with: the cover, the book's language (`lang`, `region`) and
    the interface text Typst prints in it (the contents' title, a cross-reference's page)."""
    lang, _, region = book.language_tag.partition("-")
    return {
        "title": book.title,
        "subtitle": book.subtitle,
        "date": book.date,
        "lang": lang.lower(),
        "region": region.lower(),
        "contents": book.locale.ui("print_contents"),
        "page": book.locale.ui("print_page"),
    }


def printed_pages(
    built: list[tuple[BookPage, str]], site_dir: Path, work: Path, book: Book
) -> list[str]:
    """Each built page's article in print form (its directives', the words it adds in the
    book's locale), with the book's anchors, its images in `work`."""
    articles = book_articles(built)
    directives = book.registry
    return [
        page_images(
            print_form(article, book.locale, directives), page, site_dir, work, f"p{number}"
        )
        for number, ((page, _), article) in enumerate(zip(built, articles, strict=True), 1)
    ]


def compile_typst(source: str, work: Path, fonts: list[str], *, out: Path) -> list[str]:
    """Compile the book into `out` (PDF); its warnings. A missing glyph stops the build."""
    import typst

    main = work / "book.typ"
    main.write_text(source, encoding="utf-8")
    try:
        pdf, warnings = typst.compile_with_warnings(
            str(main), root=str(work), font_paths=fonts, ignore_system_fonts=True
        )
    except typst.TypstError as error:
        said = getattr(error, "diagnostic", None) or str(error)
        raise LLMBookError(f"the PDF edition did not compile: {said}") from None
    said = [str(getattr(w, "message", w)) for w in warnings]
    missing = [w for w in said if "glyph" in w or "unknown font" in w]
    if missing:
        raise LLMBookError(
            f"the PDF edition lacks glyphs: {'; '.join(missing)}. Fix: use characters the "
            "book's fonts have (Noto Sans CJK, Libertinus, DejaVu Sans Mono, New Computer Modern)"
        )
    publish(out, pdf)
    return said


def publish(out: Path, data: bytes) -> None:
    """Write an edition atomically (a reader never sees half a file), readable by all."""
    write_atomic(out, data)
    out.chmod(0o644)


def make_pdf(built: list[tuple[BookPage, str]], site_dir: Path, work: Path, store: Store,
             book: Book, *, out: Path, ending: str = "") -> None:  # fmt: skip
    """The PDF edition of the built pages (and `ending`, its last part), written to `out`."""
    import typst

    source = book_typst(built, site_dir, work, store, book, ending)
    memo = edition_memo(store, "pdf", source, work, typst.__version__)
    made = memo.get()
    if made is not None:
        publish(out, made)
        return
    compile_typst(source, work, font_folders(), out=out)
    memo.put(out.read_bytes())


def edition_memo(store: Store, kind: str, source: str, work: Path, tool: str) -> Memo:
    """Where a whole edition is kept: keyed by its source, every file beside it (the images)
    and the tool's version; an unchanged book is not laid out again."""
    files = sorted((p.name, file_digest(p)) for p in work.iterdir() if p.is_file())
    return store.memo(EDITIONS, key(kind, _RECIPE, tool, source, files), codec="bytes")

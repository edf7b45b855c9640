"""The EPUB 3 edition: the built pages in print form, one chapter per page, packed by pandoc.

XHTML with MathML math (pandoc's default for EPUB 3), the figures as SVG files, a navigation
document with chapters and sections, the directives' print forms styled by `epub.css`. The CJK font
is left to the reader (the style names Noto Sans CJK and common fallbacks): embedding it would
add megabytes to every copy.
"""

from __future__ import annotations

import re
from pathlib import Path

from llmbook.core.store import Store
from llmbook.editions.model import Book, BookPage
from llmbook.editions.pandoc import pandoc_version, run_pandoc
from llmbook.editions.pdf import edition_memo, printed_pages, publish
from llmbook.editions.print_form import fragment_html, parse_fragment

__all__ = ["make_epub"]

STYLE = Path(__file__).with_name("epub.css")


def _figure_anchors(html: str) -> str:
    """A figure's id on a div around it: pandoc's EPUB writer links across chapter files to the
    ids of divs and headings, not to those of figures."""
    soup = parse_fragment(html)
    for figure in soup.select("figure[id]"):
        figure.wrap(soup.new_tag("div", attrs={"id": figure.attrs.pop("id")}))
    return fragment_html(soup)


def identifier(out: Path, title: str) -> str:
    """The EPUB's identifier, named after the book's title: each language's edition is a
    publication of its own (`llmbook.epub`: `urn:llmbook:<title>`; `llmbook.en.epub`: `….en`)."""
    name = re.sub(r"[^\w]+", "-", title.lower()).strip("-") or "book"
    return f"urn:llmbook:{name}" + out.stem.removeprefix("llmbook")


def make_epub(built: list[tuple[BookPage, str]], site_dir: Path, work: Path, store: Store,
              book: Book, *, out: Path, ending: str = "") -> None:  # fmt: skip
    """The EPUB edition of the built pages (and `ending`, its last part), written to `out`."""
    parts = [_figure_anchors(html) for html in printed_pages(built, site_dir, work, book)]
    parts += [ending] if ending else []
    source = work / "book.html"
    source.write_text(
        f'<html lang="{book.language_tag}"><head><title>{book.title}</title></head><body>'
        + "\n".join(parts)
        + "</body></html>",
        encoding="utf-8",
    )
    recipe = (
        STYLE.read_text(encoding="utf-8")
        + repr((book.title, book.subtitle, book.date, book.locale.digest))
        + identifier(out, book.title)
    )
    memo = edition_memo(store, "epub", recipe, work, pandoc_version())
    made = memo.get()  # the key holds book.html and the images: every file in `work`
    if made is not None:
        publish(out, made)
        return
    packed = work / "book.epub"
    run_pandoc(
        [
            "-f", "html", "-t", "epub3", str(source), "-o", str(packed),
            "--resource-path", str(work), "--css", str(STYLE), "--split-level=1",
            "--toc", "--toc-depth=2", "--mathml",
            "--metadata", f"title={book.title}", "--metadata", f"subtitle={book.subtitle}",
            "--metadata", f"lang={book.language_tag}", "--metadata", f"date={book.date}",
            "--metadata", f"identifier={identifier(out, book.title)}",
        ],
        "",
    )  # fmt: skip
    publish(out, packed.read_bytes())
    memo.put(packed.read_bytes())

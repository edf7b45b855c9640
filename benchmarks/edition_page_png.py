"""A page of a language's PDF edition as PNG, for the eye: the book's Typst source made again
from the site that language's build left (the source its PDF was compiled from) and rendered by
Typst. Run it after the build, from the project root:

    mkdocs build --strict && mkdocs build --strict -f mkdocs.en.yml
    python benchmarks/edition_page_png.py -f mkdocs.en.yml --page 1
    # → benchmarks/results/llmbook.en.pdf-page1.png
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-f", "--config-file", default="mkdocs.yml")
    parser.add_argument("--page", type=int, default=1, help="the PDF's page, from 1 (the cover)")
    parser.add_argument("--ppi", type=int, default=110)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "plugins"))
    import typst
    from llmbook.core.i18n import options_locale
    from llmbook.core.nav import nav_pages
    from llmbook.core.project import read_mkdocs_yml
    from llmbook.core.store import Store
    from llmbook.editions import book_pages
    from llmbook.editions.__main__ import _built, _llmbook_options
    from llmbook.editions.glyphs import font_folders
    from llmbook.editions.links import edition_name
    from llmbook.editions.model import Book, BookPage
    from llmbook.editions.pdf import book_typst

    config = read_mkdocs_yml(ROOT / args.config_file)
    options, docs = _llmbook_options(config), config.get("docs_dir") or "docs"
    site = ROOT / (config.get("site_dir") or "site")
    directory_urls = config.get("use_directory_urls", True)
    pages = [
        BookPage(f"{docs}/{page.uri}", _built(page.uri, directory_urls), page.title)
        for page in nav_pages(config.get("nav") or [])
        if page.uri.endswith((".md", ".ipynb"))
    ]
    pages = book_pages(pages, docs, options.get("editions_skip") or [])
    built = [(page, (site / page.url).read_text(encoding="utf-8")) for page in pages]
    language = options.get("language") or (config.get("theme") or {}).get("language") or ""
    locale = options_locale({**options, "language": language}, ROOT)
    book = Book.dated(config["site_name"], config.get("site_description") or "", locale)
    name = edition_name("pdf", locale.code, options.get("languages") or ())
    with tempfile.TemporaryDirectory(prefix="llmbook-png-") as folder:
        work = Path(folder)
        source = book_typst(built, site, work, Store(None), book)
        (work / "book.typ").write_text(source, encoding="utf-8")
        pngs = typst.compile(
            str(work / "book.typ"), root=str(work), font_paths=font_folders(),
            ignore_system_fonts=True, format="png", ppi=args.ppi,
        )  # fmt: skip
    pngs = pngs if isinstance(pngs, list) else [pngs]
    out = RESULTS / f"{name}-page{args.page}.png"
    out.write_bytes(pngs[args.page - 1])
    print(f"{out.relative_to(ROOT)}: page {args.page} of {len(pngs)}")


if __name__ == "__main__":
    main()

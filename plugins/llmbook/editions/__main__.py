"""`python -m llmbook.editions pdf epub`: the editions of a site an engine has just built.

The MkDocs plugin makes the editions itself (`LLMBOOK_EDITIONS`); a Zensical build, which has no
hook after the build for us, is followed by this command. It reads mkdocs.yml (and what it
INHERITs) for the nav (the book's order), the site folder, the title, the language and the llmbook
options (`editions_dir`, `editions_skip`, `languages`, the cache), and makes the editions from the
built pages: run it right after the build, so the pages it reads are the ones the build proved
(`-f mkdocs.en.yml` after the English build: llmbook.en.pdf).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from llmbook.core.errors import LLMBookError
from llmbook.core.i18n import options_locale
from llmbook.core.nav import nav_pages
from llmbook.core.project import read_mkdocs_yml
from llmbook.core.store import open_store
from llmbook.core.store_builds import record_build
from llmbook.directives.shipped import book_directives
from llmbook.editions import KINDS, Book, BookPage, book_pages, editions_dir, make_editions


def _built(uri: str, directory_urls: bool) -> str:
    """The built file of a page (`a/b.md` → `a/b.html`, or `a/b/index.html`)."""
    stem = uri.rsplit(".", 1)[0]
    return f"{stem}/index.html" if directory_urls and not stem.endswith("index") else f"{stem}.html"


def _llmbook_options(config: dict[str, Any]) -> dict[str, Any]:
    for plugin in config.get("plugins") or []:
        if isinstance(plugin, dict) and "llmbook" in plugin:
            return dict(plugin["llmbook"] or {})
    return {}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m llmbook.editions", description=__doc__)
    parser.add_argument("kinds", nargs="+", choices=KINDS)
    parser.add_argument("-f", "--config-file", default="mkdocs.yml")
    parser.add_argument("--site", help="the built site (default: mkdocs.yml's site_dir)")
    args = parser.parse_args(argv)
    config_file = Path(args.config_file).resolve()
    config = read_mkdocs_yml(config_file)
    root, options = config_file.parent, _llmbook_options(config)
    docs = config.get("docs_dir") or "docs"
    site_dir = Path(args.site or root / (config.get("site_dir") or "site")).resolve()
    directory_urls = config.get("use_directory_urls", True)
    pages = [
        BookPage(f"{docs}/{page.uri}", _built(page.uri, directory_urls), page.title)
        for page in nav_pages(config.get("nav") or [])
        if page.uri.endswith((".md", ".ipynb"))
    ]
    theme = config.get("theme")
    language = options.get("language") or (theme.get("language") if isinstance(theme, dict) else "")
    try:
        locale = options_locale({**options, "language": language}, root)
        directives = book_directives(options)  # the book's box types too
    except LLMBookError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    book = Book.dated(
        str(config.get("site_name", "")),
        str(config.get("site_description") or ""),
        locale,
        directives,
    )
    out = editions_dir(root, options.get("editions_dir", "dist"))
    store = open_store(
        root, enabled=options.get("cache", True), folder=options.get("cache_dir", ".llmbook-cache")
    )
    cwd = os.getcwd()
    os.chdir(root)  # errors name pages from the project root, as the build does
    try:
        kept = book_pages(pages, docs, options.get("editions_skip") or [])
        built = [page for page in kept if (site_dir / page.url).is_file()]
        if built:  # a page this engine did not build is left out, said
            for page in kept:
                if page not in built:
                    print(f"editions: {page.src} is left out: the site has no {page.url}")
            kept = built
        make_editions(args.kinds, kept, site_dir=site_dir, out_dir=out, store=store, book=book,
                      log=print, languages=options.get("languages") or ())  # fmt: skip
        record_build(store, f"{config_file.name} (llmbook.editions)")  # kept by cache prune
    except LLMBookError as error:
        print(f"Error: {error}", file=sys.stderr)
        return 1
    finally:
        os.chdir(cwd)
    return 0


if __name__ == "__main__":
    sys.exit(main())

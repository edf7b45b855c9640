"""Every namespace of the store, declared once: its name, what its entries hold, what they key on
and what else makes an entry stale. `Store` refuses a namespace not declared here (a bug of
ours), the guide's table of namespaces (docs/guide/executable*.md) and the namespace test are
checked against this table, and `llmbook cache info` lists it. A caller names its namespace by
the constant below, never by a bare string.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "BIBLIOGRAPHY",
    "CONVERTED",
    "DEMOS",
    "EDITIONS",
    "FORMULAS",
    "NAMESPACES",
    "NOTEBOOKS",
    "OFFLINE",
    "OUTLINES",
    "PAGES",
    "PARTS",
    "REMOTE_IMAGES",
    "RESULTS",
    "SEARCH",
    "SECTIONS",
    "STAGES",
    "TRANSLATIONS",
    "Namespace",
]


@dataclass(frozen=True)
class Namespace:
    """One cache of the build: a folder of the store."""

    name: str
    holds: str  # what an entry is, and the module that writes it
    entries: str  # "slot …" (one per name, checked against its key) or "memo …" (by key)
    keys_on: str  # the inputs of its key: any change is a miss
    also_stale: str = ""  # what else makes an entry a miss (checked after its key matched)


_TABLE = (
    Namespace(
        "results",
        "each page's execution results (execute/stages/cache.py)",
        "slot, one per page",
        "the page's code and bound expressions, the preamble, the seed, execute_output_limit, "
        "the versions of Python, torch and matplotlib",
        "a project file the page opened or imported changed",
    ),
    Namespace(
        "stages",
        "each page's read and checked stages (execute/stages/stage_cache.py)",
        "slot, two per page",
        "the file, its path, whether it runs, llmbook's source; checked: also its results and "
        "numbers_strict",
    ),
    Namespace(
        "pages",
        "rendered pages (render_cache.py)",
        "slot, one per page and edition",
        "the page's Markdown, path and URL, results, options, Markdown settings, llmbook's source",
        "what :::related looked up, a figure or a demo's code key it showed changed",
    ),
    Namespace(
        "converted",
        "whole-page conversions, MkDocs' and Zensical's (adapters/*/converted.py)",
        "slot, one per page, edition and engine",
        "the pages key; MkDocs': the site's files and URLs, link validation, Pygments and "
        "Material; Zensical's: Zensical and Pygments",
        "as pages",
    ),
    Namespace(
        "sections",
        "MkDocs' conversions of a page's sections (adapters/mkdocs/partial.py)",
        "slot, one per page and edition: its sections by their keys",
        "the section's Markdown and the pieces it shows, its page's path and URL, whether it "
        "opens or ends the page, the converted pages' site key",
        "the ids its page holds elsewhere that its headings' ids depend on changed",
    ),
    Namespace(
        "demos",
        "demo frames (demos/cache.py)",
        "slot, one per demo, title and description",
        "the demo, its language, title and description, its code key",
    ),
    Namespace(
        "outlines",
        "each page's outline of headings (site_index.py)",
        "memo",
        "the lines that decide the headings, the toc settings, Markdown and pymdownx versions",
    ),
    Namespace(
        "parts",
        "each page's numbered parts and references (book/apparatus.py)",
        "memo, one per page",
        "the page's text, path, chapter, formula positions, Markdown settings, llmbook's source",
    ),
    Namespace(
        "translations",
        "what changed in each translation's source (translate/book.py)",
        "memo, one per translation",
        "the source's text, the translation file, llmbook's source",
    ),
    Namespace(
        "bibliography",
        "the parsed entries of references.bib (book/bibliography.py)",
        "memo",
        "the file's content, llmbook's source, pybtex's version",
    ),
    Namespace(
        "formulas",
        "each formula's MathML (latex.py)",
        "memo, one per formula",
        "the LaTeX, inline or display, latex2mathml's version, llmbook's source",
    ),
    Namespace(
        "search",
        "each page's search entries and jieba's segmentation (search_cache.py)",
        "memo, one per page and one for the site",
        "the page's HTML, toc, URL, title and metadata, Material's and jieba's versions",
    ),
    Namespace(
        "notebooks",
        "the .ipynb downloads with their outputs (execute/stages/notebook.py, a Markdown "
        "page's: site/page_notebook.py)",
        "memo",
        "the notebook, each cell's outputs and figures, nbformat's version; a Markdown page's: "
        "its text and results, the run options, the book's pages, Python's, torch's and the CJK "
        "font's versions, llmbook's source",
    ),
    Namespace(
        "editions",
        "the PDF and EPUB editions: each page's Typst, the typeset book (editions/)",
        "memo",
        "the print HTML, the book's files and images, the template, Typst's or pandoc's version",
    ),
    Namespace(
        "offline",
        "what each built file loads, for the offline check (offline.py)",
        "slot, one per edition's site",
        "llmbook's source",
        "a file whose content changed is read again",
    ),
    Namespace(
        "remote-images",
        "the remote images shipped with the site (remote_images.py)",
        "memo, one per address",
        "the image's address",
    ),
)

NAMESPACES: dict[str, Namespace] = {}
for _namespace in _TABLE:
    assert _namespace.name not in NAMESPACES, f"namespace {_namespace.name} declared twice"
    NAMESPACES[_namespace.name] = _namespace

# The names callers pass to `Store.slot` and `Store.memo`.
RESULTS = NAMESPACES["results"].name
STAGES = NAMESPACES["stages"].name
PAGES = NAMESPACES["pages"].name
CONVERTED = NAMESPACES["converted"].name
SECTIONS = NAMESPACES["sections"].name
DEMOS = NAMESPACES["demos"].name
OUTLINES = NAMESPACES["outlines"].name
PARTS = NAMESPACES["parts"].name
TRANSLATIONS = NAMESPACES["translations"].name
BIBLIOGRAPHY = NAMESPACES["bibliography"].name
FORMULAS = NAMESPACES["formulas"].name
SEARCH = NAMESPACES["search"].name
NOTEBOOKS = NAMESPACES["notebooks"].name
EDITIONS = NAMESPACES["editions"].name
OFFLINE = NAMESPACES["offline"].name
REMOTE_IMAGES = NAMESPACES["remote-images"].name

"""A built page's HTML in print form: what paper and an e-reader can show of each directive.

The site's page is the proven one (numbers checked, blocks run, references resolved); this only
changes how it is shown. Boxes become `<div class="llmbook-box">` with their title first, folds are
opened, controls, permalinks, tooltips and buttons go. Each directive of the build's registry
prints its own web form and adds to the page's end (`Directive.print_form`): this module names
none of them. Figures drawn inline (`<svg>`) are set aside as files, so every later stage
(pandoc, Typst, EPUB) meets an `<img>`.
"""

from __future__ import annotations

from collections.abc import Callable

from bs4 import BeautifulSoup, Tag

from llmbook.core.book_syntax import names_a_part
from llmbook.core.i18n import Locale
from llmbook.directives.printing import PrintPage, new_tag, print_box
from llmbook.directives.registry import Registry

__all__ = ["PrintPage", "fragment_html", "parse_fragment", "print_form"]

_BOX_KINDS = ("note", "tip", "info", "warning", "danger", "question", "example", "success",
              "abstract", "quote", "bug", "failure")  # fmt: skip
_new, _box = new_tag, print_box


def _kind(tag: Tag) -> str:
    return next((c for c in tag.get("class", []) if c in _BOX_KINDS), "note")


def _admonitions(soup: BeautifulSoup, page: PrintPage) -> None:
    for tag in soup.select("div.admonition"):
        title = tag.find("p", class_="admonition-title", recursive=False)
        box = _box(soup, _kind(tag), title.extract() if title else None)
        box.extend(list(tag.contents))
        tag.replace_with(box)


def _folds(soup: BeautifulSoup, page: PrintPage) -> None:
    """Every `<details>` left opened: a notebook cell's collapsed code or output as it is,
    others as boxes."""
    for tag in reversed(soup.select("details")):
        summary = tag.find("summary", recursive=False)
        if summary is not None:
            summary.extract()
        if "llmbook-hide" in tag.get("class", []):  # a cell's collapsed part: printed as is
            tag.unwrap()
            continue
        box = _box(soup, _kind(tag), summary)
        box.extend(list(tag.contents))
        tag.replace_with(box)


def _inline_svgs(soup: BeautifulSoup, page: PrintPage) -> None:
    for number, svg in enumerate(soup.select("svg"), start=1):
        name = f"drawing-{number}.svg"
        svg["xmlns"] = "http://www.w3.org/2000/svg"
        if svg.has_attr("viewbox"):  # html.parser lowers names; SVG needs them as written
            svg["viewBox"] = svg.attrs.pop("viewbox")
        page.svgs[name] = str(svg).replace("currentColor", "#222222")
        svg.replace_with(_new(soup, "img", src=name, alt=svg.get("aria-label", "")))


def _plain(soup: BeautifulSoup, page: PrintPage) -> None:
    """What only a browser uses: permalinks, buttons, progress bars, tooltips, controls, the
    language switcher (each language's edition is a book of its own), a page's notebook
    download (a file of the site, not of the book), the record of what computed the page (the
    editions end with the book's: editions/colophon.py), and whatever the site marks
    `llmbook-web-only` (the launch links: a reader of paper has no notebook to open)."""
    gone = "a.headerlink, button, input, progress, script, nav.llmbook-languages"
    gone += ", p.llmbook-download, details.llmbook-provenance, .llmbook-web-only"
    for tag in soup.select(gone):
        tag.decompose()
    for tag in soup.select("[title]"):
        del tag["title"]


def _code(soup: BeautifulSoup, page: PrintPage) -> None:
    """Highlighted code back to its text, its language named for the next stage's highlighter."""
    for block in soup.select("div.highlight"):
        code = block.find("code")
        languages = [c[9:] for c in block.get("class", []) if c.startswith("language-")]
        pre = _new(soup, "pre")
        attrs = {"class": languages[0]} if languages else {}
        pre.append(_new(soup, "code", code.get_text() if code else "", **attrs))
        block.replace_with(pre)


def _references(soup: BeautifulSoup, page: PrintPage) -> None:
    """A cross-reference (`10.2 节`, `图 10-3`) inside the book is marked: the PDF adds the page."""
    for link in soup.select('a[href^="#"]'):
        if names_a_part(link.get_text(), page.locale):
            link["class"] = ["llmbook-xref"]


def _equations(soup: BeautifulSoup, page: PrintPage) -> None:
    """A numbered display equation: its formula with its number at the margin (a div the
    Typst stage lays out as a row)."""
    for equation in soup.select(".llmbook-equation"):
        number = equation.select_one(".llmbook-equation__number")
        shown = _new(soup, "div", **{"class": "llmbook-equation", "data-number": ""})
        if number is not None:
            shown["data-number"] = number.extract().get_text(strip=True)
        shown.extend(list(equation.contents))
        equation.replace_with(shown)


Step = Callable[[BeautifulSoup, PrintPage], None]
# What the editions do themselves, before and after the directives' own print forms.
BEFORE: list[Step] = [_plain, _code]
AFTER: list[Step] = [_inline_svgs, _folds, _admonitions, _equations, _references]


def print_form(article_html: str, locale: Locale, directives: Registry) -> PrintPage:
    """The print form of a page's article (its HTML between the site's chrome): each directive
    of the build's registry prints its own web form and adds to the page's end; `locale`: the
    build's, for the text the print form adds (answer labels, the answer key)."""
    soup = parse_fragment(article_html)
    page = PrintPage("", locale)
    for step in BEFORE:
        step(soup, page)
    for directive in directives:
        directive.print_form(soup, page)
    for _, tag in sorted(page.ends, key=lambda end: end[0]):
        (soup.body or soup).append(tag)
    for step in AFTER:
        step(soup, page)
    page.html = fragment_html(soup)
    return page


def parse_fragment(html: str) -> BeautifulSoup:
    """A piece of HTML parsed by lxml (fast), inside the `<body>` lxml puts it in."""
    return BeautifulSoup(html, "lxml")


def fragment_html(soup: BeautifulSoup) -> str:
    """The piece again, without the `<html><body>` lxml wrapped it in."""
    return soup.body.decode_contents() if soup.body is not None else ""

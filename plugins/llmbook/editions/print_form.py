"""A built page's HTML in print form: what paper and an e-reader can show of each directive.

The site's page is the proven one (numbers checked, blocks run, references resolved); this only
changes how it is shown. Boxes become `<div class="llmbook-box">` with their title first, folds and
answers are opened, every tab is shown under its label, a quiz keeps its question and options and
its answer goes to the key at the end of the page, a demo keeps its static drawing and a note,
widgets' controls, permalinks, tooltips and buttons go. Figures drawn inline (`<svg>`) are set
aside as files, so every later stage (pandoc, Typst, EPUB) meets an `<img>`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, Tag

from llmbook.book.syntax import names_a_part
from llmbook.i18n import Locale

__all__ = ["PrintPage", "fragment_html", "parse_fragment", "print_form"]

_BOX_KINDS = ("note", "tip", "info", "warning", "danger", "question", "example", "success",
              "abstract", "quote", "bug", "failure")  # fmt: skip


@dataclass
class PrintPage:
    html: str  # the page's article in print form
    locale: Locale  # the build's (`theme.language`): the text the print form adds
    svgs: dict[str, str] = field(default_factory=dict)  # file name → an inline drawing's SVG

    def ui(self, key: str, **fields: object) -> str:
        return self.locale.ui(key, **fields)


def _new(soup: BeautifulSoup, name: str, text: str = "", **attrs: str) -> Tag:
    tag = soup.new_tag(name, attrs=attrs)
    if text:
        tag.string = text
    return tag


def _box(soup: BeautifulSoup, kind: str, title: Tag | str | None) -> Tag:
    """An empty print box of `kind` whose first child is its title (a paragraph)."""
    box = _new(soup, "div", **{"class": "llmbook-box", "data-kind": kind})
    if title is not None:
        strong = _new(soup, "strong")
        if isinstance(title, Tag):
            strong.extend(list(title.contents))
        else:
            strong.string = title
        heading = _new(soup, "p", **{"class": "llmbook-box__title"})
        heading.append(strong)
        box.append(heading)
    return box


def _kind(tag: Tag) -> str:
    return next((c for c in tag.get("class", []) if c in _BOX_KINDS), "note")


def _admonitions(soup: BeautifulSoup, page: PrintPage) -> None:
    for tag in soup.select("div.admonition"):
        title = tag.find("p", class_="admonition-title", recursive=False)
        box = _box(soup, _kind(tag), title.extract() if title else None)
        box.extend(list(tag.contents))
        tag.replace_with(box)


def _folds(soup: BeautifulSoup, page: PrintPage) -> None:
    """Every `<details>` opened: answers read on after their question, a notebook cell's
    collapsed code or output as it is, others as boxes."""
    for tag in reversed(soup.select("details")):
        summary = tag.find("summary", recursive=False)
        if summary is not None:
            summary.extract()
        if "llmbook-hide" in tag.get("class", []):  # a cell's collapsed part: printed as is
            tag.unwrap()
            continue
        if "llmbook-answer" in tag.get("class", []):
            label = _new(soup, "strong", page.ui("print_answer"))
            first = tag.find("p")
            if first is not None:
                first.insert(0, label)
            tag.unwrap()
            continue
        box = _box(soup, _kind(tag), summary)
        box.extend(list(tag.contents))
        tag.replace_with(box)


def _quizzes(soup: BeautifulSoup, page: PrintPage) -> None:
    """Question and options stay; each answer and its explanation go to the page's key."""
    key: list[Tag] = []
    for number, quiz in enumerate(soup.select(".llmbook-quiz"), start=1):
        answer = quiz.select_one(".llmbook-quiz__answer")
        explanation = quiz.select_one(".llmbook-quiz__explanation")
        item = _new(soup, "li")
        answer_text = page.ui("print_key_item", number=number, answer=quiz.get("data-answer", ""))
        item.append(_new(soup, "strong", answer_text))
        if explanation is not None:
            item.extend(list(explanation.extract().contents))
        key.append(item)
        for gone in [answer, quiz.select_one(".llmbook-quiz__feedback")]:
            if gone is not None:
                gone.decompose()
        title = quiz.find("p", class_="admonition-title")
        if title is not None:
            title.string = page.ui("print_quiz", number=number)
    if key:
        box = _box(soup, "success", page.ui("print_key"))
        box["class"] = ["llmbook-box", "llmbook-answer-key"]
        answers = _new(soup, "ol")
        answers.extend(key)
        box.append(answers)
        (soup.body or soup).append(box)


def _tabs(soup: BeautifulSoup, page: PrintPage) -> None:
    for tabs in soup.select("div.tabbed-set"):
        labels = [label.get_text(" ", strip=True) for label in tabs.select(".tabbed-labels label")]
        blocks = tabs.select(".tabbed-content > .tabbed-block")
        shown = _new(soup, "div", **{"class": "llmbook-tabs"})
        for label, block in zip(labels, blocks, strict=True):
            heading = _new(soup, "p", **{"class": "llmbook-tab__label"})
            heading.append(_new(soup, "strong", label))
            shown.append(heading)
            shown.extend(list(block.contents))
        tabs.replace_with(shown)


def _demos(soup: BeautifulSoup, page: PrintPage) -> None:
    for demo in soup.select("figure.llmbook-demo"):
        # the widget, and the narrow screen's copy of the drawing: paper has the wide one
        for gone in demo.select(".llmbook-demo__widget, .llmbook-widget, .llmbook-demo__narrow"):
            gone.decompose()
        caption = demo.find("figcaption")
        if caption is not None:
            demo.append(caption.extract())  # under the drawing, as every figure's
            caption.append(f" {page.ui('print_online')}")


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
    language switcher (each language's edition is a book of its own)."""
    gone = "a.headerlink, button, input, progress, .llmbook-progress, script, nav.llmbook-languages"
    for tag in soup.select(gone):
        tag.decompose()
    for tag in soup.select("[title]"):
        del tag["title"]
    for tag in soup.select(".llmbook-card__number"):
        tag.append(page.ui("print_card_number"))


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


def _shape_flows(soup: BeautifulSoup, page: PrintPage) -> None:
    """Each tensor, operator and arrow of a shape flow apart by a space, as the site's chips are."""
    for flow in soup.select(".llmbook-shapeflow__flow, .llmbook-tensor"):
        for child in list(flow.children)[1:]:
            child.insert_before(" ")


STEPS: list[Callable[[BeautifulSoup, PrintPage], None]] = [
    _plain, _code, _quizzes, _demos, _inline_svgs, _tabs, _folds, _admonitions, _equations,
    _shape_flows, _references,
]  # fmt: skip


def print_form(article_html: str, locale: Locale) -> PrintPage:
    """The print form of a page's article (its HTML between the site's chrome); `locale`: the
    build's, for the text the print form adds (answer labels, the answer key)."""
    soup = parse_fragment(article_html)
    page = PrintPage("", locale)
    for step in STEPS:
        step(soup, page)
    page.html = fragment_html(soup)
    return page


def parse_fragment(html: str) -> BeautifulSoup:
    """A piece of HTML parsed by lxml (fast), inside the `<body>` lxml puts it in."""
    return BeautifulSoup(html, "lxml")


def fragment_html(soup: BeautifulSoup) -> str:
    """The piece again, without the `<html><body>` lxml wrapped it in."""
    return soup.body.decode_contents() if soup.body is not None else ""

"""Helpers for the demo tests (a unique module name: several test folders have a conftest.py).

The demos tested here are this book's (bookdemos/, registered by mkdocs.yml's `demos` option),
drawn with the plugin's kit (llmbook.demos)."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from llmbook.core.i18n import load_locale
from llmbook.demos import Demo, DemoCatalog

ROOT = Path(__file__).resolve().parents[2]
BOOK = DemoCatalog.load(["bookdemos"], root=ROOT)  # as the build loads mkdocs.yml's option
# The book's languages with its own words (locales/: the demos' words), as its builds load them.
BOOK_LOCALES = {code: load_locale(code, ROOT / "locales") for code in ("zh", "en")}
BOOK_ASSETS = ROOT / "bookdemos" / "assets"  # the demos' scripts and their own styles
KIT_ASSETS = ROOT / "plugins" / "llmbook" / "assets" / "demos"  # kit.js, demos.css
IDS = ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
# Chinese writing: Han characters, CJK punctuation (，。「」), full-width forms (（）：；).
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
_SCRIPT = re.compile(r'<script type="application/json" data-role="(\w+)">(.*?)</script>', re.S)


def get_demo(demo_id: str, language: str = "zh") -> Demo | None:
    """The book's demo `demo_id` in `language`, one of the book's (None when it registers no
    such demo)."""
    return BOOK.demo(demo_id, BOOK_LOCALES[language])


def json_blocks(markup: str) -> dict[str, object]:
    return {role: json.loads(text) for role, text in _SCRIPT.findall(markup)}


def parse_svg(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def unescape_text(svg: str) -> str:
    """The figure's visible text, tags removed and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", svg))


def layouts(figure: str) -> tuple[str, str]:
    """A demo figure's wide drawing and its phone panels (demos/layout.py), as markup."""
    wide, narrow = figure.split('<div class="llmbook-demo__narrow">')
    return wide, narrow


class _Strings(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self._script = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._script += tag == "script"
        self.found.extend((f"{tag}@{name}", value) for name, value in attrs if value)

    def handle_endtag(self, tag: str) -> None:
        self._script -= tag == "script"

    def handle_data(self, data: str) -> None:
        if not self._script and data.strip():
            self.found.append(("text", data.strip()))


def shown_strings(markup: str) -> list[tuple[str, str]]:
    """Every text node (outside the JSON scripts) and every attribute value of the markup, in
    order, as (where, text): `text`, or `TAG@ATTRIBUTE` (a title, an aria-label, a data-text-…)."""
    parser = _Strings()
    parser.feed(markup)
    parser.close()
    return parser.found

"""The authoring guide shows every directive, rendered by the plugin itself."""

from __future__ import annotations

import re

from book_locales import ZH
from directive_helpers import ROOT, render_page
from llmbook.directives import parse_directives, shipped

GUIDE = ROOT / "docs" / "guide" / "authoring.md"


def _examples() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return "\n".join(
        re.findall(r"^:::showcase\n````markdown\n(.*?)\n````\n:::$", text, re.S | re.M)
    )


def test_the_guide_shows_every_directive():
    used = set(re.findall(r"^:::(\w+)", _examples(), re.M))
    assert used == set(shipped().names()) - {"showcase"}


def test_the_guide_validates_and_renders(fake_demos):
    text = GUIDE.read_text(encoding="utf-8").replace(":::demo rope ", ":::demo test-demo ")
    parse_directives(text, src="docs/guide/authoring.md", locale=ZH, demos=fake_demos)
    page = render_page(text, src="docs/guide/authoring.md")
    assert page.count('<div class="llmbook-showcase">') == text.count(":::showcase")
    assert page.count('<div class="llmbook-showcase__result">') == text.count(":::showcase")
    results = "".join(page.split('<div class="llmbook-showcase__result">')[1:])
    for marker in (
        "llmbook-quiz",
        "llmbook-answer",
        "llmbook-shapeflow__line is-checked",
        "tabbed-set",
        "llmbook-card",
        "llmbook-progress",
        "llmbook-demo",
        "llmbook-glossary__note",
    ):
        assert marker in results, marker

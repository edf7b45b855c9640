"""`:::bibliography`, `:::glossary`, `:::editions`: one directive, a list the site supplies, else a
note (directives/site_list.py)."""

from __future__ import annotations

import pytest
from book_locales import EN, ZH
from llmbook.core.errors import AuthorError
from llmbook.core.lexer import lex
from llmbook.core.page_context import PageContext
from llmbook.core.stash import engine_stash
from llmbook.directives import parse_directives, parse_structure, render_tree, shipped


def _render(text: str, made: dict[str, str] | None = None) -> str:
    stash, restore = engine_stash()
    lexed = lex(text)
    doc = parse_structure(lexed, src="docs/x.md")
    page = PageContext("docs/x.md", lexed, stash, EN)
    return restore(render_tree(doc, page, made=made, directives=shipped()))


@pytest.mark.parametrize(
    ("name", "note"),
    [
        ("bibliography", '<p class="llmbook-bibliography-note">'),
        ("glossary", '<p class="llmbook-glossary__note">'),
        ("editions", '<p class="llmbook-editions">'),
    ],
)
def test_without_its_list_the_block_is_a_note(name, note):
    assert note in _render(f":::{name}\n:::\n")


def test_the_editions_links_are_shown_in_their_paragraph():
    shown = _render(":::editions\n:::\n", {"editions": '<a href="llmbook.pdf">PDF</a>'})
    assert (
        '<p class="llmbook-editions">Download the book: <a href="llmbook.pdf">PDF</a></p>' in shown
    )


def test_the_bibliographys_listing_is_markdown_in_the_page():
    assert "1. Vaswani" in _render(":::bibliography\n:::\n", {"bibliography": "1. Vaswani"})


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "bibliography",
            "bibliography takes no body: it lists the .bib file's entries Fix: leave the "
            ":::bibliography block empty",
        ),
        (
            "glossary",
            ":::glossary takes no body (its list comes from docs/glossary.yml) Fix: move the text "
            "above the :::glossary block, or into docs/glossary.yml",
        ),
        (
            "editions",
            "editions takes no body: it links the editions this build makes Fix: leave the "
            ":::editions block empty",
        ),
    ],
)
def test_a_body_is_an_error_at_its_line(name, message):
    with pytest.raises(AuthorError) as caught:
        parse_directives(f":::{name}\n\ntext\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == f"d.md:3: {message}"

"""The directive registry belongs to the build: llmbook's directives and the book's box types."""

from __future__ import annotations

import re

import pytest
from book_locales import ZH
from directive_helpers import render_page
from llmbook.core.errors import AuthorError
from llmbook.core.i18n import load_locale, shipped_languages
from llmbook.directives import (
    SHIPPED,
    Directive,
    DuplicateDirective,
    Registry,
    book_directives,
    parse_directives,
    shipped,
)
from llmbook.directives.box import BoxTypeError
from rendering import render_markdown

BOXES = {"theorem": {"icon": "abstract", "title": "定理"}, "recap": {"collapse": "closed"}}


def test_the_shipped_registry_holds_every_shipped_directive_once():
    assert len(shipped()) == len(SHIPPED)
    assert [type(d) for d in shipped()] == list(SHIPPED)


def test_a_duplicate_name_raises():
    quiz = type(shipped().get("quiz"))
    with pytest.raises(DuplicateDirective, match="directive 'quiz' is registered twice"):
        Registry([quiz, quiz])


def test_a_directive_without_a_name_raises():
    class Nameless(Directive):
        pass

    with pytest.raises(DuplicateDirective, match="directive class Nameless has no NAME"):
        Registry([Nameless])


def test_a_book_adds_box_types_from_its_configuration():
    registry = book_directives({"box_types": BOXES})
    assert set(registry.names()) - set(shipped().names()) == {"theorem", "recap"}
    assert "theorem" not in shipped()  # the shipped registry is not changed by a book
    theorem = registry.get("theorem")
    assert (theorem.KIND, theorem.COLLAPSE, theorem.TITLE) == ("abstract", None, "定理")


def test_a_configured_box_renders_with_its_icon_title_and_fold():
    page = render_markdown(
        ":::theorem\n两数之和。\n:::\n\n:::recap 回顾\n要点。\n:::\n",
        options={"box_types": BOXES},
    )
    assert (
        '<div class="admonition abstract llmbook-theorem"><p class="admonition-title">定理</p>'
        in page
    )
    assert '<details class="note llmbook-recap"><summary>回顾</summary>' in page


def test_a_configured_box_is_unknown_to_a_build_without_it():
    with pytest.raises(AuthorError, match=re.escape("unknown directive :::theorem Fix")):
        render_page(":::theorem\n两数之和。\n:::\n")


def test_a_configured_box_without_a_title_needs_one_written():
    registry = book_directives({"box_types": BOXES})
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::recap\n要点。\n:::\n", src="d.md", locale=ZH, directives=registry)
    assert str(caught.value) == (
        'd.md:1: :::recap needs a title Fix: write it after the name, e.g. ":::recap 标题"'
    )


_FIX = (
    "Fix: write it `{name}: {{icon: tip, title: …, collapse: closed}}` (icon one of note, "
    "abstract, info, tip, success, question, warning, failure, danger, bug, example, quote; "
    "collapse open or closed, or left out)"
)


@pytest.mark.parametrize(
    ("name", "row", "problem"),
    [
        ("x", {"icon": "star"}, "icon 'star' is no Material admonition type"),
        ("x", {"collapse": "shut"}, "collapse 'shut' is neither open nor closed"),
        ("x", {"colour": "red"}, "unknown key 'colour'"),
        ("x", "tip", "'tip' is not a mapping"),
        ("1x", {}, "a directive's name is a letter, then letters, digits, - or _"),
    ],
)
def test_a_malformed_box_type_is_named_with_its_fix(name, row, problem):
    with pytest.raises(BoxTypeError) as caught:
        book_directives({"box_types": {name: row}})
    assert str(caught.value) == (
        f"llmbook option box_types: {name}: {problem}. {_FIX.format(name=name)}"
    )


def test_a_box_type_may_not_take_a_shipped_name():
    with pytest.raises(BoxTypeError) as caught:
        book_directives({"box_types": {"quiz": {"icon": "tip"}}})
    assert str(caught.value).startswith(
        "llmbook option box_types: quiz: :::quiz is one of llmbook's own directives. "
        "Fix: give the box type another name (taken: answer, background,"
    )


@pytest.mark.parametrize("language", shipped_languages())
def test_every_directives_words_are_in_every_shipped_locale(language):
    locale = load_locale(language)
    for directive in shipped():
        for word in directive.WORDS:
            assert locale.ui(word), f"{language}: {directive.NAME} needs the word {word}"


def test_a_directive_declares_its_print_classes_and_marks():
    quiz = shipped().get("quiz")
    assert quiz.CLASSES == ("llmbook-quiz",)
    assert quiz.marks("B. 乙", opener=False, locale=ZH) == [("answer", "option B")]
    assert quiz.marks("答案: B", opener=False, locale=ZH) == [("answer", "answer B")]
    assert shipped().get("key").marks("B. 乙", opener=False, locale=ZH) == []


def test_the_registrys_key_is_the_same_in_every_process() -> None:
    """The stage and render caches key on it: a validator's address in it missed them all."""
    import subprocess
    import sys

    code = "from llmbook.directives.shipped import shipped; print(shipped().key())"
    keys = {
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        for _ in range(2)
    }
    assert len(keys) == 1 and " at 0x" not in keys.pop()

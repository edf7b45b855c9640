"""`:::demo ID TITLE`: a registered demo renders its frame with the author's description."""

from __future__ import annotations

import pytest
from book_locales import ZH
from directive_helpers import FakeDemo
from llmbook.directives import parse_directives, render_directives
from llmbook.errors import AuthorError
from llmbook.stash import engine_stash


def test_demo_renders_the_registered_frame(render, fake_demos):
    page = render(
        ":::demo test-demo 交互：有无缓存的对比 <b>\n左边 **重算**，右边只算新 token。\n:::\n"
    )
    assert page == (
        '<figure class="llmbook-demo" data-demo="test-demo">'
        '<figcaption class="llmbook-demo__title">交互：有无缓存的对比 &lt;b&gt;</figcaption>'
        '<div class="llmbook-demo__description"><p>左边 <strong>重算</strong>，右边只算新 token。</p></div>'
        '<div class="llmbook-demo__figure"><svg class="test-figure" viewBox="0 0 1 1"></svg></div>'
        '<div class="llmbook-demo__widget"><div class="test-widget"></div></div></figure>'
    )


def test_unknown_demo_lists_the_known_ids(fake_demos):
    with pytest.raises(AuthorError) as caught:
        parse_directives("正文\n:::demo kv-cash 交互\n描述\n:::\n", src="docs/ch.md", locale=ZH)
    assert str(caught.value) == "docs/ch.md:2: unknown demo 'kv-cash' Fix: use one of: test-demo"


def test_demo_needs_a_title(fake_demos):
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::demo test-demo\n描述\n:::\n", src="d.md", locale=ZH)
    assert str(caught.value) == (
        'd.md:1: :::demo test-demo needs a title after its ID Fix: write it on the same line, e.g. ":::demo test-demo 交互：…"'
    )


class SpeakingDemo(FakeDemo):
    ID = "speaking-demo"
    TEXT = {"zh": {"hello": "你好"}, "en": {"hello": "Hello"}}

    def figure_svg(self) -> str:
        return f'<svg aria-label="{self.t("hello")}"></svg>'


@pytest.mark.parametrize(("language", "said"), [("zh", "你好"), ("en", "Hello"), ("", "你好")])
def test_demo_renders_in_the_pages_language(fake_demos, language, said):
    fake_demos["speaking-demo"] = SpeakingDemo
    stash, restore = engine_stash()
    page = restore(
        render_directives(
            ":::demo speaking-demo Title\n:::\n", src="d.md", stash=stash, language=language, locale=ZH
        )
    )
    assert f'<svg aria-label="{said}"></svg>' in page

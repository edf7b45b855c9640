"""`:::demo ID TITLE`: a registered demo renders its frame with the author's description."""

from __future__ import annotations

import pytest
from book_locales import EN, ZH, with_section
from llmbook.core.errors import AuthorError
from llmbook.core.stash import engine_stash
from llmbook.demos import DemoCatalog, DemoFrames
from llmbook.directives import parse_directives, render_directives
from tiny_demos import write_tiny_demos


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
        parse_directives(
            "正文\n:::demo kv-cash 交互\n描述\n:::\n", src="docs/ch.md", locale=ZH, demos=fake_demos
        )
    assert str(caught.value) == (
        "docs/ch.md:2: unknown demo 'kv-cash' Fix: use one of: speaking-demo, test-demo"
    )


def test_a_book_without_demos_is_told_how_to_register_them():
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::demo rope 交互\n:::\n", src="docs/ch.md", locale=ZH)
    assert str(caught.value) == (
        "docs/ch.md:1: unknown demo 'rope' Fix: this book registers no demos: name the module "
        "that registers it in the llmbook option `demos` of mkdocs.yml, e.g. "
        "`demos: [mybook_demos]`"
    )


def test_demo_needs_a_title(fake_demos):
    with pytest.raises(AuthorError) as caught:
        parse_directives(":::demo test-demo\n描述\n:::\n", src="d.md", locale=ZH, demos=fake_demos)
    assert str(caught.value) == (
        'd.md:1: :::demo test-demo needs a title after its ID Fix: write it on the same line, e.g. ":::demo test-demo 交互：…"'
    )


@pytest.mark.parametrize(("locale", "said"), [(ZH, "你好"), (EN, "Hello")])
def test_demo_renders_in_the_pages_language(fake_demos, locale, said):
    """A demo's words are the book's, in its locale files' `demos` section."""
    locale = with_section(locale, "demos", {"speaking-demo": {"hello": said}})
    stash, restore = engine_stash()
    page = restore(
        render_directives(
            ":::demo speaking-demo Title\n:::\n",
            src="d.md",
            stash=stash,
            locale=locale,
            demos=fake_demos,
        )
    )
    assert f'<svg aria-label="{said}"></svg>' in page


def test_a_demo_whose_module_needs_a_missing_package_is_an_error_at_its_line(tmp_path, monkeypatch):
    write_tiny_demos(tmp_path, monkeypatch)  # its `heavy` demo imports a package nobody has
    demos = DemoFrames(DemoCatalog.load(["tinydemos"], root=tmp_path))
    stash, _ = engine_stash()
    with pytest.raises(AuthorError) as caught:
        render_directives(
            "正文\n\n:::demo heavy 标题\n:::\n", src="d.md", stash=stash, demos=demos, locale=ZH
        )
    assert str(caught.value) == (
        "d.md:3: :::demo heavy computes with no_such_package_here, which is not installed "
        "Fix: install no_such_package_here beside llmbook, or remove the demo"
    )

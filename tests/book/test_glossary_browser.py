"""terms.js in headless Chromium, on a built site opened from file://: a term's popover opens on
keyboard focus (named by the link's aria-describedby) and Escape closes it."""

from __future__ import annotations

from pathlib import Path

import pytest
from sites import build
from test_glossary import PAGES, write_book

pytestmark = pytest.mark.browser


def test_the_popover_opens_on_focus_and_closes_on_escape(tmp_path: Path, browser) -> None:
    site = build(write_book(tmp_path, PAGES), in_process=True, cache=False).site
    context = browser.new_context()
    tab = context.new_page()
    tab.goto((site / "index.html").as_uri())
    term = tab.locator("a.llmbook-term").first
    term.focus()
    tip = tab.locator(".llmbook-term-tip")
    assert tip.is_visible()
    assert tip.inner_text() == "分组查询注意力（GQA）\n查询头分组、每组共用一对 K/V 头的注意力。"
    assert term.get_attribute("aria-describedby") == tip.get_attribute("id")
    assert tip.get_attribute("role") == "tooltip"
    assert term.get_attribute("title") is None  # the popover replaces the native tooltip
    tab.keyboard.press("Escape")
    assert tip.count() == 0 and term.get_attribute("aria-describedby") is None
    assert tab.evaluate("document.activeElement.className") == "llmbook-term"  # focus stays
    term.hover()
    assert tip.is_visible()
    context.close()

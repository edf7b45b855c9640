"""Keyboard-only walks through a quiz, a lesson card, content tabs, a demo and a number's popover.

Each walk starts from the content just before the widget (focused as a reader's Tab would leave it),
moves only with Tab, arrows, Enter, Space and Escape, and checks what a screen reader is told
(`aria-pressed`, `aria-expanded`, the quiz's live region) and that the focused control shows a ring.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page

CHAPTER = "chapters/ch10-modern-llm.html"
LESSON = "lessons/lesson03-five-upgrades.html"

FOCUS_RING = """e => {
  const s = getComputedStyle(e);
  return (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2) || s.boxShadow !== "none";
}"""


def start_before(page: Page, anchor: Locator) -> None:
    """Put the keyboard focus on `anchor` (made focusable for this), so the next Tab goes on."""
    anchor.evaluate("e => { e.tabIndex = -1; e.focus(); }")


def focused(page: Page) -> Locator:
    return page.locator(":focus")


def assert_ring(element: Locator) -> None:
    assert element.evaluate(FOCUS_RING), element.evaluate("e => e.outerHTML.slice(0, 120)")


def test_quiz_by_keyboard(open_page):
    page = open_page(CHAPTER)
    quiz = page.locator("[data-llmbook-quiz]").first
    answer = quiz.get_attribute("data-answer")
    letters = quiz.locator(".llmbook-quiz__option").evaluate_all(
        "os => os.map(o => o.dataset.letter)"
    )
    start_before(page, quiz.locator(".admonition-title"))
    page.keyboard.press("Tab")
    options = quiz.locator(".llmbook-quiz__choice")
    assert focused(page).evaluate("e => e.classList.contains('llmbook-quiz__choice')")
    assert focused(page).inner_text().startswith("A.")
    assert_ring(focused(page))
    feedback = quiz.locator(".llmbook-quiz__feedback")
    assert feedback.get_attribute("role") == "status"
    assert feedback.get_attribute("aria-live") == "polite"

    wrong = next(i for i, letter in enumerate(letters) if letter != answer)
    for _ in range(wrong):
        page.keyboard.press("ArrowDown")
    assert focused(page).inner_text().startswith(f"{letters[wrong]}.")
    page.keyboard.press("Enter")
    assert feedback.inner_text() == f"✗ {letters[wrong]} 不对，再想想。"
    assert options.nth(wrong).get_attribute("aria-disabled") == "true"
    assert options.nth(wrong).get_attribute("aria-label") == f"{letters[wrong]}：不对"

    right = letters.index(answer)
    while not focused(page).inner_text().startswith(f"{answer}."):
        page.keyboard.press("ArrowDown")
    page.keyboard.press(" ")
    assert feedback.inner_text() == f"✓ 回答正确：{answer}"
    assert options.nth(right).get_attribute("aria-label") == f"{answer}：正确"
    details = quiz.locator("details.llmbook-quiz__answer")
    assert details.evaluate("d => d.open")

    # The explanation's summary is the next stop after the options; Enter folds it.
    for _ in range(len(letters) - right):
        page.keyboard.press("Tab")
    assert focused(page).evaluate("e => e.tagName") == "SUMMARY"
    assert_ring(focused(page))
    page.keyboard.press("Enter")
    assert not details.evaluate("d => d.open")
    assert page.llmbook_errors == []


def test_lesson_card_and_progress_by_keyboard(open_page):
    page = open_page(LESSON)
    page.evaluate("localStorage.clear()")
    page.reload()
    card = page.locator("[data-llmbook-card]").first
    total = page.locator("[data-llmbook-card]").count()
    progress = page.locator(".llmbook-progress").first
    assert progress.locator("progress").get_attribute("aria-label") == "卡片完成进度"
    assert progress.locator(".llmbook-progress__text").get_attribute("role") == "status"

    start_before(page, card.locator(".llmbook-card__footer"))
    page.keyboard.press("Tab")
    button = card.locator(".llmbook-card__done")
    assert focused(page).evaluate("e => e.classList.contains('llmbook-card__done')")
    assert_ring(focused(page))
    assert button.get_attribute("aria-pressed") == "false"
    page.keyboard.press(" ")
    assert button.get_attribute("aria-pressed") == "true"
    assert progress.locator(".llmbook-progress__text").inner_text() == f"1 / {total} 卡片已完成"
    page.keyboard.press("Enter")
    assert button.get_attribute("aria-pressed") == "false"
    assert progress.locator(".llmbook-progress__text").inner_text() == f"0 / {total} 卡片已完成"


def test_content_tabs_by_keyboard(open_page):
    page = open_page(LESSON)
    tabs = page.locator(".tabbed-set").first
    inputs = tabs.locator(":scope > input")
    assert inputs.count() >= 2
    start_before(page, tabs)
    page.keyboard.press("Tab")  # into the tab set: its checked tab
    assert focused(page).get_attribute("id") == inputs.nth(0).get_attribute("id")
    label = tabs.locator(".tabbed-labels > label").nth(0)
    assert_ring(label)
    page.keyboard.press("ArrowRight")
    assert inputs.nth(1).is_checked() and not inputs.nth(0).is_checked()
    assert tabs.locator(".tabbed-block").nth(1).is_visible()
    assert not tabs.locator(".tabbed-block").nth(0).is_visible()
    assert_ring(tabs.locator(".tabbed-labels > label").nth(1))
    assert not label.evaluate(FOCUS_RING)  # the ring moved with the focus


def test_demo_by_keyboard(open_page):
    page = open_page(CHAPTER)
    root = page.locator('figure.llmbook-demo[data-demo="kv-cache"] .llmbook-widget')
    page.wait_for_function("document.querySelector('[data-demo=\"kv-cache\"] [data-ready]')")
    start_before(page, root.locator("h4").first)
    page.keyboard.press("Tab")
    assert focused(page).get_attribute("data-in") == "p"
    assert_ring(focused(page))
    page.keyboard.press("ArrowRight")
    assert root.locator('[data-in="p"]').input_value() == "2"
    assert root.locator('[data-show="p"]').inner_text() == "2"
    page.keyboard.press("Tab")
    assert focused(page).get_attribute("data-in") == "step"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page).get_attribute("data-action") == "next"
    assert_ring(focused(page))
    page.keyboard.press("Enter")
    page.keyboard.press(" ")
    assert root.locator('[data-in="step"]').input_value() == "3"
    assert root.locator('[data-out="c_total"]').inner_text() == "4"  # prompt 2, then two tokens

    gqa = page.locator('figure.llmbook-demo[data-demo="mha-gqa"] .llmbook-widget')
    mqa = gqa.locator('[data-action="mqa"]')
    mqa.focus()
    assert mqa.get_attribute("aria-pressed") == "false"
    page.keyboard.press("Enter")
    assert mqa.get_attribute("aria-pressed") == "true"
    assert gqa.locator('[data-action="mha"]').get_attribute("aria-pressed") == "false"
    assert page.llmbook_errors == []


def test_number_popover_by_keyboard(open_page):
    page = open_page(CHAPTER)
    number = page.locator(".llmbook-num").first
    start_before(page, page.locator("article h1"))
    while focused(page).evaluate("e => !e.classList.contains('llmbook-num')"):
        page.keyboard.press("Tab")
    assert focused(page).evaluate("e => e === document.querySelector('.llmbook-num')")
    assert_ring(number)
    assert number.get_attribute("role") == "button"
    assert number.get_attribute("aria-expanded") == "false"
    page.keyboard.press("Enter")
    tip = page.locator(".llmbook-num-tip")
    assert number.get_attribute("aria-expanded") == "true"
    assert tip.get_attribute("id") == number.get_attribute("aria-controls")
    assert tip.get_attribute("role") == "status"
    assert tip.inner_text() == number.get_attribute("title")
    page.keyboard.press("Escape")
    assert tip.count() == 0 and number.get_attribute("aria-expanded") == "false"
    page.keyboard.press(" ")
    assert number.get_attribute("aria-expanded") == "true"
    page.keyboard.press(" ")
    assert tip.count() == 0


@pytest.mark.parametrize("reduce", [False, True], ids=["motion", "reduced-motion"])
def test_widgets_respect_reduced_motion(open_shared_page, reduce):
    page = open_shared_page(CHAPTER)  # one page for both: each sets the preference it reads
    page.emulate_media(reduced_motion="reduce" if reduce else "no-preference")
    durations = page.evaluate(
        """() => [".llmbook-widget__button", ".llmbook-quiz__choice"].map(s =>
             getComputedStyle(document.querySelector(s)).transitionDuration)"""
    )
    if reduce:
        assert all(set(d.replace(",", " ").split()) == {"0s"} for d in durations), durations
    else:
        assert all(d != "0s" for d in durations), durations

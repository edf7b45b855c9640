"""quiz.js and cards.js in headless Chromium, on a page of rendered directives opened from file://.

They start through kit.js (its one start-up path), loaded last: a widget queued before kit.js starts.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from directive_helpers import ROOT, render_page

pytestmark = pytest.mark.browser

WIDGETS = ROOT / "plugins" / "llmbook" / "assets" / "widgets"
KIT = ROOT / "plugins" / "llmbook" / "assets" / "demos" / "kit.js"
SOURCE = """:::quiz
哪个对？
A. 错的 </script><script>window.pwned = 1</script>
B. 对的
C. 也错
答案: B
解析: 因为 B。
:::

:::progress
:::

:::card 1 第一张
一
:::

:::card 2 第二张
二
:::
"""


@pytest.fixture
def page(tmp_path: Path, browser):
    body = render_page(SOURCE, src="docs/lesson.md")
    for name in ("quiz.js", "cards.js", "directives.css"):
        shutil.copy(WIDGETS / name, tmp_path / name)
    shutil.copy(KIT, tmp_path / "kit.js")
    (tmp_path / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><link rel="stylesheet" href="directives.css">'
        f'<body>{body}<script src="quiz.js"></script><script src="cards.js"></script>'
        '<script src="kit.js"></script></body>',
        encoding="utf-8",
    )
    context = browser.new_context()
    tab = context.new_page()
    requests: list[str] = []
    tab.on("request", lambda request: requests.append(request.url))
    tab.goto((tmp_path / "index.html").as_uri())
    yield tab
    context.close()
    assert all(url.startswith("file://") for url in requests), requests


def test_quiz_feedback_and_explanation(page):
    quiz = page.locator("[data-llmbook-quiz]")
    assert page.evaluate("window.pwned") is None  # the option's script is text
    assert "</script><script>window.pwned = 1</script>" in quiz.locator("li").nth(0).inner_text()
    assert not quiz.locator("details").evaluate("d => d.open")
    quiz.locator("button").nth(0).click()
    assert "is-wrong" in quiz.locator("li").nth(0).get_attribute("class")
    assert quiz.locator(".llmbook-quiz__feedback").inner_text() == "✗ A 不对，再想想。"
    assert not quiz.locator("details").evaluate("d => d.open")
    quiz.locator("button").nth(1).focus()
    page.keyboard.press("Enter")  # keyboard operable
    assert "is-correct" in quiz.locator("li").nth(1).get_attribute("class")
    assert quiz.locator(".llmbook-quiz__feedback").inner_text() == "✓ 回答正确：B"
    assert quiz.locator("details").evaluate("d => d.open")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.textContent").startswith("C.")


def test_card_done_survives_a_reload(page):
    assert page.locator(".llmbook-progress__text").inner_text() == "0 / 2 卡片已完成"
    page.locator(".llmbook-card__done").nth(1).click()
    assert page.locator(".llmbook-progress__text").inner_text() == "1 / 2 卡片已完成"
    page.reload()
    assert page.locator(".llmbook-progress__text").inner_text() == "1 / 2 卡片已完成"
    assert page.locator(".llmbook-card__done").nth(1).get_attribute("aria-pressed") == "true"
    page.locator(".llmbook-card__done").nth(1).click()
    assert page.locator(".llmbook-progress__text").inner_text() == "0 / 2 卡片已完成"

"""kit.js in headless Chromium: the demo scripts start whether they load before or after it (an
engine lists scripts in its own order: MkDocs appends what mkdocs.yml lacks, Zensical keeps the
list), each widget once, and a demo starts only its own figures."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from demo_helpers import BOOK_ASSETS, KIT_ASSETS, get_demo

pytestmark = pytest.mark.browser

DEMOS = ["norm-compare", "swiglu"]


def _open(browser, folder: Path, scripts: list[str]):
    """Two norm-compare figures and one swiglu figure, then `scripts` in that order."""
    figures = [get_demo(d).render_html(d, "") for d in ["norm-compare", "norm-compare", "swiglu"]]
    for name in scripts:
        shutil.copy((KIT_ASSETS if name == "kit.js" else BOOK_ASSETS) / name, folder / name)
    tags = "".join(f'<script src="{name}"></script>' for name in scripts)
    (folder / "index.html").write_text(
        f'<!doctype html><meta charset="utf-8"><body>{"".join(figures)}{tags}</body>',
        encoding="utf-8",
    )
    context = browser.new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto((folder / "index.html").as_uri())
    return context, tab, errors


@pytest.mark.parametrize("kit_first", [True, False], ids=["kit-first", "kit-last"])
def test_demos_start_in_either_load_order(tmp_path, browser, kit_first):
    scripts = [f"{d}.js" for d in DEMOS]
    scripts = ["kit.js", *scripts] if kit_first else [*scripts, "kit.js"]
    context, tab, errors = _open(browser, tmp_path, scripts)
    try:
        tab.wait_for_function(
            "document.querySelectorAll('.llmbook-widget[data-ready]').length === 3"
        )
        first = tab.locator('figure[data-demo="norm-compare"] .llmbook-widget').nth(0)
        first.locator('[data-in="x0"]').fill("3")
        assert first.locator('[data-out="ln_mean"]').inner_text() != ""
        # the second norm-compare widget has its own state: editing the first leaves it alone
        second = tab.locator('figure[data-demo="norm-compare"] .llmbook-widget').nth(1)
        assert second.locator('[data-in="x0"]').input_value() != "3"
        assert (
            second.locator('[data-out="ln_mean"]').inner_text()
            != first.locator('[data-out="ln_mean"]').inner_text()
        )
        assert errors == []
    finally:
        context.close()


def test_a_demo_without_its_script_stays_static(tmp_path, browser):
    context, tab, errors = _open(browser, tmp_path, ["kit.js", "norm-compare.js"])
    try:
        tab.wait_for_function(
            "document.querySelectorAll('.llmbook-widget[data-ready]').length === 2"
        )
        swiglu = tab.locator('figure[data-demo="swiglu"] .llmbook-widget')
        assert swiglu.get_attribute("data-ready") is None
        assert errors == []
    finally:
        context.close()

"""The record of what computed a page, opened, as PNG, for the eye: the panel at the end of a built
page (chapter 10 by default) in Chromium, from disk. Run it after the build, from the project root:

    mkdocs build --strict
    python benchmarks/provenance_panel_png.py
    # → benchmarks/results/provenance-panel.png
"""

from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CHROMIUM = "/usr/bin/chromium"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default="site/chapters/ch10-modern-llm.html")
    parser.add_argument("--out", default=str(RESULTS / "provenance-panel.png"))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
        page.goto((ROOT / args.page).resolve().as_uri())
        panel = page.locator("details.llmbook-provenance")
        panel.evaluate("element => { element.open = true; }")
        panel.scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        panel.screenshot(path=args.out)
        browser.close()
    print(args.out)


if __name__ == "__main__":
    main()

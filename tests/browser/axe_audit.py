"""axe-core (bundled by axe-playwright-python) over every built page, in one colour scheme.

WCAG 2.0/2.1 A and AA rules at 1280×900; a serious or critical violation fails the test. Each page is
audited twice: as it loads, and after a reader has used its widgets (quizzes answered wrong and
right, a lesson card marked done, a number's and a term's popover open, the demos stepped), since
those states bring colours of their own. 404.html links its assets from the site root, as a host serves it, so
its /assets/ requests are answered from the built site.

The light and dark audits are one test file each (test_axe_light.py, test_axe_dark.py): each takes
a minute, and pytest-xdist's `--dist loadfile` can then run them on both workers at once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, Route
from sitebuild import site_pages

WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
FAILING_IMPACTS = {"serious", "critical"}

# A reader's first moves on a page, run in the page: every state a widget can show.
USE_THE_WIDGETS = """() => {
  document.querySelectorAll("[data-llmbook-quiz]").forEach(quiz => {
    const answer = quiz.dataset.answer;
    const options = [...quiz.querySelectorAll(".llmbook-quiz__option")];
    const wrong = options.find(o => o.dataset.letter !== answer);
    const right = options.find(o => o.dataset.letter === answer);
    if (wrong) wrong.querySelector("button").click();
    if (right && quiz !== document.querySelector("[data-llmbook-quiz]")) right.querySelector("button").click();
  });
  const card = document.querySelector(".llmbook-card__done");
  if (card) card.click();
  const num = document.querySelector(".llmbook-num");
  if (num) num.click();
  const term = document.querySelector("a.llmbook-term");
  if (term) term.focus();
  document.querySelectorAll('[data-action="next"], [data-action="backward"], [data-action="mqa"]')
    .forEach(button => { button.click(); button.click(); });
}"""


def serve_root_assets(page: Page, site: Path) -> None:
    def from_site(route: Route) -> None:
        route.fulfill(path=str(site / route.request.url.removeprefix("file:///")))

    page.route("file:///assets/**", from_site)


def serious_violations(page: Page, axe: Axe, where: str) -> list[str]:
    options = {"runOnly": {"type": "tag", "values": WCAG_TAGS}, "resultTypes": ["violations"]}
    results = axe.run(page, options=options).response
    found = []
    for violation in results["violations"]:
        if violation["impact"] not in FAILING_IMPACTS:
            continue
        for node in violation["nodes"]:
            detail = (node["any"] or node["all"] or node["none"] or [{"message": ""}])[0]["message"]
            found.append(
                f"{where}: {violation['id']} ({violation['impact']}) {node['target']}: {detail}"
            )
    return found


def audit_every_page(open_page: Callable[..., Page], site_dir: Path, dark: bool) -> None:
    axe = Axe()
    pages = site_pages(site_dir)
    assert {"index.html", "404.html", "chapters/ch10-modern-llm.html"} <= set(pages)
    found: list[str] = []
    for rel in pages:
        if rel.rpartition("/")[2] == "404.html":  # its assets are answered from its edition's root
            page = open_page("index.html", dark=dark)
            serve_root_assets(page, (site_dir / rel).parent)
            page.goto((site_dir / rel).as_uri())
            page.wait_for_load_state("load")
        else:
            page = open_page(rel, dark=dark)
        found += serious_violations(page, axe, rel)
        page.evaluate(USE_THE_WIDGETS)
        # Using them may scroll the page: Material's header then fades its title in. Contrast is
        # what the reader sees once that ends, not a frame of the fade.
        page.wait_for_function(
            "() => document.getAnimations().every(a => a.playState !== 'running')"
        )
        found += serious_violations(page, axe, f"{rel} (widgets used)")
    assert not found, f"{len(found)} serious/critical axe findings:\n" + "\n".join(found)

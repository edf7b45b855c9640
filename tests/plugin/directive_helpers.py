"""Shared helpers of the directive tests: the project's Markdown setup, a render pipeline, and the
demos they render, registered as a book registers its own (this module is their `demos` module:
`DEMOS`)."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import yaml
from llmbook.core.site_index import SiteIndex
from llmbook.demos import Demo, DemoCatalog, DemoFrames
from mkdocs.utils.yaml import get_yaml_loader
from rendering import render_markdown

ROOT = Path(__file__).resolve().parents[2]
# Seed chapter 000 as the team received it: the format must build as-is.
SEED_000 = ROOT / "tests" / "data" / "seed_000.txt"


def project_markdown_config() -> tuple[list[Any], dict[str, dict[str, Any]]]:
    """The `markdown_extensions` of the project's mkdocs.yml, as Python-Markdown arguments, without
    the llmbook core itself (these helpers run its stages one by one)."""
    with open(ROOT / "mkdocs.yml", encoding="utf-8") as handle:
        config = yaml.load(handle, Loader=get_yaml_loader())
    names, configs = [], {}
    for item in config["markdown_extensions"]:
        if isinstance(item, dict):
            ((name, options),) = item.items()
            names.append(name)
            configs[name] = options or {}
        elif item != "llmbook.extension":
            names.append(item)
    return names, configs


_EXTENSIONS, _CONFIGS = project_markdown_config()


def render_page(
    source: str, *, src: str = "docs/page.md", site: SiteIndex | None = None, page: Any = None
) -> str:
    """A page → HTML through the llmbook extension and the project's Markdown setup, as a build
    renders it (nothing runs: no executor plan), with the demos below."""
    return render_markdown(
        source,
        src=src,
        index=site,
        page=page,
        extensions=_EXTENSIONS,
        configs=_CONFIGS,
        demos=[__name__],
    )


def visible_text(page_html: str) -> str:
    """The page's text: tags dropped, entities decoded (what a reader can see or expand)."""
    return html.unescape(re.sub(r"<[^>]+>", " ", page_html))


class FakeDemo(Demo):
    ID = "test-demo"

    def figure_svg(self) -> str:
        return '<svg class="test-figure" viewBox="0 0 1 1"></svg>'

    def widget_html(self) -> str:
        return '<div class="test-widget"></div>'


class SpeakingDemo(FakeDemo):
    ID = "speaking-demo"  # its word `hello` comes from the locale's `demos` section

    def figure_svg(self) -> str:
        return f'<svg aria-label="{self.t("hello")}"></svg>'


# The demos of these tests, as a book's `demos` module states them.
DEMOS = {"test-demo": f"{__name__}:FakeDemo", "speaking-demo": f"{__name__}:SpeakingDemo"}


def fake_demo_frames() -> DemoFrames:
    """The demos above, as a build loads them (for `parse_directives`, `render_directives`)."""
    return DemoFrames(DemoCatalog.load([__name__], root=ROOT))

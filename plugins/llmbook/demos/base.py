"""The demo base class, and the error a demo whose module needs a missing package raises."""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import ClassVar

from llmbook.strings import book_language

__all__ = ["Demo", "DemoError", "DemoNeeds"]


class Demo:
    """One interactive demo in one language. Subclasses set `ID` and `TEXT` and override
    `figure_svg` and `widget_html`, which write every word they show through `t`."""

    ID: ClassVar[str] = ""
    # Every text the demo shows (titles, labels, captions, aria text, its script's words), by
    # language (`strings.book_language`: zh, en) and key; `{fields}` are filled in by `t`.
    TEXT: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    def __init__(self, language: str = "zh") -> None:
        self.language = book_language(language)

    def t(self, key: str, **fields: object) -> str:
        """The text `key` in the demo's language, its `{fields}` filled in."""
        text = self.TEXT[self.language][key]
        return text.format(**fields) if fields else text

    def figure_svg(self) -> str:
        """The static figure (SVG markup), computed at build time."""
        raise NotImplementedError

    def widget_html(self) -> str:
        """The widget's HTML container; its script comes from the assets its book registers."""
        raise NotImplementedError

    def render_html(self, title: str, description_html: str) -> str:
        """The whole demo frame: title, the author's description, static figure, widget (a book
        whose demos need a setting around their computation overrides this)."""
        return (
            f'<figure class="llmbook-demo" data-demo="{html.escape(self.ID)}">'
            f'<figcaption class="llmbook-demo__title">{html.escape(title)}</figcaption>'
            f'<div class="llmbook-demo__description">{description_html}</div>'
            f'<div class="llmbook-demo__figure">{self.figure_svg()}</div>'
            f'<div class="llmbook-demo__widget">{self.widget_html()}</div>'
            "</figure>"
        )


class DemoError(Exception):
    """A registered demo that cannot be drawn: what is wrong and how to fix it (the directive
    reports it at the page's `:::demo` line)."""

    def __init__(self, problem: str, fix: str) -> None:
        super().__init__(f"{problem} Fix: {fix}")
        self.problem = problem
        self.fix = fix


class DemoNeeds(DemoError):
    """A demo's module imports a package this environment lacks (the plugin installs none of
    what a book's demos compute with)."""

    def __init__(self, demo_id: str, package: str) -> None:
        super().__init__(
            f"computes with {package}, which is not installed",
            f"install {package} beside llmbook, or remove the demo",
        )
        self.demo_id = demo_id
        self.package = package

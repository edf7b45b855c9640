"""The demo base class, and the error a demo whose module needs a missing package raises."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale

__all__ = ["Demo", "DemoError", "DemoNeeds"]


class Demo:
    """One interactive demo in one language. Subclasses set `ID` and override `figure_svg` and
    `widget_html`, which write every word they show through `t`: the words are the book's, in
    its locale files (`demos: {ID: {key: text}}`, the `locales` option), as the plugin's are."""

    ID: ClassVar[str] = ""

    def __init__(self, locale: Locale) -> None:
        self.locale = locale
        words = locale.section("demos").get(self.ID)
        # a demo that shows no words needs none; one that does fails at its first (`t`)
        self.words: dict[str, str] = (
            {str(k): str(v) for k, v in words.items()} if isinstance(words, dict) else {}
        )

    def t(self, key: str, **fields: object) -> str:
        """The text `key` in the demo's language, its `{fields}` filled in."""
        try:
            text = self.words[key]
        except KeyError:
            raise DemoError(
                f"has no word {key!r} in the language {self.locale.code!r}",
                f"add it under `demos: {self.ID}:` in {self.locale.code}.yml of the folder the "
                "llmbook option `locales` names (docs/guide/en/languages.md)",
            ) from None
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

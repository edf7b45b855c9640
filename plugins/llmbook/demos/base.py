"""Demo base class and the registry (one name, one class; a duplicate is a programming error)."""

from __future__ import annotations

import html
import importlib
from collections.abc import Mapping
from typing import ClassVar

from llmbook.demos.catalog import MODULES

__all__ = ["Demo", "DemoNeeds", "get_demo", "known_ids", "register"]

_REGISTRY: dict[str, type[Demo]] = {}


class Demo:
    """One interactive demo in one language. Subclasses set `ID` and `TEXT` and override
    `figure_svg` and `widget_html`, which write every word they show through `t`."""

    ID: ClassVar[str] = ""
    # Every text the demo shows (titles, labels, captions, aria text, its script's words), by
    # language (`strings.book_language`: zh, en) and key; `{fields}` are filled in by `t`.
    TEXT: ClassVar[Mapping[str, Mapping[str, str]]] = {}

    def __init__(self, language: str) -> None:
        self.language = language

    def t(self, key: str, **fields: object) -> str:
        """The text `key` in the demo's language, its `{fields}` filled in."""
        text = self.TEXT[self.language][key]
        return text.format(**fields) if fields else text

    def figure_svg(self) -> str:
        """The static figure (SVG markup), computed by llmkit at build time."""
        raise NotImplementedError

    def widget_html(self) -> str:
        """The widget's HTML container; its script comes from the plugin's assets."""
        raise NotImplementedError

    def render_html(self, title: str, description_html: str) -> str:
        """The whole demo frame: title, the author's description, static figure, widget."""
        import torch

        # The demos' tensors are tiny: one thread is faster and sums in a fixed order.
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return self._frame(title, description_html)
        finally:
            torch.set_num_threads(threads)

    def _frame(self, title: str, description_html: str) -> str:
        return (
            f'<figure class="llmbook-demo" data-demo="{html.escape(self.ID)}">'
            f'<figcaption class="llmbook-demo__title">{html.escape(title)}</figcaption>'
            f'<div class="llmbook-demo__description">{description_html}</div>'
            f'<div class="llmbook-demo__figure">{self.figure_svg()}</div>'
            f'<div class="llmbook-demo__widget">{self.widget_html()}</div>'
            "</figure>"
        )


def register(cls: type[Demo]) -> type[Demo]:
    if not cls.ID or cls.ID in _REGISTRY:
        raise RuntimeError(f"demo id {cls.ID!r} is empty or registered twice")
    _REGISTRY[cls.ID] = cls
    return cls


class DemoNeeds(ImportError):
    """A demo's module imports a package this environment lacks (the plugin installs no torch and
    no llmkit: the built-in demos compute with both)."""

    def __init__(self, demo_id: str, package: str) -> None:
        super().__init__(f"demo {demo_id!r} needs the package {package!r}, which is not installed")
        self.demo_id = demo_id
        self.package = package


def get_demo(demo_id: str, language: str) -> Demo | None:
    """The demo `demo_id` in `language` (a site's `theme.language`), importing its module on first
    use; None if unknown. DemoNeeds when its module imports a package that is not installed."""
    module = MODULES.get(demo_id)
    if module is None:
        return None
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] == "llmbook":
            raise  # a broken plugin, not a missing dependency
        raise DemoNeeds(demo_id, error.name.split(".")[0]) from None
    cls = _REGISTRY.get(demo_id)
    if cls is None:
        raise RuntimeError(f"{module} does not register the demo {demo_id!r} the catalog names")
    return cls(language)


def known_ids() -> list[str]:
    """Every demo ID, without importing the demos (validating a page needs no torch)."""
    return sorted(MODULES)

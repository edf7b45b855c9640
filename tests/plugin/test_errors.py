"""The core raises its own errors; each adapter hands its engine the engine's own: MkDocs gets a
`PluginError` with the core's exact text (it prints it and aborts, no traceback), Zensical the
core's error as it is (it prints any exception's text)."""

from __future__ import annotations

import pytest
from llmbook.adapters.mkdocs.plugin import _plugin_error
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.core.page_ref import PageRef
from llmbook.execute.stages.report import BuildFailed, DriftError
from llmbook.site.core_extension import OUTSIDE_A_BUILD, LLMBookExtension
from markdown import Markdown
from mkdocs.exceptions import PluginError

BROKEN = AuthorError("docs/a.md", 3, "the quiz has no answer.", "mark one option with [x]")


class _FailingSite:
    """What the extension asks of a build: the page it renders, and that page's render."""

    current = PageRef("docs/a.md", "a.html", "a.md")

    def render_page(self, markdown: str, page: PageRef, stash: object) -> str:
        raise BROKEN


def test_the_core_errors_are_not_mkdocs_errors() -> None:
    for error in (AuthorError, BuildFailed, DriftError):
        assert issubclass(error, LLMBookError) and not issubclass(error, PluginError)


def test_mkdocs_gets_a_plugin_error_with_the_core_text() -> None:
    md = Markdown(extensions=[LLMBookExtension(site=_FailingSite(), translate=_plugin_error)])
    with pytest.raises(PluginError) as error:
        md.convert("正文\n")
    assert str(error.value) == (
        "docs/a.md:3: the quiz has no answer. Fix: mark one option with [x]"
    )
    assert error.value.__cause__ is BROKEN


def test_without_a_translation_the_core_error_passes_as_it_is() -> None:
    md = Markdown(extensions=[LLMBookExtension(site=_FailingSite())])
    with pytest.raises(AuthorError) as error:
        md.convert("正文\n")
    assert error.value is BROKEN


def test_the_extension_outside_a_build_says_how_to_use_it() -> None:
    md = Markdown(extensions=[LLMBookExtension()])
    with pytest.raises(LLMBookError) as error:
        md.convert("正文\n")
    assert (
        str(error.value)
        == OUTSIDE_A_BUILD
        == (
            "llmbook.extension renders pages only inside a build: under MkDocs add the `llmbook` "
            "plugin to mkdocs.yml; under Zensical it works as listed in markdown_extensions."
        )
    )

"""pytest runs the book's pages through the build's own executor, so the two cannot disagree.

Every `docs/**/*.md` page with Python blocks or bound numbers, and every notebook, becomes one test,
run in its own worker process as in the build. A failure reads like the build's: `docs/…/page.md:LINE: …`.
Registered through the `pytest11` entry point; `-p no:llmbook` switches it off.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

__all__ = ["MarkdownPage", "PageItem"]

_KEY = pytest.StashKey[Any]()


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if file_path.suffix not in (".md", ".ipynb"):
        return None
    try:
        relative = file_path.relative_to(parent.config.rootpath)
    except ValueError:
        return None
    if not relative.parts or relative.parts[0] != "docs":
        return None
    raw = file_path.read_bytes()
    # A page without code or bindings is no test; one that cannot be decoded is a failing one.
    if file_path.suffix == ".md" and b"```python" not in raw and b"[[" not in raw:
        try:
            raw.decode("utf-8")
            return None
        except UnicodeDecodeError:
            pass
    return MarkdownPage.from_parent(parent, path=file_path)


def _executor(config: pytest.Config) -> Any:
    """One executor per test session, with the project's own llmbook options (env switches apply)."""
    if _KEY not in config.stash:
        from llmbook.adapters.config import load_options
        from llmbook.core.project import Project
        from llmbook.execute import Executor

        config_file = config.rootpath / "mkdocs.yml"
        project = Project.from_config_file(config_file)
        config.stash[_KEY] = Executor(load_options(config_file), project)
    return config.stash[_KEY]


class MarkdownPage(pytest.File):
    """A docs page; it holds one item that runs the whole page."""

    def collect(self) -> list[pytest.Item]:
        return [PageItem.from_parent(self, name="execute")]


class PageItem(pytest.Item):
    """Runs one page and checks all of its bound numbers."""

    def runtest(self) -> None:
        from llmbook.execute import DriftError

        src = os.path.relpath(self.path, self.config.rootpath).replace(os.sep, "/")
        plan = _executor(self.config).run_page(self.path.read_bytes(), src=src)
        if not plan.page.execute:
            pytest.skip(f"{src}: does not run: {plan.page.why_not_run}")
        if plan.mismatches:
            raise DriftError(plan.mismatches)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        from llmbook.core.errors import LLMBookError

        if isinstance(excinfo.value, LLMBookError):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"{self.path.name}: executed page"

"""Fixtures for the executor: a configured Executor, a page runner, and a tiny MkDocs site."""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from llmbook.adapters.config import LLMBookConfig
from llmbook.core.project import Project
from llmbook.execute import Executor, Plan
from rendering import render_markdown
from sites import Built

HERE = Path(__file__).parent
SEED_000 = HERE.parent / "data" / "seed_000.txt"


@pytest.fixture(autouse=True)
def _quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests set the switches themselves; the caller's environment must not leak in."""
    for name in ("LLMBOOK_EXECUTE", "LLMBOOK_CACHE", "LLMBOOK_CACHE_DIR", "LLMBOOK_SHARD"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")


# The book's own preamble (mkdocs.yml): the executor's tests compute with llmkit as its pages do;
# the plugin's default is empty (tests/execute/test_preamble.py).
BOOK_PREAMBLE = "import llmkit\nfrom llmkit import *\n"
BOOK_DEMOS = ["bookdemos"]  # ... and its demos (the plugin's default: none)
# ... in its language (the plugin's default: English), with its own words (the demos')
BOOK_WORDS = {"language": "zh", "locales": str(Path(__file__).resolve().parents[2] / "locales")}


def make_config(**options: object) -> LLMBookConfig:
    options.setdefault("execute_preamble", BOOK_PREAMBLE)
    options.setdefault("demos", BOOK_DEMOS)
    options = {**BOOK_WORDS, **options}
    config = LLMBookConfig()
    config.load_dict(dict(options))
    errors, _ = config.validate()
    assert not errors, errors
    return config


@pytest.fixture
def make_executor(tmp_path: Path) -> Callable[..., Executor]:
    """An executor rooted in tmp_path (its cache under tmp_path/.llmbook-cache)."""

    def make(**options: object) -> Executor:
        return Executor(make_config(**options), Project.at(tmp_path))

    return make


@pytest.fixture
def run_md(make_executor: Callable[..., Executor]) -> Callable[..., Plan]:
    """Run dedented Markdown as `docs/page.md` without the cache."""

    def run(markdown: str | bytes, *, src: str = "docs/page.md", **options: object) -> Plan:
        options.setdefault("cache", False)
        text = markdown if isinstance(markdown, bytes) else textwrap.dedent(markdown)
        return make_executor(**options).run_page(text, src=src)

    return run


def render(plan: Plan, markdown: str) -> tuple[str, None]:
    """The page's Markdown as the llmbook extension hands it on (the plan applied), its HTML in."""
    return render_markdown(textwrap.dedent(markdown), plan=plan, convert=False), None


@pytest.fixture
def build_site(
    make_site: Callable[..., Built], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Path]:
    """Write pages under tmp_path/docs and build them with MkDocs (in process) into `site_name`."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")

    def run(pages: dict[str, str], *, site: str = "site", **options: object) -> Path:
        options.setdefault("offline_check", False)
        options.setdefault("execute_preamble", BOOK_PREAMBLE)
        options.setdefault("demos", BOOK_DEMOS)
        options = {**BOOK_WORDS, **options}
        config = {
            "site_name": "t",
            "site_dir": site,
            "use_directory_urls": False,
            "plugins": [{"llmbook": options}],
            "markdown_extensions": ["llmbook.extension", "pymdownx.superfences", "tables"],
        }
        return make_site(pages, config, site=site, dedent=True, in_process=True).site

    return run

"""Fixtures for the executor: a configured Executor, a page runner, and a tiny MkDocs site."""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import pytest
from llmbook.config import LLMBookConfig
from llmbook.execute import Executor, Plan
from llmbook.stash import Stash

HERE = Path(__file__).parent
SEED_000 = HERE.parent / "data" / "seed_000.txt"


@pytest.fixture(autouse=True)
def _quiet_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests set the switches themselves; the caller's environment must not leak in."""
    for name in ("LLMBOOK_EXECUTE", "LLMBOOK_CACHE", "LLMBOOK_CACHE_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OMP_NUM_THREADS", "1")


def make_config(**options: object) -> LLMBookConfig:
    config = LLMBookConfig()
    config.load_dict(dict(options))
    errors, _ = config.validate()
    assert not errors, errors
    return config


@pytest.fixture
def make_executor(tmp_path: Path) -> Callable[..., Executor]:
    """An executor rooted in tmp_path (its cache under tmp_path/.llmbook-cache)."""

    def make(**options: object) -> Executor:
        site = SimpleNamespace(config_file_path=str(tmp_path / "mkdocs.yml"))
        return Executor(make_config(**options), site)

    return make


@pytest.fixture
def run_md(make_executor: Callable[..., Executor]) -> Callable[..., Plan]:
    """Run dedented Markdown as `docs/page.md` without the cache."""

    def run(markdown: str | bytes, *, src: str = "docs/page.md", **options: object) -> Plan:
        options.setdefault("cache", False)
        text = markdown if isinstance(markdown, bytes) else textwrap.dedent(markdown)
        return make_executor(**options).run_page(text, src=src)

    return run


def render(plan: Plan, markdown: str) -> tuple[str, Stash]:
    """Apply a plan as the build does, returning the Markdown with stash tokens restored."""
    stash = Stash("docs/page.md")
    out = plan.apply(textwrap.dedent(markdown), stash=stash)
    return stash.restore(out), stash


HOOKS = '''
"""The executor wired as the plugin wires it, without the other stages."""
import os

from llmbook.config import LLMBookConfig
from llmbook.execute import Executor
from llmbook.stash import Stash

state = {}


def _src(path, config):
    root = os.path.dirname(config.config_file_path)
    return os.path.relpath(path, root).replace(os.sep, "/")


def on_config(config):
    options = LLMBookConfig()
    options.load_dict(EXECUTE_OPTIONS)
    options.validate()
    state["executor"] = Executor(options, config)
    state["stashes"] = {}


def on_files(files, config):
    pages = [(_src(f.abs_src_path, config), f.content_bytes) for f in files.documentation_pages()]
    state["report"] = state["executor"].run_pages(pages)
    state["report"].raise_if_failed()


def on_page_markdown(markdown, page, config, files):
    stash = state["stashes"][page.file.src_uri] = Stash(page.file.src_uri)
    plan = state["report"].plans[_src(page.file.abs_src_path, config)]
    return plan.apply(markdown, stash=stash)


def on_page_content(html, page, config, files):
    return state["stashes"][page.file.src_uri].restore(html)


def on_post_build(config):
    state["executor"].finish()
'''


@pytest.fixture
def build_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """Write pages under tmp_path/docs and build them with MkDocs (in process) into `site_name`."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")

    def run(pages: dict[str, str], *, site: str = "site", **options: object) -> Path:
        hooks = f"EXECUTE_OPTIONS = {options!r}\n" + HOOKS
        (tmp_path / "hooks.py").write_text(hooks, encoding="utf-8")
        for name, text in pages.items():
            path = tmp_path / "docs" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            data = text if isinstance(text, bytes) else textwrap.dedent(text).encode()
            path.write_bytes(data)
        (tmp_path / "mkdocs.yml").write_text(
            f"site_name: t\nsite_dir: {site}\nuse_directory_urls: false\nhooks: [hooks.py]\n"
            "markdown_extensions: [pymdownx.superfences, tables]\n",
            encoding="utf-8",
        )
        cwd = os.getcwd()
        os.chdir(tmp_path)
        try:
            build(load_config(str(tmp_path / "mkdocs.yml")))
        finally:
            os.chdir(cwd)
        return tmp_path / site

    return run

"""Which pages run: `execute_pages` (globs relative to docs_dir) and front matter `execute:`."""

from __future__ import annotations

from pathlib import Path

import pytest
from llmbook.adapters.config import load_options
from llmbook.core.errors import AuthorError
from llmbook.core.project import Project
from llmbook.execute.stages.pages import glob_regex, page_selector

CODE = "```python\nprint(6 * 7)\n```\n"


@pytest.mark.parametrize(
    ("pattern", "path", "matches"),
    [
        ("**", "index.md", True),
        ("**", "a/b/c.ipynb", True),
        ("*.md", "index.md", True),
        ("*.md", "chapters/x.md", False),  # `*` stays in its folder
        ("chapters/*.md", "chapters/x.md", True),
        ("chapters/**", "chapters/a/b.md", True),
        ("**/x.md", "x.md", True),
        ("**/x.md", "a/b/x.md", True),
        ("lesson0?.md", "lesson03.md", True),
        ("lesson[!0]*.md", "lesson03.md", False),
        ("notes.md", "notes_md", False),  # a dot is a dot
    ],
)
def test_globs(pattern: str, path: str, matches: bool) -> None:
    assert bool(glob_regex(pattern).match(path)) is matches


def test_patterns_are_relative_to_docs_dir(tmp_path: Path) -> None:
    runs = page_selector(["chapters/**", "./index.md"], root=str(tmp_path), docs_dir="book")
    assert runs("book/index.md") and runs("book/chapters/x.md")
    assert not runs("book/guide/x.md") and not runs("docs/index.md")
    assert not page_selector([], root=str(tmp_path), docs_dir="docs")("docs/index.md")


def test_the_project_folders_from_mkdocs_yml(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    project = Project.from_config_file(config)  # no file: MkDocs' defaults
    assert (project.root, project.docs_dir, project.site_dir) == (
        tmp_path.resolve(),
        tmp_path.resolve() / "docs",
        tmp_path.resolve() / "site",
    )
    config.write_text("site_name: x\ndocs_dir: book\nsite_dir: !ENV [OUT, out]\n", encoding="utf-8")
    project = Project.from_config_file(config)
    assert project.docs_dir == tmp_path.resolve() / "book"
    # `!ENV` read as MkDocs reads it: the variable, else its default
    assert project.site_dir == tmp_path.resolve() / "out"
    assert Project.at(tmp_path, tmp_path / "src").docs_dir == tmp_path.resolve() / "src"


def test_an_inherited_config_is_merged_as_mkdocs_merges_it(tmp_path: Path) -> None:
    (tmp_path / "base.yml").write_text(
        "docs_dir: book\ntheme: {name: material, language: en}\n"
        "plugins: [search, {llmbook: {execute_seed: 7}}]\n",
        encoding="utf-8",
    )
    config = tmp_path / "mkdocs.yml"
    config.write_text("INHERIT: base.yml\ntheme: {font: false}\n", encoding="utf-8")
    assert Project.from_config_file(config).docs_dir == tmp_path.resolve() / "book"
    assert load_options(config).execute_seed == 7 and load_options(config).language == "en"
    config.write_text("INHERIT: base.yml\nplugins: [llmbook]\n", encoding="utf-8")  # replaced
    assert load_options(config).execute_seed == 0


def test_no_page_runs_with_an_empty_list(run_md) -> None:
    plan = run_md(CODE, execute_pages=[])
    assert not plan.page.execute and plan.result is None
    assert plan.page.why_not_run == "it matches no pattern of `execute_pages` in mkdocs.yml"


def test_only_matching_pages_run(run_md) -> None:
    assert run_md(CODE, src="docs/chapters/x.md", execute_pages=["chapters/*.md"]).result
    assert run_md(CODE, src="docs/guide/x.md", execute_pages=["chapters/*.md"]).result is None


def test_front_matter_wins_over_the_option(run_md) -> None:
    plan = run_md("---\nexecute: true\n---\n" + CODE, execute_pages=[])
    assert plan.result is not None and plan.result.blocks[0].output == "42\n"
    plan = run_md("---\nexecute: false\n---\n" + CODE, execute_pages=["**"])
    assert plan.result is None
    assert plan.page.why_not_run == "`execute: false` in its front matter"


def test_a_page_that_does_not_run_needs_no_cache(run_md) -> None:
    # Cached-only (`execute: false` in mkdocs.yml) fails a page without cache; not one that doesn't run.
    assert run_md(CODE, execute=False, execute_pages=[]).result is None


@pytest.mark.parametrize(
    ("front", "options", "why"),
    [
        ("", {"execute_pages": []}, "it matches no pattern of `execute_pages` in mkdocs.yml"),
        ("---\nexecute: false\n---\n", {}, "`execute: false` in its front matter"),
    ],
)
def test_a_binding_on_a_page_that_does_not_run(run_md, front: str, options: dict, why: str) -> None:
    with pytest.raises(AuthorError) as error:
        run_md(front + CODE + "\n答案 [[6 * 7 = 42]]。\n", **options)
    line = 5 + front.count("\n")
    assert str(error.value) == (
        f"docs/page.md:{line}: [[6 * 7 = 42]] cannot be checked: the page does not run ({why}) "
        "Fix: write the plain number, cite it as [[value @ source]], mark it illustrative "
        "[[~value]], or let the page run (`execute: true` in its front matter, or a pattern of "
        "`execute_pages` in mkdocs.yml that matches it)"
    )


def test_a_notebook_that_does_not_run_says_why(run_md) -> None:
    import json

    notebook = {
        "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["[[1 + 1 = 2]]"]}],
        "metadata": {"llmbook": {"execute": False}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    with pytest.raises(AuthorError, match=r'\(`"llmbook": \{"execute": false\}` in its metadata\)'):
        run_md(json.dumps(notebook), src="docs/n.ipynb")


def test_a_site_with_no_page_running_renders_fences_as_code(build_site) -> None:
    site = build_site(
        {"index.md": "# API\n\n" + CODE + "\n::: httpx.Client\n    :docstring:\n"},
        execute_pages=[],
    )
    html = (site / "index.html").read_text(encoding="utf-8")
    assert "llmbook-output" not in html and "llmbook-norun" not in html  # plain code, no output
    assert "::: httpx.Client" in html  # left to mkdocstrings / mkautodoc

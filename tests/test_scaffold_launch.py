"""`llmbook new`'s launch links: the book's mkdocs.yml reads Colab's template from LLMBOOK_COLAB
(unset on an author's machine: no button), which its workflow sets on main from the repository it
runs in; the workflow's job `notebooks` pushes the built site (its notebooks and the files they
read) to the branch `notebooks`, where Colab opens them. Its steps run here as a runner runs
them, in every language's workflow alike."""

from __future__ import annotations

import os
import subprocess
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from llmbook.adapters.config import load_options
from llmbook.commands.scaffold import new_book
from llmbook.core.i18n import shipped_languages
from sites import build

MAIN = "${{ github.event_name != 'pull_request' && github.ref == 'refs/heads/main' }}"
COLAB = "https://colab.research.google.com/github/me/book/blob/notebooks/{path}"


@pytest.fixture(scope="module", params=shipped_languages())
def book(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp(request.param) / "book"
    new_book(folder, language=request.param)
    return folder


def workflow(book: Path) -> dict[str, Any]:
    return yaml.safe_load((book / ".github/workflows/book.yml").read_text(encoding="utf-8"))


def run(script: str, cwd: Path, **env: str) -> None:
    """A step's script as the runner runs it (bash -eo pipefail)."""
    bash = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script]
    subprocess.run(bash, cwd=cwd, env={**os.environ, **env}, check=True)


def colab_step(book: Path) -> dict[str, Any]:
    (found,) = [
        s for s in workflow(book)["jobs"]["build"]["steps"] if "LLMBOOK_COLAB" in s.get("run", "")
    ]
    return found


def test_the_template_comes_from_the_workflow_only(book: Path, monkeypatch) -> None:
    monkeypatch.delenv("LLMBOOK_COLAB", raising=False)
    assert load_options(book / "mkdocs.yml")["launch"] == {"colab": ""}  # no button
    monkeypatch.setenv("LLMBOOK_COLAB", COLAB)
    assert load_options(book / "mkdocs.yml")["launch"] == {"colab": COLAB}


def test_the_workflow_fills_the_template_from_its_repository(book: Path, tmp_path: Path) -> None:
    step = colab_step(book)
    assert step["if"] == MAIN  # a pull request's build has no button: the branch is main's
    steps = workflow(book)["jobs"]["build"]["steps"]
    builds = [s for s in steps if s.get("run") == "mkdocs build --strict"]
    assert steps.index(step) < steps.index(builds[0])
    env = tmp_path / "github-env"
    run(step["run"], tmp_path, GITHUB_REPOSITORY="me/book", GITHUB_ENV=str(env))
    assert env.read_text(encoding="utf-8") == f"LLMBOOK_COLAB={COLAB}\n"


def test_the_notebooks_job_pushes_the_built_site_to_its_branch(book: Path, tmp_path: Path) -> None:
    job = workflow(book)["jobs"]["notebooks"]
    assert job["if"] == MAIN and job["needs"] == "build"
    assert job["permissions"] == {"contents": "write"}  # this job only: it runs no page's code
    download, push = job["steps"]
    # What the build job's actions/upload-pages-artifact uploads: site/ as artifact.tar.
    assert download["uses"] == "actions/download-artifact@v4"
    assert download["with"] == {"name": "github-pages"}
    remote = tmp_path / "origin.git"
    subprocess.run(["git", "init", "-q", "--bare", str(remote)], check=True)
    for number in (1, 2):  # each publication replaces the branch's one commit
        runner = tmp_path / f"run{number}"
        site = runner / "site"
        (site / "chapters").mkdir(parents=True)
        (site / "chapters" / "x.ipynb").write_text(f"notebook {number}", encoding="utf-8")
        (site / "chapters" / "data.csv").write_text("a,b\n", encoding="utf-8")  # a file it reads
        with tarfile.open(runner / "artifact.tar", "w") as tar:
            tar.add(site, arcname=".")
        run(push["run"], runner, REMOTE=str(remote), GITHUB_SHA=f"sha{number}")
    git = ["git", "--git-dir", str(remote)]
    files = subprocess.run(
        [*git, "ls-tree", "-r", "--name-only", "notebooks"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert files.stdout.split() == ["chapters/data.csv", "chapters/x.ipynb"]
    shown = subprocess.run(
        [*git, "show", "notebooks:chapters/x.ipynb"], capture_output=True, text=True, check=True
    )
    assert shown.stdout == "notebook 2"
    log = subprocess.run(
        [*git, "log", "--format=%s", "notebooks"], capture_output=True, text=True, check=True
    )
    assert log.stdout == "The site built from sha2\n"


def test_the_book_built_on_main_opens_its_page_in_colab(tmp_path: Path) -> None:
    new_book(tmp_path / "book", language="en")
    env = tmp_path / "github-env"
    run(
        colab_step(tmp_path / "book")["run"],
        tmp_path,
        GITHUB_REPOSITORY="me/book",
        GITHUB_ENV=str(env),
    )
    name, value = env.read_text(encoding="utf-8").strip().split("=", 1)
    built = build(
        tmp_path / "book" / "mkdocs.yml", strict=True, cache=False, env={name: value}
    ).ok()
    address = "https://colab.research.google.com/github/me/book/blob/notebooks/index.ipynb"
    assert f'class="md-button llmbook-launch__button" href="{address}"' in built.page()
    assert ">Open in Colab</a>" in built.page()

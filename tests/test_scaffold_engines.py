"""`llmbook new DIR --engine zensical`: a book whose README and workflow build it with Zensical
(the config written out by `llmbook zensical-config`, then the offline check), requiring
`llmbook[zensical]`; MkDocs stays the default; an unknown engine is refused, naming the choices."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from llmbook.commands.scaffold import ENGINES, new_book
from llmbook.core.assets import asset_paths
from llmbook.core.i18n import shipped_languages
from test_scaffold import new

LANGUAGES = shipped_languages()
ACTIONLINT = Path(sys.executable).with_name("actionlint")
# How a Zensical book is built, in the README and the workflow alike.
ZENSICAL = [
    "python -m llmbook zensical-config mkdocs.yml",
    "zensical build --clean -f mkdocs.zensical.yml",
    "python -m llmbook.offline site",
]
INSTALL = "python -m pip install -r requirements.txt"


class Loader(yaml.SafeLoader):  # MkDocs' !ENV tag, as None
    pass


Loader.add_multi_constructor("!", lambda loader, suffix, node: None)


def readme_commands(folder: Path) -> list[str]:
    """The commands of the README's `bash` block."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert block is not None, text
    return block.group(1).strip().splitlines()


def workflow(folder: Path) -> dict:
    path = folder / ".github" / "workflows" / "book.yml"
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def build_runs(folder: Path) -> list[str]:
    return [step["run"] for step in workflow(folder)["jobs"]["build"]["steps"] if "run" in step]


def comments(path: Path) -> list[str]:
    return [
        line.split("#", 1)[1].strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.lstrip().startswith("#")
    ]


def requirement(folder: Path) -> str:
    text = (folder / "requirements.txt").read_text(encoding="utf-8")
    return [line for line in text.splitlines() if line and not line.startswith("#")][-1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_zensical_books_readme_and_workflow_build_with_zensical(
    tmp_path: Path, language: str
) -> None:
    done = new(tmp_path / "book", "--language", language, "--engine", "zensical")
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"llmbook new: a book in {tmp_path / 'book'}. Build it: cd {tmp_path / 'book'} && "
        "python -m llmbook zensical-config mkdocs.yml && "
        "zensical build --clean -f mkdocs.zensical.yml\n"
    )
    book = tmp_path / "book"
    assert readme_commands(book) == [INSTALL, *ZENSICAL]
    assert build_runs(book) == [INSTALL, *ZENSICAL]
    cjk = language in ("zh", "ja")
    assert requirement(book) == ("llmbook[cjk,zensical]" if cjk else "llmbook[zensical]")
    assert "mkdocs build" not in (book / ".github/workflows/book.yml").read_text(encoding="utf-8")
    # The rest of the book is MkDocs' own: the same config and first page.
    mkdocs_book = tmp_path / "mkdocs"
    new_book(mkdocs_book, language=language)
    assert (book / "docs/index.md").read_bytes() == (mkdocs_book / "docs/index.md").read_bytes()
    ignored = (book / ".gitignore").read_text(encoding="utf-8")  # and the config it writes
    assert ignored.startswith((mkdocs_book / ".gitignore").read_text(encoding="utf-8") + "# ")
    assert ignored.endswith("\nmkdocs.zensical.yml\n")
    # Its mkdocs.yml is MkDocs' with the lists of llmbook's assets (Zensical links only those).
    config = (book / "mkdocs.yml").read_text(encoding="utf-8")
    assert config.startswith((mkdocs_book / "mkdocs.yml").read_text(encoding="utf-8") + "\n# ")
    listed = yaml.load(config, Loader=Loader)
    ours = {f"assets/llmbook/{rel}" for rel in asset_paths()}
    assert {
        *listed["extra_css"],
        *listed["extra_javascript"],
        *listed["extra"]["polyfills"],
    } == ours


@pytest.mark.parametrize("language", LANGUAGES)
def test_mkdocs_stays_the_default_engine(tmp_path: Path, language: str) -> None:
    book = tmp_path / "book"
    new_book(book, language=language)
    assert readme_commands(book) == [INSTALL, "mkdocs build --strict"]
    assert "mkdocs build --strict" in build_runs(book)
    assert requirement(book) in ("llmbook", "llmbook[cjk]")
    same = new_book(tmp_path / "same", language=language, engine="mkdocs")
    assert [(p.relative_to(tmp_path / "same"), p.read_bytes()) for p in same] == [
        (p.relative_to(tmp_path / "same"), (book / p.relative_to(tmp_path / "same")).read_bytes())
        for p in same
    ]


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_a_zensical_workflow_is_englishs_with_its_step_names_translated(
    tmp_path: Path, language: str
) -> None:
    for code in (language, "en"):
        new_book(tmp_path / code, language=code, engine="zensical")
    for rel in ("requirements.txt", "mkdocs.yml", ".gitignore", ".github/workflows/book.yml"):
        shared = set(comments(tmp_path / language / rel)) & set(comments(tmp_path / "en" / rel))
        assert shared == set(), f"{rel} keeps English comments"
    ours, theirs = workflow(tmp_path / language), workflow(tmp_path / "en")
    names = [step.pop("name", None) for step in ours["jobs"]["build"]["steps"]]
    english = [step.pop("name", None) for step in theirs["jobs"]["build"]["steps"]]
    assert ours == theirs
    assert [n for n in names if n is not None and n in english] == []
    assert [n is None for n in names] == [n is None for n in english]


def test_an_unknown_engine_is_refused_naming_the_choices(tmp_path: Path) -> None:
    done = new(tmp_path / "book", "--engine", "hugo")
    assert done.returncode == 2 and not (tmp_path / "book").exists()
    assert "argument --engine: invalid choice: 'hugo' (choose from 'mkdocs', 'zensical')" in (
        done.stderr
    )
    with pytest.raises(ValueError) as error:
        new_book(tmp_path / "book", language="en", engine="hugo")
    assert str(error.value) == "llmbook new writes a book built with mkdocs or zensical, not 'hugo'"
    assert ENGINES[0] == "mkdocs"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_zensical_workflow_passes_actionlint(tmp_path: Path, language: str) -> None:
    actionlint = ACTIONLINT if ACTIONLINT.exists() else shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (the test extra installs it)")
    new_book(tmp_path / "book", language=language, engine="zensical")
    path = tmp_path / "book" / ".github" / "workflows" / "book.yml"
    done = subprocess.run([str(actionlint), str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
def test_a_zensical_book_builds_with_the_commands_its_readme_names(tmp_path: Path) -> None:
    pytest.importorskip("zensical")
    book = tmp_path / "book"
    assert new(book, "--engine", "zensical").returncode == 0
    for command in readme_commands(book)[1:]:  # installed already: this environment
        program, *args = command.split()  # `zensical …` as `python -m zensical …`
        argv = (
            [sys.executable, *args]
            if program == "python"
            else [sys.executable, "-m", program, *args]
        )
        done = subprocess.run(argv, cwd=book, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr[-3000:]}"
    page = (book / "site" / "index.html").read_text(encoding="utf-8")
    assert "a circle of radius 2 has an area of" in page and "12.57" in page
    assert "<svg" in page and 'data-llmbook-quiz data-answer="B"' in page
    for rel in asset_paths():  # linked from the page, and in the site
        assert f"assets/llmbook/{rel}" in page and (book / "site/assets/llmbook" / rel).is_file()

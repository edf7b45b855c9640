"""`llmbook new DIR [--language L]`: a book that builds with `mkdocs build --strict` at once, in
every language llmbook ships words for (English by default), each of its files in that language,
with a GitHub workflow actionlint accepts; a folder that is not empty is refused."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from llmbook.commands.scaffold import new_book
from llmbook.core.i18n import load_locale, shipped_languages
from sites import build

ACTIONLINT = Path(sys.executable).with_name("actionlint")
LANGUAGES = shipped_languages()
# Each language's book: its name (the first page's title too) and a phrase of its first page.
SITE_NAME = {
    "de": "Mein Buch",
    "en": "My book",
    "es": "Mi libro",
    "fr": "Mon livre",
    "ja": "わたしの本",
    "zh": "我的书",
}
PHRASE = {
    "de": "hat ein Kreis mit Radius 2 die Fläche",
    "en": "a circle of radius 2 has an area of",
    "es": "un círculo de radio 2 tiene un área de",
    "fr": "un disque de rayon 2 a une aire de",
    "ja": "半径 2 の円の面積は",
    "zh": "半径为 2 的圆，面积是",
}
# Figures in Chinese and Japanese need the CJK font (and Chinese search, jieba): the `cjk` extra.
REQUIREMENT = {"zh": "llmbook[cjk]", "ja": "llmbook[cjk]"}


def new(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "llmbook", "new", str(folder), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def read_config(folder: Path) -> dict:
    class Loader(yaml.SafeLoader):  # MkDocs' !ENV tag, as a marker
        pass

    Loader.add_constructor("!ENV", lambda loader, node: ("!ENV", loader.construct_sequence(node)))
    return yaml.load((folder / "mkdocs.yml").read_text(encoding="utf-8"), Loader=Loader)


@pytest.mark.slow
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_book_builds_strict_at_once(tmp_path: Path, language: str) -> None:
    done = new(tmp_path / "book", "--language", language)
    assert done.returncode == 0, done.stderr
    started = time.perf_counter()
    built = build(tmp_path / "book" / "mkdocs.yml", strict=True, cache=True).ok()
    print(f"first build of the {language} scaffold: {time.perf_counter() - started:.1f} s")
    page = built.page()
    assert f'<html lang="{language}"' in page and PHRASE[language] in page
    assert "<svg" in page and "admonition warning" in page  # the figure, the :::warning
    assert "12.57" in page  # the bound number, as written
    # The quiz, read with the language's keywords; the labelled equation the reference names.
    assert 'data-llmbook-quiz data-answer="B"' in page and 'id="eq-area"' in page


def test_the_scaffold_is_an_offline_material_book_with_strict_anchors(tmp_path: Path) -> None:
    assert new(tmp_path / "book").returncode == 0
    config = read_config(tmp_path / "book")
    assert config["theme"]["font"] is False and config["theme"]["language"] == "en"
    assert config["validation"]["anchors"] == "warn"
    assert "offline" in config["plugins"] and "llmbook.extension" in config["markdown_extensions"]
    # The polyfill it names is one the plugin ships into every site.
    shim = config["extra"]["polyfills"][0].removeprefix("assets/llmbook/")
    assert (Path(__import__("llmbook").__file__).parent / "assets" / shim).is_file()
    sandbox = config["plugins"][-1]["llmbook"]["execute_sandbox"]
    assert sandbox == ("!ENV", ["LLMBOOK_SANDBOX", "auto"])
    assert (tmp_path / "book" / ".gitignore").read_text().count(".llmbook-cache/") == 1


def test_a_chinese_book_searches_chinese(tmp_path: Path) -> None:
    assert new(tmp_path / "书", "--language", "zh").returncode == 0
    assert read_config(tmp_path / "书")["plugins"][0] == {"search": {"lang": "zh"}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_new_books_first_page_is_in_its_language(tmp_path: Path, language: str) -> None:
    assert new(tmp_path / "book", "--language", language).returncode == 0
    config = read_config(tmp_path / "book")
    assert config["theme"]["language"] == language
    assert config["site_name"] == SITE_NAME[language]
    locale = load_locale(language)
    page = (tmp_path / "book" / "docs" / "index.md").read_text(encoding="utf-8")
    lines = page.splitlines()
    assert lines[0] == f"# {SITE_NAME[language]}" and PHRASE[language] in page
    # The quiz's lines start with the language's keywords, not English's.
    answers = [line.split(":")[0].strip() for line in lines if locale.quiz_answer.match(line)]
    explanations = [line for line in lines if locale.quiz_explanation.match(line)]
    assert answers == [locale.quiz_word("answer")]
    assert [line.startswith(locale.quiz_word("explanation")) for line in explanations] == [True]
    # The reference is written as the language writes one, linked to the labelled equation.
    assert f"[{locale.part_text('equation', '1')}](#eq-area)" in page
    assert "$$ {#eq-area}" in lines


def comments(path: Path) -> list[str]:
    return [
        line.split("#", 1)[1].strip()
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.lstrip().startswith("#")
    ]


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
def test_every_file_of_a_new_book_is_in_its_language(tmp_path: Path, language: str) -> None:
    english = sorted(
        p.relative_to(tmp_path / "en") for p in new_book(tmp_path / "en", language="en")
    )
    written = new_book(tmp_path / language, language=language)
    assert sorted(p.relative_to(tmp_path / language) for p in written) == english
    for path in english:
        if path.suffix != ".md":  # a Markdown page's `#` is its title
            left = set(comments(tmp_path / language / path)) & set(comments(tmp_path / "en" / path))
            assert left == set(), f"{path} keeps English comments"
    requirements = (tmp_path / language / "requirements.txt").read_text(encoding="utf-8")
    assert requirements.splitlines()[-1] == REQUIREMENT.get(language, "llmbook")
    # The workflow: English's jobs and steps, its step names in the language.
    ours, theirs = (
        yaml.safe_load((tmp_path / code / ".github/workflows/book.yml").read_text(encoding="utf-8"))
        for code in (language, "en")
    )
    names = [step.pop("name", None) for job in ours["jobs"].values() for step in job["steps"]]
    english_names = [
        step.pop("name", None) for job in theirs["jobs"].values() for step in job["steps"]
    ]
    assert ours == theirs
    assert [n for n in names if n is not None and n in english_names] == []
    assert [n is None for n in names] == [n is None for n in english_names]


def test_an_english_book_needs_no_cjk_extra(tmp_path: Path) -> None:
    assert new(tmp_path / "book").returncode == 0
    assert (tmp_path / "book" / "requirements.txt").read_text().splitlines()[-1] == "llmbook"


def test_a_language_without_words_is_refused(tmp_path: Path) -> None:
    done = new(tmp_path / "book", "--language", "pt")
    assert done.returncode == 2 and not (tmp_path / "book").exists()
    assert "argument --language: invalid choice: 'pt'" in done.stderr
    choices = done.stderr.split("choose from", 1)[1]
    assert re.findall(r"\b[a-z]{2}\b", choices) == LANGUAGES
    with pytest.raises(ValueError) as error:
        new_book(tmp_path / "book", language="pt")
    assert str(error.value) == "llmbook new writes a book in de, en, es, fr, ja, zh, not 'pt'"


@pytest.mark.parametrize(("language", "wanted"), [("en", "llmbook"), ("zh", "llmbook[cjk]")])
def test_a_cjk_book_requires_the_cjk_extra(tmp_path: Path, language: str, wanted: str) -> None:
    assert new(tmp_path / "book", "--language", language).returncode == 0
    text = (tmp_path / "book" / "requirements.txt").read_text(encoding="utf-8")
    required = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert required == [wanted]


def test_a_folder_that_is_not_empty_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    done = new(tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        f"llmbook new: {tmp_path} is not empty: `llmbook new` writes a book only into an empty "
        "or new folder. Fix: choose a new folder name, or empty this one.\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_workflow_passes_actionlint(tmp_path: Path, language: str) -> None:
    actionlint = ACTIONLINT if ACTIONLINT.exists() else shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (the test extra installs it)")
    assert new(tmp_path / "book", "--language", language).returncode == 0
    workflow = tmp_path / "book" / ".github" / "workflows" / "book.yml"
    done = subprocess.run(
        [str(actionlint), str(workflow)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_workflow_requires_the_sandbox_on_pull_requests_and_keeps_the_cache(
    tmp_path: Path,
) -> None:
    assert new(tmp_path / "book").returncode == 0
    workflow = yaml.safe_load((tmp_path / "book" / ".github/workflows/book.yml").read_text())
    build_job = workflow["jobs"]["build"]
    assert "'required'" in build_job["env"]["LLMBOOK_SANDBOX"]
    uses = {step.get("uses", "").split("@")[0]: step for step in build_job["steps"]}
    assert uses["actions/cache"]["with"]["path"] == ".llmbook-cache"
    # actions/cache saves at the job's end: the cache is pruned after the build, before that.
    runs = [step.get("run") for step in build_job["steps"]]
    assert runs.index("llmbook cache prune") == runs.index("mkdocs build --strict") + 1
    assert "actions/upload-pages-artifact" in uses and "actions/upload-artifact" in uses
    deploy = workflow["jobs"]["deploy"]["steps"][0]["uses"]
    assert deploy.startswith("actions/deploy-pages@")

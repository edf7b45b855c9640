"""`llmbook new DIR`: a book that builds with `mkdocs build --strict` at once, in English or
Chinese, with a GitHub workflow actionlint accepts; a folder that is not empty is refused."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from sites import build

ACTIONLINT = Path(sys.executable).with_name("actionlint")


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
def test_a_new_english_book_builds_strict_at_once(tmp_path: Path) -> None:
    done = new(tmp_path / "book")
    assert done.returncode == 0, done.stderr
    started = time.perf_counter()
    built = build(tmp_path / "book" / "mkdocs.yml", strict=True, cache=True).ok()
    print(f"first build of the scaffold: {time.perf_counter() - started:.1f} s")
    page = built.page()
    assert '<html lang="en"' in page
    assert "<svg" in page and "admonition warning" in page  # the figure, the :::warning
    assert "12.57" in page  # the bound number, as written


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


@pytest.mark.slow
def test_a_new_chinese_book_builds_strict(tmp_path: Path) -> None:
    assert new(tmp_path / "书", "--language", "zh").returncode == 0
    config = read_config(tmp_path / "书")
    assert config["theme"]["language"] == "zh"
    assert config["plugins"][0] == {"search": {"lang": "zh"}}
    built = build(tmp_path / "书" / "mkdocs.yml", strict=True, cache=False).ok()
    assert '<html lang="zh"' in built.page() and "半径为 2 的圆" in built.page()


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


def test_the_workflow_passes_actionlint(tmp_path: Path) -> None:
    actionlint = ACTIONLINT if ACTIONLINT.exists() else shutil.which("actionlint")
    if actionlint is None:
        pytest.skip("actionlint is not installed (the test extra installs it)")
    assert new(tmp_path / "book").returncode == 0
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
    assert "actions/upload-pages-artifact" in uses and "actions/upload-artifact" in uses
    deploy = workflow["jobs"]["deploy"]["steps"][0]["uses"]
    assert deploy.startswith("actions/deploy-pages@")

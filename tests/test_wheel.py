"""The plugin as someone else installs it: its wheel (plugins/pyproject.toml) in a fresh virtual
environment, no torch, no llmkit, no demo of this book and no `cjk` extra, the repository nowhere
on sys.path, builds an English site and a new book (`llmbook new`) with `mkdocs build --strict`;
a Chinese book is told to install the extra."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest
from sites import ROOT, build, once_per_run, write_config, write_pages

pytestmark = pytest.mark.slow

CONSTRAINTS = ROOT / "constraints.txt"
PAGE = """# A small book

```python
def triangle(n):
    return n * (n + 1) // 2

x = triangle(1) + 1
print(x)
```

Two is [[x = 2]].
"""
CONFIG = {
    "site_name": "A small book",
    "use_directory_urls": False,
    "theme": {"name": "material", "language": "en", "font": False},
    "plugins": ["search", "llmbook"],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


def _run(*argv: str | Path, cwd: Path) -> str:
    done = subprocess.run(
        [str(a) for a in argv], cwd=cwd, env=_clean_env(), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def _clean_env() -> dict[str, str]:
    # Nothing of this checkout or its venv may leak into the fresh one.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "NO_MKDOCS_2_WARNING": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}


def _make_venv(folder: Path) -> Path:
    """The wheel and its dependencies (pinned by constraints.txt) in folder/venv."""
    started = time.perf_counter()
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", folder, ROOT / "plugins",
         cwd=folder)  # fmt: skip
    wheel = next(folder.glob("llmbook-*.whl"))
    venv.create(folder / "venv", with_pip=True)
    python = folder / "venv" / "bin" / "python"
    _run(python, "-m", "pip", "install", "-q", "-c", CONSTRAINTS, wheel, cwd=folder)
    took = time.perf_counter() - started
    size = _run("du", "-sh", folder / "venv", cwd=folder).split()[0]
    (folder / "install.txt").write_text(f"{took:.0f} s, {size}\n", encoding="utf-8")
    return python


@pytest.fixture(scope="module")
def python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = once_per_run(tmp_path_factory, "llmbook-wheel", lambda f: _make_venv(f).parents[2])
    print(f"the wheel's venv: {(folder / 'install.txt').read_text().strip()}")
    return folder / "venv" / "bin" / "python"


def test_the_wheel_brings_no_torch_and_no_repository(python: Path, tmp_path: Path) -> None:
    probe = (
        "import importlib.util as u, sys, llmbook.adapters.mkdocs.plugin\n"
        "print(u.find_spec('torch'), u.find_spec('llmkit'), 'torch' in sys.modules)\n"
        "print(llmbook.adapters.mkdocs.plugin.__file__)\n"
        "print([p for p in sys.path if p.startswith(sys.argv[1])])\n"
    )
    out = _run(python, "-c", probe, ROOT, cwd=tmp_path).splitlines()
    assert out[0] == "None None False"
    assert "site-packages" in out[1] and out[2] == "[]"


def test_an_english_site_builds_with_the_wheel(python: Path, tmp_path: Path) -> None:
    write_pages(tmp_path / "docs", {"index.md": PAGE})
    config = write_config(tmp_path, CONFIG)
    built = build(config, strict=True, cache=False, python=python, env={"PYTHONPATH": ""}).ok()
    assert "Two is" in built.page() and "llmbook: checked 1 numbers" in built.stderr
    page = built.page()
    assert "(computed and checked at build time)" in page and ">Output<" in page
    assert "输出" not in page and "本页" not in page


def test_a_stale_english_reference_fails_with_the_wheel(python: Path, tmp_path: Path) -> None:
    pages = {
        "index.md": PAGE + "\nSee [Section 1](more.md#doubling).\n",
        "more.md": "# More\n\n## 1 Start {#start}\n\nText.\n\n## 2 Doubling {#doubling}\n\nMore.\n",
    }
    write_pages(tmp_path / "docs", pages)
    config = write_config(
        tmp_path, {**CONFIG, "markdown_extensions": [*CONFIG["markdown_extensions"], "attr_list"]}
    )
    built = build(config, strict=True, cache=False, python=python)
    assert built.returncode == 1
    assert (
        "docs/index.md:13: written Section 1, the target is now Section 2 (Doubling): "
        "[Section 1](more.md#doubling) Fix: write Section 2, or link the section you mean"
    ) in built.stderr


def test_a_wrong_number_fails_there_at_its_line(python: Path, tmp_path: Path) -> None:
    write_pages(tmp_path / "docs", {"index.md": PAGE.replace("[[x = 2]]", "[[x = 3]]")})
    config = write_config(tmp_path, CONFIG)
    built = build(config, strict=True, cache=False, python=python)
    assert built.returncode == 1
    assert "docs/index.md:11" in built.stderr
    assert "python -m llmbook update-numbers" in built.stderr


def test_a_new_book_builds_with_the_wheel(python: Path, tmp_path: Path) -> None:
    _run(python.with_name("llmbook"), "new", tmp_path / "book", cwd=tmp_path)
    started = time.perf_counter()
    build(tmp_path / "book" / "mkdocs.yml", strict=True, cache=True, python=python).ok()
    print(f"the new book's first build in the wheel's venv: {time.perf_counter() - started:.1f} s")


def test_the_wheel_holds_no_demo_and_no_cjk_extra(python: Path, tmp_path: Path) -> None:
    probe = (
        "import importlib.util as u\n"
        "print([n for n in ('bookdemos', 'jieba', 'noto_cjk_sans_otc') if u.find_spec(n)])\n"
    )
    assert _run(python, "-c", probe, cwd=tmp_path).strip() == "[]"
    page = "# Demos\n\n:::demo kv-cache The cache\nWhat it shows.\n:::\n"
    write_pages(tmp_path / "docs", {"index.md": page})
    built = build(write_config(tmp_path, CONFIG), strict=True, cache=False, python=python)
    assert built.returncode == 1
    assert "docs/index.md:3: unknown demo 'kv-cache' Fix: this book registers no demos" in (
        built.stderr
    )


def test_a_books_demo_needing_torch_is_an_author_error_at_its_line(
    python: Path, tmp_path: Path
) -> None:
    # A book registers its own demos (`demos`): here one whose module imports torch.
    package = tmp_path / "mydemos"
    package.mkdir()
    (package / "__init__.py").write_text('DEMOS = {"kv-cache": "mydemos.kv:KV"}\n', "utf-8")
    (package / "kv.py").write_text("import torch\n", "utf-8")
    page = "# Demos\n\n:::demo kv-cache The cache\nWhat it shows.\n:::\n"
    write_pages(tmp_path / "docs", {"index.md": page})
    config = {**CONFIG, "plugins": ["search", {"llmbook": {"demos": ["mydemos"]}}]}
    env = {"PYTHONPATH": str(tmp_path)}
    built = build(write_config(tmp_path, config), strict=True, cache=False, python=python, env=env)
    assert built.returncode == 1
    assert (
        "docs/index.md:3: :::demo kv-cache computes with torch, which is not installed "
        "Fix: install torch beside llmbook, or remove the demo"
    ) in built.stderr


def test_a_chinese_book_without_the_cjk_extra_is_told_to_install_it(
    python: Path, tmp_path: Path
) -> None:
    write_pages(tmp_path / "docs", {"index.md": "# 首页\n\n正文。\n"})
    config = {**CONFIG, "theme": {**CONFIG["theme"], "language": "zh"}}
    built = build(write_config(tmp_path, config), strict=True, cache=False, python=python)
    assert built.returncode == 1
    assert "Traceback" not in built.stderr
    assert (
        "mkdocs.yml:10: the search index of this book's Chinese pages is cut into words by jieba, "
        'which is not installed Fix: install llmbook with its CJK extra: pip install "llmbook[cjk]"'
    ) in built.stderr

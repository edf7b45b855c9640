"""Settings in one place: the build, pytest, update_numbers and Zensical read the same options."""

from __future__ import annotations

from pathlib import Path

import pytest
from llmbook.config import load_options
from llmbook.errors import LLMBookError

ROOT = Path(__file__).resolve().parents[2]


def test_the_project_options_come_from_mkdocs_yml() -> None:
    options = load_options(ROOT / "mkdocs.yml")
    assert options["execute_page_timeout"] == 900  # set in mkdocs.yml (the default is 600)
    assert options["execute_timeout"] == 120 and options["execute"] is True


def test_a_file_without_the_plugin_gives_the_defaults(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text("site_name: x\nplugins: [search]\n", encoding="utf-8")
    options = load_options(tmp_path / "mkdocs.yml")
    assert options["execute_page_timeout"] == 600 and options["execute_workers"] == 0


def test_an_invalid_option_names_the_file_and_the_option(tmp_path: Path) -> None:
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: x\nplugins:\n  - llmbook:\n      execute_timeout: soon\n", encoding="utf-8"
    )
    with pytest.raises(LLMBookError) as error:
        load_options(config)
    assert str(error.value).startswith(
        f"{config}: the llmbook options are invalid: execute_timeout: "
    )


def test_pytest_runs_pages_with_the_project_options(pytester: pytest.Pytester, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    pytester.makefile(
        ".yml", mkdocs="site_name: x\nplugins:\n  - llmbook:\n      execute_timeout: 1\n"
    )
    pytester.makefile(".md", **{"docs/slow": "```python\nimport time\ntime.sleep(20)\n```\n"})
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-q")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["docs/slow.md:1: block timed out after 1 s*"])

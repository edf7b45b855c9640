"""Settings in one place: the build, pytest, update_numbers and Zensical read the same options."""

from __future__ import annotations

from pathlib import Path

import pytest
from llmbook.adapters.config import load_options
from llmbook.core.errors import LLMBookError

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


OPTIONS = (
    "enabled, execute, execute_pages, execute_timeout, execute_page_timeout, execute_workers, "
    "execute_output_limit, execute_memory_mb, execute_seed, execute_shard, execute_show_last, "
    "execute_ipython, execute_cluster, execute_cluster_wait, execute_preamble, execute_sandbox, "
    "execute_file_size_mb, execute_env, execute_network, execute_threads, execute_allow_errors, "
    "execute_read, demos, box_types, numbers_strict, "
    "language, locales, languages, translations_strict, bibliography, cache, cache_dir, "
    "cache_converted, "
    "offline_check, remote_images, launch, editions, editions_dir, editions_skip"
)
MISSPELT = (
    "site_name: x\nplugins:\n  - search\n  - llmbook:\n      execute: false\n"
    "      execute_timout: 5\n      colour: red\n"
)


def test_an_unknown_option_names_its_line_and_the_nearest_option(tmp_path: Path) -> None:
    """Not MkDocs' warning, after which the default timeout would silently apply."""
    config = tmp_path / "mkdocs.yml"
    config.write_text(MISSPELT, encoding="utf-8")
    with pytest.raises(LLMBookError) as error:
        load_options(config)
    assert str(error.value).split("\n") == [
        "mkdocs.yml:6: the llmbook plugin has no option `execute_timout` Fix: did you mean "
        "`execute_timeout`? Rename it, or remove the line",
        "mkdocs.yml:7: the llmbook plugin has no option `colour` Fix: remove it, or use one of "
        f"llmbook's options: {OPTIONS}",
    ]


def test_an_unknown_option_in_an_inherited_config_names_that_file(tmp_path: Path) -> None:
    (tmp_path / "base.yml").write_text(MISSPELT.replace("      colour: red\n", ""))
    (tmp_path / "mkdocs.en.yml").write_text("INHERIT: base.yml\ntheme:\n  language: en\n")
    with pytest.raises(LLMBookError) as error:
        load_options(tmp_path / "mkdocs.en.yml")
    assert str(error.value).startswith(
        "base.yml:6: the llmbook plugin has no option `execute_timout` Fix: did you mean "
    )


@pytest.mark.parametrize("strict", [False, True], ids=["build", "strict"])
def test_an_unknown_option_stops_an_mkdocs_build(tmp_path: Path, strict: bool) -> None:
    from sites import build

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# x\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(MISSPELT.replace("      colour: red\n", ""))
    done = build(tmp_path / "mkdocs.yml", strict=strict, cache=False)
    assert done.returncode != 0
    assert (
        "Plugin 'llmbook' option 'execute_timout': mkdocs.yml:6: the llmbook plugin has no "
        "option `execute_timout` Fix: did you mean `execute_timeout`? Rename it, or remove the "
        "line\n"
    ) in done.stderr, done.stderr[-2000:]
    assert "Aborted with a configuration error!" in done.stdout
    assert not (tmp_path / "site" / "index.html").exists()

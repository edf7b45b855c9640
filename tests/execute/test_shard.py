"""CI sharding (execute/cluster/shard.py): which pages a shard runs, what it does with the others, and the
errors of a bad `LLMBOOK_SHARD`. The round trip through whole builds: tests/plugin/test_sharded_builds.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from llmbook.adapters.config import LLMBookConfig
from llmbook.core.errors import LLMBookError
from llmbook.core.project import Project
from llmbook.core.store import read_entry
from llmbook.execute import Executor
from llmbook.execute.cluster.shard import Shard, read_shard, shard_number

from .conftest import make_config

# Pinned: a page's shard is the same on every run and machine (SHA-256, not Python's `hash()`).
KNOWN = {
    ("index.md", 2): 1,
    ("one.md", 2): 0,
    ("two.md", 2): 0,
    ("plain.md", 2): 0,
    ("a/b.md", 2): 1,
    ("index.md", 3): 1,
    ("notes.ipynb", 3): 2,
    ("chapters/attention.md", 4): 0,
    ("chapters/kv-cache.md", 4): 1,
    ("main.md", 7): 6,
}


def page(value: int) -> str:
    return f"# p\n\n```python\nx = {value}\nprint(x)\n```\n\nx 是 [[x = {value}]]。\n"


def test_a_pages_shard_is_pinned_by_its_path() -> None:
    assert {(p, n): shard_number(p, n) for p, n in KNOWN} == KNOWN
    assert [Shard(i, 2).holds("one.md") for i in (0, 1)] == [True, False]


def test_a_pages_shard_is_the_same_in_every_process() -> None:
    """Python's `hash()` of a string changes with PYTHONHASHSEED; the shard must not."""
    code = (
        "from llmbook.execute.cluster.shard import shard_number as s\n"
        "print(s('index.md', 2), s('a/b.md', 7))"
    )
    seen = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        seen.add(done.stdout.strip())
    assert seen == {f"1 {shard_number('a/b.md', 7)}"}


def test_the_shard_hashes_the_path_relative_to_docs_dir(tmp_path: Path, monkeypatch) -> None:
    """The same book under another docs_dir splits the same way."""
    monkeypatch.setenv("LLMBOOK_SHARD", "0/2")
    for docs in ("docs", "book/src"):
        project = Project.at(tmp_path, docs_dir=str(tmp_path / docs))
        executor = Executor(make_config(), project)
        pages = [
            (f"{docs}/{name}", page(i).encode()) for i, name in enumerate(["one.md", "index.md"])
        ]
        executor.run_pages(pages)
        assert executor.executed == [f"{docs}/one.md"]
        assert executor.left_out == {f"{docs}/index.md"}


def test_a_shard_runs_its_pages_and_leaves_the_others_out(
    make_executor, monkeypatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("LLMBOOK_SHARD", "0/2")
    executor = make_executor()
    pages = [("docs/one.md", page(1).encode()), ("docs/index.md", page(2).encode())]
    report = executor.run_pages(pages)
    assert report.failures == []
    assert executor.executed == ["docs/one.md"] and executor.left_out == {"docs/index.md"}
    assert report.plans["docs/one.md"].count == 1
    left = report.plans["docs/index.md"]  # planned, so the page still renders, but unchecked
    assert left.result is None and left.count == 0 and left.coverage is not None
    # Stored: the shard's own page only (results, and the plan made of them); the other page's
    # load entry only, the same key in every shard's build.
    cache = tmp_path / ".llmbook-cache"
    assert [read_entry(p).value["src"] for p in (cache / "results").iterdir()] == ["docs/one.md"]
    kinds = sorted(type(read_entry(p).value).__name__ for p in (cache / "stages").iterdir())
    assert kinds == ["LoadedPage", "LoadedPage", "Plan"]


def test_a_page_cached_already_is_used_whatever_its_shard(make_executor, monkeypatch) -> None:
    make_executor().run_pages([("docs/index.md", page(2).encode())])
    monkeypatch.setenv("LLMBOOK_SHARD", "0/2")
    executor = make_executor()
    report = executor.run_pages([("docs/index.md", page(2).encode())])
    assert executor.executed == [] and executor.left_out == set()
    assert report.plans["docs/index.md"].count == 1


def test_one_page_asked_for_runs_whatever_its_shard(make_executor, monkeypatch) -> None:
    """pytest and `update_numbers` run a page by name: a shard must not pass it unchecked."""
    monkeypatch.setenv("LLMBOOK_SHARD", "0/2")
    executor = make_executor()
    assert executor.run_page(page(2), src="docs/index.md").count == 1
    assert executor.executed == ["docs/index.md"]


def test_one_shard_of_one_is_every_page(make_executor) -> None:
    executor = make_executor(execute_shard="0/1")
    executor.run_pages([("docs/one.md", page(1).encode()), ("docs/index.md", page(2).encode())])
    assert executor.executed == ["docs/one.md", "docs/index.md"]


FIX = (
    "Fix: give each of N machines its own i/N, i from 0 to N - 1 (0/2 and 1/2 on two machines), "
    "or leave {name} unset to run every page"
)
BAD = {
    "3/2": "names no shard: the 2 shards are counted from 0, 0/2 to 1/2",
    "x": "is not a shard: write it i/N, shard i (counted from 0) of N",
    "0/0": "asks for 0 shards: there must be at least 1",
    "-1/2": "is not a shard: write it i/N, shard i (counted from 0) of N",
}


@pytest.mark.parametrize("value", list(BAD))
def test_a_bad_shard_says_how_to_write_one(make_executor, monkeypatch, value: str) -> None:
    monkeypatch.setenv("LLMBOOK_SHARD", value)
    with pytest.raises(LLMBookError) as error:
        make_executor()
    fix = FIX.format(name="LLMBOOK_SHARD")
    assert str(error.value) == f"LLMBOOK_SHARD={value} {BAD[value]}. {fix}"


def test_a_bad_shard_option_names_mkdocs_yml(make_executor) -> None:
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_shard="2/2")
    fix = FIX.format(name="`execute_shard` in mkdocs.yml")
    assert str(error.value) == f"mkdocs.yml: `execute_shard: 2/2` {BAD['3/2']}. {fix}"


def test_the_variable_overrides_the_option_and_empty_is_every_page() -> None:
    assert read_shard("1/3", " 0/2 ") == Shard(0, 2)
    assert read_shard("1/3", "") == Shard(1, 3)
    assert read_shard("", None) is None
    assert LLMBookConfig().execute_shard == ""


@pytest.mark.parametrize("switch", ["env", "config"])
def test_a_shard_with_execution_off_is_an_error(make_executor, monkeypatch, switch) -> None:
    """The assembling build must not inherit a shard: it would leave pages out, not fail."""
    monkeypatch.setenv("LLMBOOK_SHARD", "1/2")
    if switch == "env":
        monkeypatch.setenv("LLMBOOK_EXECUTE", "0")
    executor = make_executor(**({"execute": False} if switch == "config" else {}))
    with pytest.raises(LLMBookError) as error:
        executor.run_pages([("docs/one.md", page(1).encode())])
    assert str(error.value) == (
        "LLMBOOK_SHARD=1/2 runs a share of the pages, but execution is switched off "
        "(LLMBOOK_EXECUTE=0 or `execute: false` in mkdocs.yml). Fix: leave LLMBOOK_SHARD unset "
        "in the build that assembles the site from the merged caches, and switch execution on "
        "in each shard's build"
    )


def test_a_shard_with_the_cache_off_is_an_error(make_executor) -> None:
    executor = make_executor(cache=False, execute_shard="0/2")
    with pytest.raises(LLMBookError) as error:
        executor.run_pages([("docs/one.md", page(1).encode())])
    assert str(error.value) == (
        "mkdocs.yml: `execute_shard: 0/2` runs a share of the pages to fill the cache, but the "
        "cache is off (LLMBOOK_CACHE=0 or `cache: false` in mkdocs.yml), so the build would keep "
        "none of their results. Fix: switch the cache on in each shard's build"
    )
    assert executor.executed == []


def test_pytest_and_update_numbers_ignore_the_shard(make_executor, monkeypatch) -> None:
    """They run pages by name (`run_page`): neither a shard nor its checks apply."""
    monkeypatch.setenv("LLMBOOK_SHARD", "0/2")
    monkeypatch.setenv("LLMBOOK_EXECUTE", "0")
    executor = make_executor()
    with pytest.raises(LLMBookError, match="no cached results"):
        executor.run_page(page(2), src="docs/index.md")

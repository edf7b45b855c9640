"""The executor end to end: checked numbers, drift reports, bad input, the cache and the switches."""

from __future__ import annotations

from pathlib import Path

import pytest
from llmbook.core.errors import AuthorError
from llmbook.core.store import read_entry
from llmbook.execute import DriftError

import llmkit

from .conftest import BOOK_PREAMBLE, SEED_000

KV_PAGE = """\
# KV cache

```python hidden
kv_gb = kv_cache_bytes(32, 32, 128, 4096) / 1e9
```

单条序列需要 [[kv_gb = 2.1]] GB，batch=8 时约 [[kv_gb * 8 = 17]] GB。

| 模型 | 显存 |
| --- | --- |
| 7B | [[kv_cache_bytes(32, 32, 128, 4096) = 2,147,483,648]] B |

$$ 2 \\times 32 \\times 32 \\times 128 \\times 4096 \\times 2 \\approx [[kv_gb = 2.1]]\\ \\text{GB} $$
"""


def test_correct_page_checks_every_number(make_executor) -> None:
    executor = make_executor(cache=False)
    plan = executor.run_page(KV_PAGE, src="docs/chapters/kv.md")
    assert plan.count == 4 and plan.mismatches == []
    assert [n.value for n in plan.numbers] == [
        2.147483648,
        2.147483648 * 8,
        2147483648,
        2.147483648,
    ]
    assert executor.counts == {"docs/chapters/kv.md": 4}


def test_one_digit_changed_fails_with_the_exact_message(make_executor) -> None:
    executor = make_executor(cache=False)
    plan = executor.run_page(
        KV_PAGE.replace("[[kv_gb = 2.1]] GB", "[[kv_gb = 2.2]] GB"), src="docs/chapters/x.md"
    )
    assert plan.mismatches == [
        "docs/chapters/x.md:7: written 2.2, computed 2.1474836 (rounds to 2.1)"
    ]
    assert str(DriftError(plan.mismatches)).split("\n") == [
        "1 written number differs from the computation:",
        "docs/chapters/x.md:7: written 2.2, computed 2.1474836 (rounds to 2.1)",
        "Fix: correct the written values, or run `python -m llmbook update-numbers` to rewrite them to the "
        "computed ones and review the diff.",
    ]


def test_all_mismatches_of_a_build_are_reported(make_executor) -> None:
    executor = make_executor(cache=False)
    drifted = KV_PAGE.replace("= 17]]", "= 18]]").replace(
        "\\approx [[kv_gb = 2.1]]", "\\approx [[kv_gb = 2.0]]"
    )
    pages = [
        ("docs/a.md", drifted),
        ("docs/b.md", KV_PAGE.replace("2,147,483,648", "2,147,483,646")),
    ]
    with pytest.raises(DriftError) as error:
        executor.run_pages(pages).raise_if_failed()
    assert error.value.mismatches == [
        "docs/a.md:7: written 18, computed 17.179869 (rounds to 17)",
        "docs/a.md:13: written 2.0, computed 2.1474836 (rounds to 2.1)",
        "docs/b.md:11: written 2,147,483,646, computed 2147483648 (rounds to 2,147,483,648)",
    ]


def test_a_changed_llmkit_calculator_fails_the_page(make_executor) -> None:
    """Pages run in fresh processes that import llmkit anew: an edit (as under `mkdocs serve`)
    is seen by the next run without restarting anything."""
    calc = Path(llmkit.__file__).parent / "calc.py"
    source = calc.read_text(encoding="utf-8")
    assert "return 2 * num_layers" in source
    make_executor(cache=False).run_page(KV_PAGE, src="docs/kv.md")  # the worker server is up
    try:
        calc.write_text(source.replace("return 2 * num_layers", "return num_layers"), "utf-8")
        plan = make_executor(cache=False).run_page(KV_PAGE, src="docs/kv.md")
    finally:
        calc.write_text(source, encoding="utf-8")
    assert plan.mismatches[0] == "docs/kv.md:7: written 2.1, computed 1.0737418 (rounds to 1.1)"
    assert len(plan.mismatches) == 4


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (
            "见 [[missing_name * 2 = 4]]。",
            "docs/p.md:5: [[missing_name * 2 = 4]]: name 'missing_name' is not defined Fix: define "
            "`missing_name` in a python block above line 5 (a `python hidden` block keeps it off the page)",
        ),
        (
            "见 [[x = about two]]。",
            "docs/p.md:5: [[x = about two]]: the written value 'about two' is not a number Fix: write a "
            "number such as 2.1, -1.34, 75%, 2.3e-10, 2,147,483,648 or a vector [0.365, 0.730]",
        ),
        (
            "见 [[x / 0 = 1]]。",
            "docs/p.md:5: [[x / 0 = 1]]: the expression raised ZeroDivisionError: division by zero "
            "Fix: correct the expression (it runs in the page's namespace)",
        ),
        (
            "见 [[str(x) = 2]]。",
            "docs/p.md:5: [[str(x) = 2]]: the expression gave a str ('2'), not a number Fix: bind an "
            "expression that yields a number, a tensor or a list of numbers",
        ),
    ],
)
def test_bad_bindings_name_file_and_line(run_md, line: str, message: str) -> None:
    page = f"```python hidden\nx = 2\n```\n\n{line}\n"
    with pytest.raises(AuthorError) as error:
        run_md(page, src="docs/p.md")
    assert str(error.value) == message


def test_vector_of_the_wrong_length_is_reported(run_md) -> None:
    page = "```python hidden\nimport torch\nv = torch.tensor([0.5, 1.0, 1.5])\n```\n\n向量 [[v = [0.5, 1.0]]]。\n"
    plan = run_md(page, src="docs/p.md")
    assert plan.mismatches == [
        "docs/p.md:6: written [0.5, 1.0] has 2 elements, computed [0.5, 1, 1.5] has 3"
    ]


def test_expected_output_is_checked(run_md) -> None:
    page = (
        "```python\nprint(1 + 1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```\n{}\n```\n"
    )
    run_md(page.format("2"))  # matches: no error
    with pytest.raises(AuthorError) as error:
        run_md(page.format("3"))
    assert str(error.value).startswith(
        "docs/page.md:6: the python block at line 1 printed something else than its expected output:"
    )
    assert "-3\n+2" in str(error.value)


def test_seed_000_builds_with_execute_false_and_fails_with_file_and_line(run_md) -> None:
    seed = SEED_000.read_text(encoding="utf-8")
    plan = run_md("---\nexecute: false\n---\n" + seed, src="docs/chapters/seed.md")
    assert plan.result is None and plan.count == 0
    with pytest.raises(AuthorError) as error:
        run_md(seed, src="docs/chapters/seed.md")
    # Its first fragment (seed line 74) subclasses nn.Module without importing torch.nn.
    assert str(error.value).startswith(
        "docs/chapters/seed.md:74: NameError: name 'nn' is not defined (python block at line 73)\n"
    )
    assert "class CachedAttention(nn.Module):" in str(error.value)


def test_bound_numbers_on_a_page_that_does_not_run(run_md) -> None:
    with pytest.raises(AuthorError, match=r"^docs/page.md:4: \[\[x = 1\]\] cannot be checked"):
        run_md("---\nexecute: false\n---\n[[x = 1]]\n")


# --- the cache -------------------------------------------------------------------------------

PAGE = "```python\nimport torch\nprint(torch.ones(2).sum().item())\n```\n\n[[1 + 1 = 2]]\n"


def test_cache_is_reused_then_invalidated_by_code(make_executor, tmp_path: Path) -> None:
    first = make_executor()
    first.run_page(PAGE, src="docs/p.md")
    assert first.executed == ["docs/p.md"]
    assert len(list((tmp_path / ".llmbook-cache" / "results").glob("*.json"))) == 1
    again = make_executor()
    plan = again.run_page(PAGE, src="docs/p.md")
    assert again.executed == [] and plan.result.blocks[0].output == "2.0\n" and plan.count == 1
    # A written number is not part of the key: changing it re-checks without re-running.
    drifted = again.run_page(PAGE.replace("= 2]]", "= 3]]"), src="docs/p.md")
    assert again.executed == [] and drifted.mismatches
    changed = make_executor()
    changed.run_page(PAGE.replace("ones(2)", "ones(3)"), src="docs/p.md")
    assert changed.executed == ["docs/p.md"]


def test_corrupt_cache_entry_is_ignored_and_rebuilt(make_executor, tmp_path: Path) -> None:
    make_executor().run_page(PAGE, src="docs/p.md")
    (entry,) = (tmp_path / ".llmbook-cache" / "results").glob("*.json")
    entry.write_bytes(entry.read_bytes()[:-9])  # half-written
    executor = make_executor()
    assert executor.run_page(PAGE, src="docs/p.md").result.blocks[0].output == "2.0\n"
    assert executor.executed == ["docs/p.md"]
    assert read_entry(entry).value["values"] == [2]


def test_a_failing_page_writes_nothing_to_the_cache(make_executor, tmp_path: Path) -> None:
    with pytest.raises(AuthorError):
        make_executor().run_page(
            "```python\nx = 1\n```\n\n```python\n1 / 0\n```\n", src="docs/p.md"
        )
    assert not list(tmp_path.rglob("*.json"))


def test_cache_off_by_env_and_config(make_executor, monkeypatch, tmp_path: Path) -> None:
    make_executor(cache=False).run_page(PAGE, src="docs/p.md")
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    make_executor().run_page(PAGE, src="docs/p.md")
    assert not (tmp_path / ".llmbook-cache").exists()


@pytest.mark.parametrize("switch", ["env", "config"])
def test_execution_off_uses_the_cache_or_fails_clearly(make_executor, monkeypatch, switch) -> None:
    off = {"execute": False} if switch == "config" else {}
    if switch == "env":
        monkeypatch.setenv("LLMBOOK_EXECUTE", "0")
    with pytest.raises(AuthorError) as error:
        make_executor(**off).run_page(PAGE, src="docs/p.md")
    assert str(error.value) == (
        "docs/p.md:1: execution is switched off (LLMBOOK_EXECUTE=0 or `execute: false` in "
        "mkdocs.yml), and this page has no cached results for its current code Fix: build once "
        "with execution on to fill the cache (sharded: copy the cache folders of all the "
        "LLMBOOK_SHARD builds into this one's first), or opt the page out with `execute: false` "
        "in its front matter"
    )
    monkeypatch.delenv("LLMBOOK_EXECUTE", raising=False)
    make_executor().run_page(PAGE, src="docs/p.md")  # fills the cache
    if switch == "env":
        monkeypatch.setenv("LLMBOOK_EXECUTE", "0")
    executor = make_executor(**off)
    assert executor.run_page(PAGE, src="docs/p.md").result.blocks[0].output == "2.0\n"
    assert executor.executed == []


def test_a_fully_cached_page_does_not_import_torch(make_executor, tmp_path: Path) -> None:
    """Warm rebuilds stay cheap: results come from the cache, torch is never imported."""
    import subprocess
    import sys

    make_executor().run_page(PAGE, src="docs/p.md")  # fills tmp_path/.llmbook-cache
    script = (
        "import sys\n"
        "from llmbook.adapters.config import LLMBookConfig\n"
        "from llmbook.execute import Executor\n"
        "from llmbook.core.project import Project\n"
        f"options = LLMBookConfig(); options.load_dict({{'execute_preamble': {BOOK_PREAMBLE!r}}})\n"
        "options.validate()\n"
        f"executor = Executor(options, Project.at({str(tmp_path)!r}))\n"
        f"plan = executor.run_page({PAGE!r}, src='docs/p.md')\n"
        "print(executor.executed, plan.count, 'torch' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[] 1 False"

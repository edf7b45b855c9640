"""What a page starts with is the `execute_preamble` option; the execution code names no package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from llmbook.core.errors import AuthorError

EXECUTE = Path(__file__).resolve().parents[2] / "plugins" / "llmbook" / "execute"


def test_the_books_preamble_gives_llmkit_and_its_names(run_md) -> None:
    plan = run_md("```python\nprint(llmkit.__name__)\n```\n\n[[kv_cache_bytes(1, 1, 1, 1) = 4]]\n")
    assert plan.result.blocks[0].output == "llmkit\n" and plan.mismatches == []


def test_the_plugins_default_preamble_is_empty() -> None:
    # The plugin names no package of any book: a site without the option starts with nothing.
    from llmbook.adapters.config import LLMBookConfig

    assert dict(LLMBookConfig._schema)["execute_preamble"].default == ""


def test_this_books_mkdocs_yml_sets_its_preamble() -> None:
    from llmbook.adapters.config import load_options

    options = load_options(Path(__file__).resolve().parents[2] / "mkdocs.yml")
    assert options.execute_preamble == "import llmkit\nfrom llmkit import *\n"


def test_a_preamble_of_the_site_replaces_it(run_md) -> None:
    preamble = "import math\nTAU = 2 * math.pi\nprint('not shown')\n"
    plan = run_md("```python\nprint(TAU > 6)\n```\n\n[[TAU = 6.28]]\n", execute_preamble=preamble)
    assert plan.result.blocks[0].output == "True\n" and plan.mismatches == []
    with pytest.raises(AuthorError, match="NameError: name 'llmkit' is not defined"):
        run_md("```python\nllmkit\n```\n", execute_preamble=preamble)


def test_the_seeds_are_set_after_the_preamble(run_md) -> None:
    page = "```python\nimport torch\nprint(torch.rand(1).item())\n```\n"
    plain = run_md(page, execute_preamble="").result.blocks[0].output
    drawn = run_md(page, execute_preamble="import torch\ntorch.rand(5)\n")
    assert drawn.result.blocks[0].output == plain


def test_a_failing_preamble_names_the_page_and_the_option(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md("# 页\n\n```python\nx = 1\n```\n", execute_preamble="import no_such_module\n")
    assert str(error.value) == (
        "docs/page.md:3: the code every page starts with (`execute_preamble`) raised "
        "ModuleNotFoundError: No module named 'no_such_module' "
        "Fix: correct `execute_preamble` in the llmbook options of mkdocs.yml"
    )


def test_a_changed_preamble_runs_the_page_again(make_executor) -> None:
    page = "```python\nprint(1)\n```\n"
    make_executor().run_page(page, src="docs/p.md")
    same = make_executor()
    same.run_page(page, src="docs/p.md")
    changed = make_executor(execute_preamble="import math\n")
    changed.run_page(page, src="docs/p.md")
    assert same.executed == [] and changed.executed == ["docs/p.md"]


def test_the_plugin_names_no_package_of_the_book() -> None:
    # The book's own packages come in through options (`execute_preamble`, `demos`) only.
    plugin = EXECUTE.parent
    named = [
        path.relative_to(plugin).as_posix()
        for path in sorted(plugin.rglob("*"))
        if path.suffix in (".py", ".js", ".css", ".txt", ".yml", ".toml")
        and re.search(r"llmkit|bookdemos", path.read_text(encoding="utf-8"))
    ]
    assert named == []

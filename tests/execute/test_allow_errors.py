"""A page runs on past a raising block: one build names every raising block (each later one
marked when it uses what an earlier one was to define), and `execute_allow_errors` turns them
into warnings with their errors shown, as Jupyter's `--allow-errors` does."""

from __future__ import annotations

import json
import logging

import pytest
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.stages.report import BuildFailed

from .test_notebook import notebook

# Three raising blocks: the second uses what the first was to define, the third does not.
PAGE = (
    "# 页\n\n"
    "```python\nimport numpy as np\nw = np.ones(3) + np.ones(2)\n```\n\n"
    "```python\nprint(w.sum())\n```\n\n"
    "```python\nprint('ran')\n```\n\n"
    "```python\nx = (1, 2)\nx[0] = 5\n```\n"
)


def _failures(make_executor, page: str, src: str = "docs/page.md", **options) -> list[str]:
    report = make_executor(cache=False, **options).run_pages([(src, page)])
    with pytest.raises(BuildFailed):
        report.raise_if_failed()
    return [str(f) for f in report.failures]


def test_one_build_names_every_raising_block_and_marks_the_ones_that_may_follow(
    make_executor,
) -> None:
    first, second, third = _failures(make_executor, PAGE)
    assert first.startswith(
        "docs/page.md:5: ValueError: operands could not be broadcast together with shapes (3,) "
        "(2,)  (python block at line 3)\n"
    )
    assert second.startswith(
        "docs/page.md:9: NameError: name 'w' is not defined (python block at line 8)\n"
    )
    assert second.endswith(
        "\n(it may follow from the error of the python block at line 3, which was to define `w`)"
        + second[second.index(" Fix: correct the code;") :]
    )
    assert third.startswith(
        "docs/page.md:18: TypeError: 'tuple' object does not support item assignment "
        "(python block at line 16)"
    )
    assert "may follow" not in first + third


def test_a_notebook_names_each_raising_cell_by_cell_and_line(make_executor) -> None:
    nb = notebook(
        ("markdown", "# 笔记本"),
        ("code", "import matplotlib.pyplot as plt\nplt.style.use('no-such-style')"),
        ("code", "y = 1\nprint(z)"),
        ("code", "print(y)"),
    )
    first, second = _failures(make_executor, nb, src="docs/nb.ipynb")
    assert first.startswith("docs/nb.ipynb:cell 2, line 2: OSError: 'no-such-style' is not")
    assert "(python block at cell 2)" in first
    assert second.startswith(
        "docs/nb.ipynb:cell 3, line 2: NameError: name 'z' is not defined (python block at cell 3)"
    )


def test_allowed_errors_are_shown_and_warned_at_their_lines(make_executor, caplog) -> None:
    caplog.set_level(logging.WARNING)
    plan = make_executor(cache=False, execute_allow_errors=True).run_page(PAGE, src="docs/page.md")
    errors = [plan.result.blocks[pos].error for pos in range(4)]
    assert [e[0] if e else None for e in errors] == ["ValueError", "NameError", None, "TypeError"]
    assert errors[0][2][0] == "Traceback (most recent call last):"
    assert 'File "docs/page.md", line 5, in <module>' in "\n".join(errors[0][2])
    assert plan.result.blocks[2].output == "ran\n"
    warned = [r.getMessage().split("\n")[0] for r in caplog.records if r.levelname == "WARNING"]
    warned = [text.removeprefix("llmbook: ") for text in warned]
    assert warned == [
        "docs/page.md:5: ValueError: operands could not be broadcast together with shapes (3,) "
        "(2,)  (python block at line 3)",
        "docs/page.md:9: NameError: name 'w' is not defined (python block at line 8)",
        "docs/page.md:18: TypeError: 'tuple' object does not support item assignment "
        "(python block at line 16)",
    ]


def test_a_cached_page_warns_again(make_executor, caplog) -> None:
    caplog.set_level(logging.WARNING)
    for _ in range(2):
        executor = make_executor(cache=True, execute_allow_errors=True)
        executor.run_page("```python\n1 / 0\n```\n", src="docs/page.md")
    assert executor.executed == []  # the second build: from the cache
    warned = [r.getMessage() for r in caplog.records if "ZeroDivisionError" in r.getMessage()]
    assert len(warned) == 2 and warned[1].startswith("llmbook: docs/page.md:2: ZeroDivisionError")


def test_a_page_or_a_notebook_allows_its_own_errors_or_refuses_the_books(make_executor) -> None:
    raising = "```python\n1 / 0\n```\n"
    make_executor().run_page("---\nexecute_allow_errors: true\n---\n" + raising, src="docs/a.md")
    data = json.loads(notebook(("code", "1 / 0")))
    data["metadata"]["llmbook"] = {"execute_allow_errors": True}
    make_executor().run_page(json.dumps(data), src="docs/nb.ipynb")
    refused = "---\nexecute_allow_errors: false\n---\n" + raising
    with pytest.raises(AuthorError, match=r"^docs/b\.md:5: ZeroDivisionError"):
        make_executor(execute_allow_errors=True).run_page(refused, src="docs/b.md")


def test_a_number_that_cannot_be_computed_fails_whatever_is_allowed(make_executor) -> None:
    page = "```python\nw = 1 / 0\n```\n\nw 是 [[w = 1]]。\n"
    (failure,) = _failures(make_executor, page, execute_allow_errors=True)
    assert failure == (
        "docs/page.md:5: [[w = 1]]: name 'w' is not defined\n(it may follow from the error of the "
        "python block at line 1, which was to define `w`) Fix: define `w` in a python block above "
        "line 5 (a `python hidden` block keeps it off the page)"
    )


def test_the_option_must_be_true_or_false(make_executor) -> None:
    with pytest.raises(AuthorError) as error:
        make_executor().run_page("---\nexecute_allow_errors: sometimes\n---\n# x\n", src="d.md")
    assert str(error.value) == (
        "d.md:1: front matter `execute_allow_errors: sometimes` is not true or false Fix: write "
        "`execute_allow_errors: true` to show its raising blocks' errors as Jupyter does (each a "
        "warning), or `false` to fail the build on them"
    )


def test_a_warning_names_the_cell_and_line_the_author_wrote(make_executor) -> None:
    nb = notebook(("code", "x = 1"), ("code", "import warnings\nwarnings.warn('look here')"))
    plan = make_executor(cache=False).run_page(nb, src="docs/nb.ipynb")
    (stderr,) = plan.result.blocks[1].displays
    assert stderr.data["text/plain"] == (
        "docs/nb.ipynb:cell 2, line 2: UserWarning: look here\n  warnings.warn('look here')\n"
    )


def test_a_page_computes_with_the_threads_it_asks_for(make_executor) -> None:
    page = "```python\nimport torch\nprint(torch.get_num_threads())\n```\n"
    assert make_executor().run_page(page, src="a.md").result.blocks[0].output == "1\n"
    asked = "---\nexecute_threads: 2\n---\n" + page
    assert make_executor().run_page(asked, src="b.md").result.blocks[0].output == "2\n"
    book = make_executor(execute_threads=3).run_page(page, src="c.md")
    assert book.result.blocks[0].output == "3\n"


def test_threads_must_be_a_whole_number(make_executor) -> None:
    with pytest.raises(AuthorError) as error:
        make_executor().run_page("---\nexecute_threads: many\n---\n# x\n", src="d.md")
    assert str(error.value) == (
        "d.md:1: front matter `execute_threads: many` is not a whole number of threads Fix: "
        "write e.g. `execute_threads: 4` for a page whose numbers must match a run with 4 "
        "threads (the book's `execute_threads`, 1 by default, otherwise)"
    )
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_threads=0)
    assert str(error.value) == (
        "mkdocs.yml: `execute_threads: 0` is no number of threads. Fix: write a whole number "
        "from 1 (the default: results the same on every machine) to the machine's cores"
    )


def test_a_site_with_allowed_errors_shows_them_and_strict_fails_on_the_warnings(
    make_site,
) -> None:
    nb = notebook(("markdown", "# Errors"), ("code", "x = 1"), ("code", "print(x)\n1 / 0"))
    config = {
        "site_name": "t",
        "use_directory_urls": False,
        "plugins": [{"llmbook": {"execute_allow_errors": True, "offline_check": False}}],
    }
    built = make_site({"index.md": "# Home\n", "nb.ipynb": nb}, config, cache=False)
    built.ok()
    assert "ZeroDivisionError" in built.page("nb.html")
    assert (
        "WARNING -  llmbook: docs/nb.ipynb:cell 3, line 2: ZeroDivisionError: division by zero"
        in (built.stderr)
    )
    strict = make_site({}, config, cache=False, strict=True)
    assert strict.returncode == 1
    assert "Aborted with 1 warnings in strict mode!" in strict.stdout


def test_a_page_killed_later_still_names_what_raised_before(make_executor) -> None:
    page = "```python\n1 / 0\n```\n\n```python\nwhile True:\n    pass\n```\n"
    first, second = _failures(make_executor, page, execute_timeout=1)
    assert first.startswith("docs/page.md:2: ZeroDivisionError: division by zero")
    assert second == (
        "docs/page.md:5: block timed out after 1 s Fix: make it faster, or raise "
        "`execute_timeout` (seconds) in mkdocs.yml"
    )

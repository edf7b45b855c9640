"""The load and check stages kept between builds: a warm build neither collects nor checks a page
whose file, results, options and llmbook did not change, and gets the same plan."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from book_locales import ZH
from llmbook.core.errors import AuthorError
from llmbook.execute.stages import executor as executor_module
from llmbook.execute.stages import stage_cache
from llmbook.execute.stages.executor import Executor
from llmbook.execute.stages.mode import Forgiving

PAGE = """---
numbers: strict
---
# 页

```python
x = 2
```

结果是 [[x * 1.5 = 3.0]]，另有 7 个。
"""


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the load and check stages really ran."""
    calls = {"load": 0, "plan": 0}
    load, plan = stage_cache.load_page, executor_module.plan_page

    def counted_load(*args: object, **kwargs: object):
        calls["load"] += 1
        return load(*args, **kwargs)

    def counted_plan(*args: object, **kwargs: object):
        calls["plan"] += 1
        return plan(*args, **kwargs)

    monkeypatch.setattr(stage_cache, "load_page", counted_load)
    monkeypatch.setattr(executor_module, "plan_page", counted_plan)
    return calls


def _build(make_executor: Callable[..., Executor], text: str, **options: object):
    return make_executor(**options).run_pages([("docs/p.md", text.encode())])


def _summary(report) -> tuple:
    plan = report.plans["docs/p.md"]
    return (
        [(n.binding.line, n.value, n.mismatch) for n in plan.numbers],
        plan.coverage.summary(),
        [str(e) for e in report.failures],
        plan.footer(ZH),
    )


def test_a_warm_build_reuses_both_stages_and_gets_the_same_plan(make_executor, counted) -> None:
    cold = _build(make_executor, PAGE)
    assert counted == {"load": 1, "plan": 1}
    warm = _build(make_executor, PAGE)
    assert counted == {"load": 1, "plan": 1}
    assert _summary(warm) == _summary(cold)
    # The strict page's unaccounted number comes back as the same error, at its file line.
    assert [str(e) for e in warm.failures] == [
        "docs/p.md:10: the number 7 is neither checked, cited nor marked. Fix: bind it to its "
        "computation [[expr = 7]], cite it [[7 @ paper, table]], or mark it illustrative [[~7]]"
    ]
    assert warm.plans["docs/p.md"].result is not None  # the results come with the plan


@pytest.mark.parametrize(
    ("change", "stages"),
    [
        (lambda text, opts: (text.replace("另有", "另外有"), opts), {"load": 2, "plan": 2}),
        (lambda text, opts: (text.replace("x = 2", "x = 3"), opts), {"load": 2, "plan": 2}),
        (lambda text, opts: (text, {"execute_seed": 1}), {"load": 1, "plan": 1}),
        (
            lambda text, opts: (text.replace("numbers: strict", "numbers: report"), opts),
            {"load": 2, "plan": 2},
        ),
        (lambda text, opts: (text, {"numbers_strict": True}), {"load": 1, "plan": 2}),
        (lambda text, opts: (text, {"execute_pages": ["other/*.md"]}), {"load": 2, "plan": 1}),
    ],
    ids=["prose", "code", "same-results", "front-matter", "site-strict", "execute-pages"],
)
def test_each_input_of_a_stage_makes_it_run_again(make_executor, counted, change, stages) -> None:
    _build(make_executor, PAGE)
    text, options = change(PAGE, {})
    _build(make_executor, text, **options)
    assert counted == stages


def test_new_results_are_checked_again(make_executor, counted, monkeypatch) -> None:
    page = PAGE.replace("x = 2", "import os\nx = int(os.environ.get('STAGE_TEST_X', '2'))")
    passed = {"execute_env": ["STAGE_TEST_X"]}  # the page's code reads it
    assert not _build(make_executor, page, **passed).plans["docs/p.md"].numbers[0].mismatch
    # The same file, other results (the code reads its environment, whose passed value keys the
    # results): its numbers are checked again, and the drift is found.
    monkeypatch.setenv("STAGE_TEST_X", "3")
    report = _build(make_executor, page, execute_seed=1, **passed)
    assert counted == {"load": 1, "plan": 2}
    assert "written 3.0, computed 4.5" in report.plans["docs/p.md"].numbers[0].mismatch


def test_llmbook_itself_is_in_the_key(make_executor, counted, monkeypatch) -> None:
    _build(make_executor, PAGE)
    monkeypatch.setattr(executor_module, "llmbook_hash", lambda: "edited llmbook")
    _build(make_executor, PAGE)
    assert counted == {"load": 2, "plan": 2}


def test_a_page_that_fails_a_stage_fails_again_on_every_build(make_executor, counted) -> None:
    bad = PAGE.replace("[[x * 1.5 = 3.0]]", "[[x * 1.5 = three]]")
    for _ in range(2):
        report = _build(make_executor, bad)
        assert [str(e).split(": [[")[0] for e in report.failures] == ["docs/p.md:10"]
    assert counted["load"] == 2


def test_a_broken_entry_is_rebuilt(make_executor, counted, tmp_path) -> None:
    _build(make_executor, PAGE)
    for entry in (tmp_path / ".llmbook-cache" / "stages").glob("*.pickle"):
        entry.write_bytes(b"not a pickle")
    report = _build(make_executor, PAGE)
    assert counted == {"load": 2, "plan": 2} and report.plans["docs/p.md"].numbers


def test_the_preview_plans_its_own_way(make_executor, counted) -> None:
    executor = make_executor()
    executor.mode = Forgiving()
    executor.run_pages([("docs/p.md", PAGE.encode())])
    executor.run_pages([("docs/p.md", PAGE.encode())])
    assert counted["plan"] == 2


def test_without_the_cache_nothing_is_kept(make_executor, counted, tmp_path) -> None:
    _build(make_executor, PAGE, cache=False)
    _build(make_executor, PAGE, cache=False)
    assert counted == {"load": 2, "plan": 2}
    assert not (tmp_path / ".llmbook-cache" / "stages").exists()


def test_author_errors_survive_the_cache() -> None:
    import pickle

    error = AuthorError("docs/p.md", 3, "what", "how")
    again = pickle.loads(pickle.dumps(error))
    assert (again.src, again.line, again.problem, again.fix, str(again)) == (
        "docs/p.md",
        3,
        "what",
        "how",
        str(error),
    )

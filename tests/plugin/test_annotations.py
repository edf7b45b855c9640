"""A failing build's errors on the pull request's lines: GitHub workflow commands under
`GITHUB_ACTIONS=true`, a SARIF 2.1.0 file under `LLMBOOK_SARIF` (annotations.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.core.lexer import lex
from llmbook.execute.numbers.coverage import Coverage, Unaccounted
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.plan import Plan
from llmbook.execute.stages.report import BuildFailed, DriftError, Report
from llmbook.site.annotations import Annotation, annotated, annotations, sarif, workflow_command

FIX = (
    "Fix: correct the written values, or run `python -m llmbook update-numbers` to rewrite them "
    "to the computed ones and review the diff."
)
DRIFT = "docs/a.md:12: written 12.5, computed 13.2 (rounds to 13.2)"
FAILING = AuthorError(
    "docs/b.md", 7, "the python block raised ZeroDivisionError: division by zero", "fix the code"
)


def test_a_drifted_number_is_an_error_at_its_line() -> None:
    (found,) = annotations(DriftError([DRIFT]), Report(), strict=False, root=Path("."))
    assert workflow_command(found) == (
        "::error file=docs/a.md,line=12,title=llmbook::written 12.5, computed 13.2 (rounds to "
        f"13.2) {FIX}"
    )


def test_a_failing_block_and_a_drift_of_one_report() -> None:
    error = BuildFailed([FAILING], [DRIFT])
    lines = [workflow_command(a) for a in annotations(error, Report(), strict=False, root=Path())]
    assert lines == [
        "::error file=docs/b.md,line=7,title=llmbook::the python block raised ZeroDivisionError: "
        "division by zero Fix: fix the code",
        "::error file=docs/a.md,line=12,title=llmbook::written 12.5, computed 13.2 (rounds to "
        f"13.2) {FIX}",
    ]


def test_the_message_and_properties_are_escaped() -> None:
    odd = Annotation("error", "author-error", "docs/a,b:c.md", 3, "100% sure, a: b\r\nnext")
    assert workflow_command(odd) == (
        "::error file=docs/a%2Cb%3Ac.md,line=3,title=llmbook::100%25 sure, a: b%0D%0Anext"
    )


def test_an_error_without_a_line_or_file() -> None:
    (found,) = annotations(LLMBookError("no docs folder"), Report(), strict=False, root=Path())
    assert workflow_command(found) == "::error title=llmbook::no docs folder"


def _report_with_unaccounted(strict: bool | None) -> Report:
    source = PageSource("docs/c.md", lex("有 42 个。\n", 1), execute=False, strict=strict)
    plan = Plan(source, coverage=Coverage(unaccounted=[Unaccounted(1, "42")]))
    return Report(plans={"docs/c.md": plan})


def test_numbers_only_reported_are_warnings() -> None:
    found = annotations(None, _report_with_unaccounted(None), strict=False, root=Path())
    assert [workflow_command(a) for a in found] == [
        "::warning file=docs/c.md,line=1,title=llmbook::the number 42 is neither checked, cited "
        "nor marked. Fix: bind it to its computation [[expr = 42]], cite it [[42 @ paper, "
        "table]], or mark it illustrative [[~42]]"
    ]
    # a strict page's are errors of the report already, not warnings
    assert annotations(None, _report_with_unaccounted(True), strict=False, root=Path()) == []
    assert annotations(None, _report_with_unaccounted(None), strict=True, root=Path()) == []


NOTEBOOK = """{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# T"
   ]
  },
  {
   "cell_type": "code",
   "metadata": {},
   "source": [
    "x = 1\\n",
    "1 / 0"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}
"""


def test_a_notebook_error_points_at_its_line_of_the_ipynb_file(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "n.ipynb").write_text(NOTEBOOK, encoding="utf-8")
    model = lex("\n" * 9, cells=((1, 1),) * 8 + ((2, 2),))  # line 9: the cell's second line
    error = AuthorError("docs/n.ipynb", 9, "the cell raised ZeroDivisionError.", page=model)
    drift = "docs/n.ipynb:cell 2, line 1: written 2, computed 1"
    found = annotations(BuildFailed([error], [drift]), Report(), strict=False, root=tmp_path)
    (tmp_path / "docs" / "m.ipynb").write_text(json.dumps(json.loads(NOTEBOOK)), "utf-8")
    other = AuthorError("docs/m.ipynb", 9, "x", page=model)
    (one_line,) = annotations(other, Report(), strict=False, root=tmp_path)
    assert [workflow_command(a) for a in found] == [
        "::error file=docs/n.ipynb,line=15,title=llmbook::cell 2, line 2: the cell raised "
        "ZeroDivisionError.",
        f"::error file=docs/n.ipynb,line=14,title=llmbook::cell 2, line 1: written 2, computed 1 "
        f"{FIX}",
    ]
    assert (one_line.line, one_line.message) == (1, "cell 2, line 2: x")  # one JSON line


def test_the_sarif_log_holds_every_result() -> None:
    found = annotations(
        BuildFailed([FAILING], [DRIFT]), _report_with_unaccounted(None), strict=False, root=Path()
    )
    log = sarif(found)
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-2.1.0.json")
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "llmbook"
    rules = [rule["id"] for rule in driver["rules"]]
    assert all(rule["shortDescription"]["text"] for rule in driver["rules"])
    assert [(r["ruleId"], r["level"]) for r in run["results"]] == [
        ("author-error", "error"),
        ("drift", "error"),
        ("unaccounted-number", "warning"),
    ]
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
        assert result["message"]["text"]
        (location,) = result["locations"]
        assert set(location["physicalLocation"]) == {"artifactLocation", "region"}
    where = [
        (
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in run["results"]
    ]
    assert where == [("docs/b.md", 7), ("docs/a.md", 12), ("docs/c.md", 1)]


def test_annotated_prints_only_under_github_actions(tmp_path: Path) -> None:
    printed: list[str] = []
    env = {"GITHUB_ACTIONS": "true", "LLMBOOK_SARIF": str(tmp_path / "out" / "llmbook.sarif")}
    with pytest.raises(DriftError):
        with annotated(Report, strict=False, root=tmp_path, env=env, write=printed.append):
            raise DriftError([DRIFT])
    assert printed == [
        workflow_command(annotations(DriftError([DRIFT]), Report(), strict=False, root=tmp_path)[0])
    ]
    assert json.loads((tmp_path / "out" / "llmbook.sarif").read_text())["runs"][0]["results"]
    printed.clear()
    with pytest.raises(DriftError):
        with annotated(Report, strict=False, root=tmp_path, env={}, write=printed.append):
            raise DriftError([DRIFT])
    assert printed == []


def test_a_build_with_a_drifted_number_prints_it_for_github(make_site, tmp_path: Path) -> None:
    page = "# T\n\n```python\nx = 6 * 7\n```\n\n答案是 [[x = 41]]。\n"
    config = {
        "site_name": "t",
        "use_directory_urls": False,
        "plugins": [{"llmbook": {"offline_check": False}}],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }
    env = {"GITHUB_ACTIONS": "true", "LLMBOOK_SARIF": "llmbook.sarif"}
    built = make_site({"index.md": page}, config, cache=False, env=env)
    assert built.returncode == 1
    # (MkDocs prints its own `Aborted with a BuildError!` after them)
    assert [line for line in built.stdout.splitlines() if line.startswith("::")] == [
        f"::error file=docs/index.md,line=7,title=llmbook::written 41, computed 42 {FIX}"
    ]
    result = json.loads((tmp_path / "llmbook.sarif").read_text())["runs"][0]["results"][0]
    assert result["locations"][0]["physicalLocation"]["region"] == {"startLine": 7}

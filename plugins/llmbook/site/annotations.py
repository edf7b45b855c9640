"""A failing build's report on the pull request's lines: under GitHub Actions (`GITHUB_ACTIONS=true`)
each author error is also printed as a workflow command, which GitHub shows at its file and line:

    ::error file=docs/x.md,line=12,title=llmbook::written 12.5, computed 13 Fix: …

and the numbers a page only reports (`numbers: report`, or the site's `numbers_strict: false`)
as `::warning …`. `LLMBOOK_SARIF=path` writes the same results as a SARIF 2.1.0 file for code
scanning. The escaping is the Actions toolkit's (`escapeData`, `escapeProperty`); the SARIF shape
follows markdownlint-cli2's formatter.

A notebook's error (`docs/x.ipynb:cell 4, line 2`) points at that line of the `.ipynb` file as
Jupyter writes it (one source line per JSON line); a notebook laid out otherwise gets line 1.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from llmbook.core.crash import InternalError
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.numbers.check import unaccounted_error
from llmbook.execute.stages.report import FIX_DRIFT, BuildFailed, DriftError, Report

__all__ = ["Annotation", "annotated", "annotations", "sarif", "workflow_command"]

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
# The rules a result can break: (id, what it means), SARIF's `tool.driver.rules`.
RULES = {
    "drift": "A written number differs from its computation",
    "unaccounted-number": "A number of the prose is neither checked, cited nor marked",
    "author-error": "A mistake in a page's source (a failing block, a stale reference, a directive)",
    "internal-error": "A bug of llmbook's met on a page",
    "build-error": "The build could not start",
}
# `docs/x.md:12: …` or `docs/x.ipynb:cell 4, line 2: …`: how a drifted number's text begins.
_LOCATED = re.compile(
    r"(?P<src>[^\n]+?):(?P<where>\d+|cell \d+(?:, line \d+)?): (?P<text>.*)", re.S
)
_CELL = re.compile(r"cell (?P<cell>\d+)(?:, line (?P<inner>\d+))?")
_SOURCE_KEY = re.compile(r'^\s*"source"\s*:')


@dataclass(frozen=True)
class Annotation:
    """One result: its level (`error`, `warning`), rule, file and line (0: none), message."""

    level: str
    rule: str
    src: str
    line: int
    message: str


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(annotation: Annotation) -> str:
    """`::error file=docs/x.md,line=12,title=llmbook::message`, escaped as GitHub reads it."""
    props = [("file", annotation.src)] if annotation.src else []
    props += [("line", str(annotation.line))] if annotation.line > 0 else []
    props.append(("title", "llmbook"))
    shown = ",".join(f"{name}={_escape_property(value)}" for name, value in props)
    return f"::{annotation.level} {shown}::{_escape_data(annotation.message)}"


def annotations(
    error: LLMBookError | None, report: Report, *, strict: bool, root: Path
) -> list[Annotation]:
    """The errors of `error` (the build's report, or one error) and the warnings of `report`'s
    pages whose numbers are only reported (`strict`: the site's `numbers_strict`)."""
    found: list[Annotation] = []
    if isinstance(error, (BuildFailed, DriftError)):
        failures = error.failures if isinstance(error, BuildFailed) else []
        found += [_of_error(f, root) for f in failures]
        found += [_of_drift(m, root) for m in error.mismatches]
    elif isinstance(error, AuthorError):
        found.append(_of_error(error, root))
    elif error is not None:
        found.append(Annotation("error", "build-error", "", 0, str(error)))
    for src, plan in report.plans.items():
        page_strict = plan.page.strict if plan.page.strict is not None else strict
        if plan.coverage is None or page_strict:
            continue
        for number in plan.coverage.unaccounted:
            warning = _of_error(unaccounted_error(plan.page, number), root)
            found.append(Annotation("warning", warning.rule, src, warning.line, warning.message))
    return found


def _of_error(error: AuthorError, root: Path) -> Annotation:
    message = error.problem + (f" Fix: {error.fix}" if error.fix else "")
    if isinstance(error, InternalError):
        return Annotation("error", "internal-error", error.src, 0, message)
    rule = "unaccounted-number" if message.startswith("the number ") else "author-error"
    if error.line <= 0:
        return Annotation("error", rule, error.src, 0, message)
    return _located("error", rule, error.src, error.place, message, root)  # `cell 4, line 2`


def _of_drift(mismatch: str, root: Path) -> Annotation:
    match = _LOCATED.fullmatch(mismatch)
    if match is None:
        return Annotation("error", "drift", "", 0, f"{mismatch} {FIX_DRIFT}")
    text = f"{match['text']} {FIX_DRIFT}"
    return _located("error", "drift", match["src"], match["where"], text, root)


def _located(level: str, rule: str, src: str, where: str, message: str, root: Path) -> Annotation:
    """`where` is `12` or, in a notebook, `cell 4, line 2` (kept at the message's head)."""
    if where.isdigit():
        return Annotation(level, rule, src, int(where), message)
    cell = _CELL.fullmatch(where)
    line = _notebook_line(root / src, int(cell["cell"]), int(cell["inner"] or 0)) if cell else 1
    return Annotation(level, rule, src, line, f"{where}: {message}")


def _notebook_line(path: Path, cell: int, inner: int) -> int:
    """The file line of line `inner` of cell `cell` (0: the cell's `"source"` key), read from the
    notebook as Jupyter writes it: each cell's `"source": [` then one JSON line per source line."""
    try:
        lines = path.read_text(encoding="utf-8").split("\n")
        cells = json.loads("\n".join(lines))["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        return 1
    keys = [number for number, text in enumerate(lines, 1) if _SOURCE_KEY.match(text)]
    if len(keys) != len(cells) or not 1 <= cell <= len(cells):
        return 1  # another layout (a source on one line, a "source" key in metadata)
    source = cells[cell - 1].get("source")
    opening = lines[keys[cell - 1] - 1].rstrip()
    if inner == 0 or not isinstance(source, list) or not opening.endswith("["):
        return keys[cell - 1]
    return keys[cell - 1] + min(inner, len(source))


def sarif(found: list[Annotation]) -> dict:
    """The results as a SARIF 2.1.0 log (one run, tool llmbook, a rule per kind of error)."""
    rules = list(RULES)
    results = []
    for a in found:
        result: dict = {
            "ruleId": a.rule,
            "ruleIndex": rules.index(a.rule),
            "level": a.level,
            "message": {"text": a.message},
        }
        if a.src:
            region = {"region": {"startLine": a.line}} if a.line > 0 else {}
            physical = {"artifactLocation": {"uri": a.src, "uriBaseId": "%SRCROOT%"}, **region}
            result["locations"] = [{"physicalLocation": physical}]
        results.append(result)
    driver = {
        "name": "llmbook",
        "rules": [{"id": r, "shortDescription": {"text": RULES[r]}} for r in rules],
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


@contextlib.contextmanager
def annotated(
    report: Callable[[], Report],
    *,
    strict: bool,
    root: Path,
    env: Mapping[str, str] = os.environ,
    write: Callable[[str], object] = print,
) -> Iterator[None]:
    """Around the step that raises a build's report: its annotations printed under GitHub Actions
    and written to `LLMBOOK_SARIF`, whether the build fails (errors, warnings) or not (warnings);
    the error itself passes on. `report`: the build's report once the step is done."""
    error: LLMBookError | None = None
    try:
        yield
    except LLMBookError as raised:
        error = raised
        raise
    finally:
        if env.get("GITHUB_ACTIONS") == "true" or env.get("LLMBOOK_SARIF"):
            _publish(annotations(error, report(), strict=strict, root=root), env, write)


def _publish(found: list[Annotation], env: Mapping[str, str], write: Callable[[str], object]):
    if env.get("GITHUB_ACTIONS") == "true":
        for annotation in found:
            write(workflow_command(annotation))
        sys.stdout.flush()
    if env.get("LLMBOOK_SARIF"):
        path = Path(env["LLMBOOK_SARIF"])  # relative: to the working directory
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(sarif(found), ensure_ascii=False, indent=2), encoding="utf-8")

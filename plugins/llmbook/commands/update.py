"""`python -m llmbook update-numbers` (or `llmbook update-numbers`): rewrite drifted written numbers to the computed ones, print the diff.

    python -m llmbook update-numbers [PATH ...]     (default: every docs/**/*.md and *.ipynb)

Each value keeps its written precision and style (decimals, %, e-notation, separators), so an
intended change (a new formula in the book's package, a new preset) is one reviewed command. A
notebook's Markdown cells are rewritten the same way; the rest of the notebook (its outputs, its
JSON layout where it is one `json.dumps` writes) stays as it was, and it is still a valid
notebook (nbformat).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import sys
from pathlib import Path
from typing import Any

from llmbook.adapters.config import load_options
from llmbook.core.bindings import RawBinding
from llmbook.core.errors import quoted
from llmbook.core.project import Project
from llmbook.execute.numbers.precision import parse_written, rewrite
from llmbook.execute.stages.executor import Executor
from llmbook.execute.stages.notebook import read_notebook
from llmbook.execute.stages.plan import Plan

__all__ = ["main", "update_text"]

# A notebook cell's lines with their line ends, as the build lays them out (\r\n, \r or \n).
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


def update_text(text: str, *, src: str, executor: Executor) -> tuple[str, list[str]]:
    """(new text, problems): every mismatching bound number rewritten in place; the rest of the
    file (its line ends, its tabs; a notebook's outputs and layout) as it was."""
    plan = executor.run_page(text, src=src)
    problems: list[str] = []
    rewrites = _rewrites(plan, problems)
    if src.endswith(".ipynb"):
        return _update_notebook(text, plan, rewrites, problems), problems
    lines = text.split("\n")
    for b, body in rewrites:
        lines[b.line - 1] = _rewritten(lines[b.line - 1], plan, b, body, problems)
    return "\n".join(lines), problems


def _rewrites(plan: Plan, problems: list[str]) -> list[tuple[RawBinding, str]]:
    """(binding, its new body) for each drifted number, from the right of each line (so earlier
    offsets on the same line stay valid); one that cannot be rewritten is a problem."""
    found = []
    for number in sorted(
        plan.numbers, key=lambda n: (n.binding.line, n.binding.start), reverse=True
    ):
        if not number.mismatch:
            continue
        b = number.binding
        try:
            new = rewrite(parse_written(b.written), number.value)
        except ValueError as error:
            problems.append(f"{plan.page.location(b.line)}: {error}; edit it by hand")
            continue
        cut = b.body.rfind(b.written)
        found.append((b, b.body[:cut] + new + b.body[cut + len(b.written) :]))
    return found


def _rewritten(line: str, plan: Plan, b: RawBinding, body: str, problems: list[str]) -> str:
    """The file's `line` with binding `b` given its new `body` (unchanged, and a problem, where
    the binding is not found as the build read it)."""
    start = _in_file(line, plan.page.lexed.line(b.line), b.start, f"[[{b.body}]]")
    if start is None:
        where = plan.page.location(b.line)
        problems.append(f"{where}: [[{quoted(b.body)}]] not found as written; edit it by hand")
        return line
    return line[:start] + f"[[{body}]]" + line[start + len(b.body) + 4 :]


def _in_file(line: str, read: str, start: int, written: str) -> int | None:
    """Where the binding `written`, at `start` of the line as the build read it (`read`: tabs
    expanded, no CR), stands in the file's own `line`."""
    if line.rstrip("\r") == read:
        return start
    nth = read[:start].count(written)  # the same binding may stand twice on a line
    at = -1
    for _ in range(nth + 1):
        at = line.find(written, at + 1)
        if at < 0:
            return None
    return at


def _update_notebook(
    text: str, plan: Plan, rewrites: list[tuple[RawBinding, str]], problems: list[str]
) -> str:
    """The notebook with its drifted numbers rewritten in their cells' sources (Markdown cells,
    and raw cells shown as HTML)."""
    data = json.loads(text)
    cells = plan.page.cells
    assert cells is not None, "a notebook page has cells"
    edited: dict[int, list[str]] = {}  # cell index → its lines, line ends kept
    for b, body in rewrites:
        number, inner = cells[b.line - 1]
        cell = data["cells"][number - 1]  # a Markdown or a raw cell: code cells are fences
        lines = edited.setdefault(number - 1, _LINE.findall(_source(cell)))
        assert 1 <= inner <= len(lines), "a binding stands on a line of its cell's source"
        content = lines[inner - 1].rstrip("\r\n")
        end = lines[inner - 1][len(content) :]
        lines[inner - 1] = _rewritten(content, plan, b, body, problems) + end
    changed = False
    for index, lines in edited.items():
        cell = data["cells"][index]
        new = "".join(lines)
        if new != _source(cell):
            cell["source"] = lines if isinstance(cell.get("source"), list) else new
            changed = True
    if not changed:
        return text
    written = _dumped_as(text, data)
    read_notebook(written, src=plan.page.src)  # still a notebook nbformat reads
    return written


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _dumped_as(text: str, data: dict[str, Any]) -> str:
    """`data` as JSON laid out as the notebook's `text` is (Jupyter's layout, or one another
    tool writes with `json.dumps`), so the diff shows only what changed; nbformat's otherwise."""
    before = json.loads(text)
    end = "\n" if text.endswith("\n") else ""
    for indent in (1, 2, 4, None):
        for sort_keys in (True, False):
            for ensure_ascii in (False, True):
                style = {"indent": indent, "sort_keys": sort_keys, "ensure_ascii": ensure_ascii}
                if json.dumps(before, **style) + end == text:
                    return json.dumps(data, **style) + end
    import nbformat

    return nbformat.writes(nbformat.from_dict(data))


def _pages(paths: list[str]) -> list[Path]:
    """The pages under `paths`: Markdown files and notebooks, none in a hidden folder
    (`.ipynb_checkpoints`)."""
    pages: list[Path] = []
    for name in paths:
        path = Path(name)
        if not path.is_dir():
            pages.append(path)
            continue
        found = [*path.rglob("*.md"), *path.rglob("*.ipynb")]
        pages += sorted(p for p in found if not any(part.startswith(".") for part in p.parts))
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["docs"], help="pages or folders")
    args = parser.parse_args(argv)
    config_file = Path("mkdocs.yml").resolve()
    executor = Executor(load_options(config_file), Project.from_config_file(config_file))
    changed, problems = 0, []
    for page in _pages(args.paths):
        text = page.read_bytes().decode("utf-8")  # its own line ends, kept
        src = page.as_posix()
        new, trouble = update_text(text, src=src, executor=executor)
        problems += trouble
        if new != text:
            changed += 1
            sys.stdout.writelines(
                difflib.unified_diff(
                    text.splitlines(True), new.splitlines(True), f"a/{src}", f"b/{src}"
                )
            )
            page.write_bytes(new.encode("utf-8"))
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"update_numbers: {changed} page(s) rewritten, {len(problems)} left to edit by hand")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

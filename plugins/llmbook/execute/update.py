"""`python -m llmbook update-numbers` (or `llmbook update-numbers`): rewrite drifted written numbers to the computed ones, print the diff.

    python -m llmbook update-numbers [PATH ...]     (default: every docs/**/*.md)

Each value keeps its written precision and style (decimals, %, e-notation, separators), so an
intended change (a new formula in the book's package, a new preset) is one reviewed command.
"""

from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path

from llmbook.config import load_options
from llmbook.execute.executor import Executor
from llmbook.execute.numbers import parse_written, rewrite
from llmbook.project import Project

__all__ = ["main", "update_text"]


def update_text(text: str, *, src: str, executor: Executor) -> tuple[str, list[str]]:
    """(new text, problems): every mismatching bound number rewritten in place; the rest of the
    file (its line ends, its tabs) as it was."""
    plan = executor.run_page(text, src=src)
    lines = text.split("\n")
    problems = []
    # From the right of each line, so earlier offsets on the same line stay valid.
    for number in sorted(
        plan.numbers, key=lambda n: (n.binding.line, n.binding.start), reverse=True
    ):
        if not number.mismatch:
            continue
        b = number.binding
        try:
            new = rewrite(parse_written(b.written), number.value)
        except ValueError as error:
            problems.append(f"{src}:{b.line}: {error}; edit it by hand")
            continue
        cut = b.body.rfind(b.written)
        body = b.body[:cut] + new + b.body[cut + len(b.written) :]
        line = lines[b.line - 1]
        start = _in_file(line, plan.page.lexed.line(b.line), b.start, f"[[{b.body}]]")
        if start is None:
            problems.append(f"{src}:{b.line}: [[{b.body}]] not found as written; edit it by hand")
            continue
        lines[b.line - 1] = line[:start] + f"[[{body}]]" + line[start + len(b.body) + 4 :]
    return "\n".join(lines), problems


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=["docs"], help="pages or folders")
    args = parser.parse_args(argv)
    config_file = Path("mkdocs.yml").resolve()
    executor = Executor(load_options(config_file), Project.from_config_file(config_file))
    pages: list[Path] = []
    for name in args.paths:
        path = Path(name)
        pages += sorted(path.rglob("*.md")) if path.is_dir() else [path]
    changed, problems = 0, []
    for page in pages:
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

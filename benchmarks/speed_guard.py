"""The speed guard CI runs (.ci/run, after the tests): the book's warm build and a prose-edit
rebuild against plain MkDocs on the same docs, in the same run, interleaved, median of
--repeats; it fails (exit 1) when the warm ratio is above --limit or the edit's above
--edit-limit. 1.0 is generous to a shared machine's noise and still catches a feature that makes
every build pay (issue: a bibliography parsed on every build made the warm build 2.5x). An edit
re-converts only the section it touched (adapters/mkdocs/partial.py); the edit's limit is to come
down to 0.8 once the page pipeline and the per-build checks leave that margin.

    python benchmarks/speed_guard.py [--pages 6] [--repeats 3] [--limit 1.0] [--edit-limit 1.0]
                                     [--hook FILE]

--hook adds an MkDocs hook file to the llmbook build only (the guard's own test slows it with a
`time.sleep`). Builds run as bench_build.py runs them, on a copy of the project.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import book, build, edit  # noqa: E402

EDITED = "docs/chapters/ch10-modern-llm.md"


def measure(root: Path, repeats: int) -> dict[str, list[float]]:
    cache = root / "cache"
    build("mkdocs", root, cache, "mkdocs.yml")  # fills the caches: every later build is warm
    build("mkdocs", root, cache, "mkdocs-plain.yml")
    runs: dict[str, list[float]] = {"warm": [], "plain": [], "edit": [], "edit_plain": []}
    for n in range(repeats):  # interleaved: a slow moment of the machine hits both sides
        runs["warm"].append(build("mkdocs", root, cache, "mkdocs.yml")[0])
        runs["plain"].append(build("mkdocs", root, cache, "mkdocs-plain.yml")[0])
        # a new place each time, so no edit finds what an earlier one left in a cache
        runs["edit"].append(edit("mkdocs", root, cache, "mkdocs.yml", EDITED, n))
        runs["edit_plain"].append(edit("mkdocs", root, cache, "mkdocs-plain.yml", EDITED, n))
    return runs


def ratios(runs: dict[str, list[float]]) -> dict[str, float]:
    """llmbook over plain MkDocs, median over median, for the warm build and the edit."""
    median = {name: statistics.median(values) for name, values in runs.items()}
    return {
        "warm": median["warm"] / median["plain"],
        "edit": median["edit"] / median["edit_plain"],
    }


def too_slow(runs: dict[str, list[float]], limits: dict[str, float]) -> list[str]:
    """The lines ("warm", "edit") whose ratio is above their limit."""
    return [name for name, ratio in ratios(runs).items() if ratio > limits[name]]


def report(runs: dict[str, list[float]], limits: dict[str, float], pages: int) -> str:
    lines = [f"speed guard, {pages} pages, median of {len(runs['warm'])}:"]
    for name, ratio in ratios(runs).items():
        plain = "plain" if name == "warm" else "edit_plain"
        lines.append(
            f"  {name:5s} llmbook {statistics.median(runs[name]):6.2f} s, plain MkDocs "
            f"{statistics.median(runs[plain]):6.2f} s: {ratio:.2f}x (limit {limits[name]:.2f}x)"
            f"  (runs {runs[name]} / {runs[plain]})"
        )
    slow = too_slow(runs, limits)
    above = ", ".join(f"{name} above {limits[name]:.2f}x" for name in slow)
    lines.append(f"speed guard FAILED: {above} plain MkDocs" if slow else "speed guard passed")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.0, help="the warm build's")
    parser.add_argument("--edit-limit", type=float, default=1.0, help="the prose edit's")
    parser.add_argument("--hook", type=Path, default=None, help="a hook for the llmbook build")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="llmbook-guard-") as folder:
        root = book(Path(folder) / "book", args.pages)
        if args.hook is not None:
            config = root / "mkdocs.yml"
            hook = f"hooks:\n  - {args.hook.resolve()}\n"
            config.write_text(config.read_text(encoding="utf-8") + hook, encoding="utf-8")
        runs = measure(root, args.repeats)
    limits = {"warm": args.limit, "edit": args.edit_limit}
    print(report(runs, limits, args.pages))
    if too_slow(runs, limits):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The speed guard CI runs (.ci/run, after the tests): the book's warm build and a prose-edit
rebuild against plain MkDocs on the same docs, in the same run, interleaved, median of
--repeats; it fails (exit 1) when either ratio is above --limit. 1.0 is generous to a shared
machine's noise and still catches a feature that makes every build pay (issue: a bibliography
parsed on every build made the warm build 2.5x).

    python benchmarks/speed_guard.py [--pages 6] [--repeats 3] [--limit 1.0] [--hook FILE]

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
    for _ in range(repeats):  # interleaved: a slow moment of the machine hits both sides
        runs["warm"].append(build("mkdocs", root, cache, "mkdocs.yml")[0])
        runs["plain"].append(build("mkdocs", root, cache, "mkdocs-plain.yml")[0])
        runs["edit"].append(edit("mkdocs", root, cache, "mkdocs.yml", EDITED))
        runs["edit_plain"].append(edit("mkdocs", root, cache, "mkdocs-plain.yml", EDITED))
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=6)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--limit", type=float, default=1.0)
    parser.add_argument("--hook", type=Path, default=None, help="a hook for the llmbook build")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="llmbook-guard-") as folder:
        root = book(Path(folder) / "book", args.pages)
        if args.hook is not None:
            config = root / "mkdocs.yml"
            hook = f"hooks:\n  - {args.hook.resolve()}\n"
            config.write_text(config.read_text(encoding="utf-8") + hook, encoding="utf-8")
        runs = measure(root, args.repeats)
    median = {name: statistics.median(values) for name, values in runs.items()}
    ratios = {
        "warm": median["warm"] / median["plain"],
        "edit": median["edit"] / median["edit_plain"],
    }
    print(f"speed guard, {args.pages} pages, median of {args.repeats} (limit {args.limit:.2f}x):")
    for name, ratio in ratios.items():
        plain = "plain" if name == "warm" else "edit_plain"
        print(
            f"  {name:5s} llmbook {median[name]:6.2f} s, plain MkDocs {median[plain]:6.2f} s: "
            f"{ratio:.2f}x  (runs {runs[name]} / {runs[plain]})"
        )
    slow = [name for name, ratio in ratios.items() if ratio > args.limit]
    if slow:
        print(f"speed guard FAILED: {', '.join(slow)} above {args.limit:.2f}x plain MkDocs")
        return 1
    print("speed guard passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What every build pays before and around its pages: a warm MkDocs build of the book profiled
(cProfile), each fixed cost read from it as its cumulative time, beside the whole build. A report:
it never fails on time. Also the import of IPython, which only page processes pay.

    python benchmarks/bench_fixed_costs.py [--repeats 3]

Results in benchmarks/results/fixed_costs.json and a table.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "fixed_costs.json"
# (name shown, module file suffix, function name) of each fixed cost of a build.
COSTS = [
    ("bibliography", "book/bibliography.py", "load_bibliography"),
    ("glossary", "book/terms.py", "term_index"),
    ("the apparatus (all of the book's checks)", "book/apparatus.py", "read"),
    ("the read plan (Landlock grants)", "execute/sandbox/reads.py", "read_plan"),
    ("the guards' probe", "execute/sandbox/guards.py", "machine_guards"),
    ("jieba (Chinese search)", "jieba/__init__.py", "initialize"),
    ("the offline check", "llmbook/site/offline.py", "check_site"),
    ("running pages (all from the cache)", "execute/stages/executor.py", "run_pages"),
]


def _profiled_build() -> tuple[float, pstats.Stats]:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    profile = cProfile.Profile()
    start = time.perf_counter()
    profile.enable()
    build(load_config(str(ROOT / "mkdocs.yml")))
    profile.disable()
    return time.perf_counter() - start, pstats.Stats(profile)


def _cumulative(stats: pstats.Stats, suffix: str, name: str) -> float:
    return sum(
        row[3]
        for (file, _, function), row in stats.stats.items()  # type: ignore[attr-defined]
        if function == name and file.replace(os.sep, "/").endswith(suffix)
    )


def _import_seconds(module: str) -> float:
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    os.chdir(ROOT)
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    _profiled_build()  # fills the caches: what follows is a warm build
    builds, costs = [], {name: [] for name, _, _ in COSTS}
    for _ in range(args.repeats):
        seconds, stats = _profiled_build()
        builds.append(seconds)
        for name, suffix, function in COSTS:
            costs[name].append(_cumulative(stats, suffix, function))
    result = {
        "warm_build_seconds_profiled": round(statistics.median(builds), 3),
        "fixed_costs_seconds": {k: round(statistics.median(v), 4) for k, v in costs.items()},
        "page_process_imports_seconds": {"IPython": round(_import_seconds("IPython"), 3)},
    }
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"warm build (profiled): {result['warm_build_seconds_profiled']:.2f} s")
    for name, seconds in result["fixed_costs_seconds"].items():
        print(f"  {seconds * 1000:8.1f} ms  {name}")
    print(
        f"  IPython import in each page process: {result['page_process_imports_seconds']['IPython']:.2f} s"
    )


if __name__ == "__main__":
    main()

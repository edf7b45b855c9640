"""What the guards on page code cost: a trivial page's wall time under each set of guards.

Each variant runs the same one-block page (`print(1)`) --repeats times through the engine, one
page at a time, after one warm-up page (the forkserver's torch import is paid once):
  off        no guard (`execute_sandbox: off`): the environment allowlist only
  files      Landlock: writes, reads of the home folders, TCP
  all        files + the seccomp socket filter + capabilities dropped (the default)
Also the once-per-build cost of planning the reads (listing the folders beside the home folders).
Measures and reports (benchmarks/results/sandbox.json and a line per variant); never fails on time.

    python benchmarks/bench_sandbox.py [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "plugins"))

from llmbook.core.lexer import lex  # noqa: E402
from llmbook.execute.sandbox.guards import Guards  # noqa: E402
from llmbook.execute.sandbox.landlock import landlock_abi  # noqa: E402
from llmbook.execute.sandbox.reads import python_folders, read_plan  # noqa: E402
from llmbook.execute.sandbox.seccomp import seccomp_available  # noqa: E402
from llmbook.execute.stages.collect import collect_page  # noqa: E402
from llmbook.execute.stages.engine import Engine, Limits  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "sandbox.json"
VARIANTS = {
    "off": Guards(landlock=False, sockets=False),
    "files": Guards(landlock=True, sockets=False),
    "all": Guards(landlock=True, sockets=True),
}


def _page_times(guards: Guards, project: str, repeats: int) -> list[float]:
    engine = Engine(workers=1, limits=Limits(), seed=0, root=project, guards=guards)
    page = collect_page(lex("```python\nprint(1)\n```\n"), src="docs/page.md", meta={})
    engine.run([page])  # warm-up: the forkserver and its preload
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        (outcome,) = engine.run([page])
        times.append(time.perf_counter() - start)
        assert outcome.error is None, outcome.error
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description="the cost of the guards on page code")
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    result: dict[str, object] = {
        "machine": platform.platform(),
        "landlock_abi": landlock_abi(),
        "seccomp": seccomp_available(),
        "repeats": args.repeats,
    }
    start = time.perf_counter()
    plan = read_plan(os.path.expanduser("~"), [str(ROOT), *python_folders()])
    result["read_plan_ms"] = round((time.perf_counter() - start) * 1000, 2)
    result["read_rules"] = len(plan.readable) if plan else 0
    print(f"read plan: {result['read_plan_ms']} ms, {result['read_rules']} rules")
    with tempfile.TemporaryDirectory() as project:
        (Path(project) / "docs").mkdir()
        for name, guards in VARIANTS.items():
            if guards.landlock and not landlock_abi() or guards.sockets and not seccomp_available():
                continue
            times = _page_times(guards, project, args.repeats)
            median = statistics.median(times) * 1000
            result[f"{name}_page_ms"] = round(median, 1)
            print(f"{name:6} trivial page: median {median:.1f} ms over {len(times)} runs")
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

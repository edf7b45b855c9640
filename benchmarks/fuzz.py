"""The fuzzer's long campaign (`nox -s fuzz`, or `python benchmarks/fuzz.py --examples 500`):
the suite's fuzzer (tests/robust/) run for many random examples without stopping at the first
bug. It reports examples per second, how the examples ended, and every class of bug with its
first example, in benchmarks/results/fuzz.json; each bug's input is kept under
benchmarks/results/fuzz-bugs/ to reproduce. A report: it never fails."""

from __future__ import annotations

import argparse
import collections
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from robust.fuzz import FuzzProject  # noqa: E402
from robust.test_fuzz import mutation  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"


def campaign(examples: int, seed: int | None) -> dict:
    with tempfile.TemporaryDirectory(prefix="llmbook-fuzz-") as folder:
        start = time.perf_counter()
        project = FuzzProject.make(Path(folder))
        warm = time.perf_counter() - start
        counts: collections.Counter[str] = collections.Counter()
        bugs: dict[str, dict] = {}
        by_target: collections.Counter[str] = collections.Counter()

        @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))  # fmt: skip
        @given(st.data())
        def run(data: st.DataObject) -> None:
            path, content = data.draw(mutation(project))
            outcome = project.build_with(path, content)
            counts[outcome.kind] += 1
            by_target[path] += 1
            print(f"{sum(counts.values()):5d} {outcome.seconds:6.1f}s {path}: {outcome.kind}",
                  flush=True)  # fmt: skip
            if outcome.is_bug and outcome.kind not in bugs:
                kept = RESULTS / "fuzz-bugs" / f"{len(bugs) + 1}-{Path(path).name}"
                kept.parent.mkdir(parents=True, exist_ok=True)
                kept.write_text(json.dumps(content, ensure_ascii=False) if isinstance(content, dict) else content, encoding="utf-8", errors="surrogatepass")  # fmt: skip
                bugs[outcome.kind] = {
                    "target": path,
                    "message": outcome.message,
                    "input": str(kept.relative_to(ROOT)),
                }

        if seed is not None:
            run = settings(derandomize=False)(run)
        begun = time.perf_counter()
        run()
        seconds = time.perf_counter() - begun
    total = sum(counts.values())
    return {
        "examples": total,
        "seconds": round(seconds, 1),
        "examples_per_second": round(total / seconds, 3) if seconds else None,
        "warm_up_seconds": round(warm, 1),
        "outcomes": dict(counts),
        "targets": dict(by_target),
        "bugs": bugs,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--examples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    report = campaign(args.examples, args.seed)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "fuzz.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps({k: v for k, v in report.items() if k != "bugs"}, indent=2))
    for kind, bug in report["bugs"].items():
        print(f"BUG {kind}: {bug['target']}: {bug['message'][:500]}")


if __name__ == "__main__":
    main()

"""Build times of the project's site: cold, warm (execution cache), and execution switched off.

Each build is a fresh `mkdocs build` process into a temporary site, with its own execution cache:
  cold   empty cache: every page's code runs (torch imported once for the whole build)
  warm   the cache the cold build left: no page runs, torch is never imported by the executor
  off    LLMBOOK_EXECUTE=0 with that cache: results come from the cache, nothing may run
Target: warm <= 1.2 x off. Also the peak RSS of the cold build (the largest process of the build).
Measures and reports (JSON under benchmarks/results/build.json and a table); never fails on time.

    python benchmarks/bench_build.py [--repeats N]     (default 3)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.2


def snapshot(into: Path) -> Path:
    """A frozen copy of the sources, so edits made while the benchmark runs cannot skew it."""
    into.mkdir(parents=True)
    for name in ("mkdocs.yml", "docs", "plugins", "llmkit"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, into / name)
    return into


def build(root: Path, site: Path, cache: Path, **env: str) -> tuple[float, str]:
    """One `mkdocs build` of the snapshot at `root`; returns (seconds, its log)."""
    environ = {**os.environ, "LLMBOOK_CACHE_DIR": str(cache), "OMP_NUM_THREADS": "1", **env}
    environ["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "plugins")])
    environ.pop("LLMBOOK_CACHE", None)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--site-dir", str(site)],
        cwd=root,
        env=environ,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed ({env or 'cold'}):\n{done.stderr[-4000:]}")
    return seconds, done.stderr + done.stdout


def _executor_seconds(log: str) -> float:
    """The executor's own time in one build, from its closing log line."""
    found = re.search(r"\(executor ([\d.]+) s,", log)
    return float(found.group(1)) if found else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description="cold / warm / execution-off site builds")
    parser.add_argument("--repeats", type=int, default=3, help="warm and off builds (median)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="llmbook-bench-") as tmp:
        cache = Path(tmp) / "cache"
        root = snapshot(Path(tmp) / "src")
        cold, log = build(root, Path(tmp) / "cold", cache)
        # RUSAGE_CHILDREN: the largest resident set of any finished child so far (kB on Linux).
        peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        # Alternate warm and off builds, so a change in the machine's load hits both alike.
        warm, off, logs = [], [], {"cold": [log], "warm": [], "off": []}
        for i in range(args.repeats):
            seconds, warm_log = build(root, Path(tmp) / f"warm{i}", cache)
            warm.append(seconds)
            logs["warm"].append(warm_log)
            seconds, off_log = build(root, Path(tmp) / f"off{i}", cache, LLMBOOK_EXECUTE="0")
            off.append(seconds)
            logs["off"].append(off_log)
    checked = re.search(r"checked (\d+) numbers on (\d+) executed pages", log)
    share = {
        name: statistics.median(_executor_seconds(text) for text in logs[name]) for name in logs
    }
    result = {
        "cold_s": round(cold, 2),
        "warm_s": round(statistics.median(warm), 2),
        "off_s": round(statistics.median(off), 2),
        "warm_over_off": round(statistics.median(warm) / statistics.median(off), 3),
        "target_warm_over_off": TARGET,
        "cold_peak_rss_mib": round(peak_mib, 1),
        "executor_s": {name: round(value, 3) for name, value in share.items()},
        "numbers_checked": int(checked.group(1)) if checked else None,
        "executed_pages": int(checked.group(2)) if checked else None,
        "repeats": args.repeats,
        "machine": {
            "python": platform.python_version(),
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
        },
        "executed_in_warm_build": re.findall(r"(docs/\S+): executed in", logs["warm"][-1]),
        "note": "all three include everything else the build does (search index, notebook, math)",
    }
    out = ROOT / "benchmarks" / "results" / "build.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{'build':<28}{'seconds':>10}")
    print(f"{'cold (no cache)':<28}{result['cold_s']:>10.2f}")
    print(f"{'warm (cache)':<28}{result['warm_s']:>10.2f}")
    print(f"{'execution off':<28}{result['off_s']:>10.2f}")
    verdict = "meets" if result["warm_over_off"] <= TARGET else "misses"
    print(f"warm / off = {result['warm_over_off']:.3f} ({verdict} the target <= {TARGET})")
    executor = result["executor_s"]
    print(
        f"executor's own time: cold {executor['cold']:.2f} s, warm {executor['warm']:.2f} s, "
        f"off {executor['off']:.2f} s (the rest is the other stages, search and the notebook)"
    )
    print(
        f"cold build peak RSS: {result['cold_peak_rss_mib']:.0f} MiB; "
        f"{result['numbers_checked']} numbers checked on {result['executed_pages']} pages"
    )
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

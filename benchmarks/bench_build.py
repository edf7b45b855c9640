"""Build times of the project's site, side by side in one run (they report, they never fail on time).

  cold 1 vs N workers   empty execution cache; every page's code runs, one page at a time or
                        `execute_workers` = N at once (N = the CPU count)
  warm vs plain         the cache the cold build left (nothing runs) against plain Material on the
                        same docs (llmbook removed, the notebook left out of the nav)
  prose-edit rebuild    as `mkdocs serve` does it: config reloaded and the site rebuilt in the same
                        process after one prose character changed; llmbook vs plain Material
  warm under load       the warm build while two busy processes keep both cores busy
Every build runs on a frozen copy of the sources, each in a fresh process. Results in
benchmarks/results/build.json and a table.

    python benchmarks/bench_build.py [--repeats N]     (default 3)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"warm_over_plain": 1.3, "rebuild_over_plain": 1.3, "loaded_over_quiet": 2.0}
EDITED = "docs/lessons/lesson03-five-upgrades.md"

# Run inside a fresh process: build once (warm), change one prose character, time the rebuild.
_SERVE = """
import sys, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
config_file, site, page = sys.argv[1:4]
build(load_config(config_file, site_dir=site))
path = Path(page)
text = path.read_text(encoding="utf-8")
path.write_text(text.replace("。", "．", 1), encoding="utf-8")
start = time.perf_counter()
build(load_config(config_file, site_dir=site))
print(f"REBUILD {time.perf_counter() - start:.4f}")
path.write_text(text, encoding="utf-8")
"""


def snapshot(into: Path) -> Path:
    """A frozen copy of the sources, plus the 1-worker and plain-Material configurations."""
    into.mkdir(parents=True)
    for name in ("mkdocs.yml", "docs", "plugins", "llmkit"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, into / name)
    config = (into / "mkdocs.yml").read_text(encoding="utf-8")
    one = config.replace("  - llmbook:\n", "  - llmbook:\n      execute_workers: 1\n", 1)
    (into / "mkdocs-1worker.yml").write_text(one, encoding="utf-8")
    plain = re.sub(r"^  - llmbook:\n(?:^      .*\n)*", "", config, flags=re.M)
    plain = re.sub(r"^  - .*: notebooks/.*\n", "", plain, flags=re.M)
    plain = plain.replace("  - llmbook.extension\n", "")  # the core itself: plain Markdown
    (into / "mkdocs-plain.yml").write_text(plain, encoding="utf-8")
    return into


def _env(root: Path, cache: Path) -> dict[str, str]:
    environ = {**os.environ, "LLMBOOK_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    environ["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "plugins")])
    environ.pop("LLMBOOK_CACHE", None)
    return environ


def build(root: Path, site: Path, cache: Path, config: str = "mkdocs.yml") -> tuple[float, str]:
    """One `mkdocs build` in a fresh process; returns (seconds, its log)."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-f", config, "--site-dir", str(site)],
        cwd=root,
        env=_env(root, cache),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed ({config}):\n{done.stderr[-4000:]}")
    return seconds, done.stderr + done.stdout


def rebuild(root: Path, site: Path, cache: Path, config: str) -> float:
    """Seconds of a serve-style rebuild after a prose edit."""
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, config, str(site), EDITED],
        cwd=root,
        env=_env(root, cache),
        capture_output=True,
        text=True,
    )
    found = re.search(r"REBUILD ([\d.]+)", done.stdout)
    if done.returncode != 0 or not found:
        sys.exit(f"rebuild failed ({config}):\n{done.stderr[-4000:]}")
    return float(found.group(1))


def under_load(run):  # noqa: ANN001, ANN201
    """`run()` while one busy process per CPU spins."""
    busy = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 2)
    ]
    try:
        time.sleep(0.5)
        return run()
    finally:
        for process in busy:
            process.kill()
            process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description="site build times, side by side")
    parser.add_argument("--repeats", type=int, default=3, help="builds per measurement (median)")
    args = parser.parse_args()
    runs: dict[str, list[float]] = {
        k: [] for k in ("cold_1", "cold_n", "warm", "plain", "rebuild", "rebuild_plain", "loaded")
    }
    with tempfile.TemporaryDirectory(prefix="llmbook-bench-") as tmp:
        base = Path(tmp)
        root = snapshot(base / "src")
        cache = base / "cache"
        log = ""
        for i in range(args.repeats):  # alternate, so a change in load hits both alike
            seconds, _ = build(root, base / "c1", base / f"cold1-{i}", "mkdocs-1worker.yml")
            runs["cold_1"].append(seconds)
            shutil.rmtree(cache, ignore_errors=True)
            seconds, log = build(root, base / "cn", cache)
            runs["cold_n"].append(seconds)
        for _ in range(args.repeats):
            runs["warm"].append(build(root, base / "w", cache)[0])
            runs["plain"].append(build(root, base / "p", cache, "mkdocs-plain.yml")[0])
            runs["rebuild"].append(rebuild(root, base / "r", cache, "mkdocs.yml"))
            runs["rebuild_plain"].append(rebuild(root, base / "rp", cache, "mkdocs-plain.yml"))
        for _ in range(args.repeats):
            runs["loaded"].append(under_load(lambda: build(root, base / "l", cache)[0]))
    med = {name: statistics.median(values) for name, values in runs.items()}
    checked = re.search(r"checked (\d+) numbers on (\d+) executed pages", log)
    ratios = {
        "cold_1_over_n": med["cold_1"] / med["cold_n"],
        "warm_over_plain": med["warm"] / med["plain"],
        "rebuild_over_plain": med["rebuild"] / med["rebuild_plain"],
        "loaded_over_quiet": med["loaded"] / med["warm"],
    }
    result = {
        "seconds": {k: round(v, 2) for k, v in med.items()},
        "runs": {k: [round(x, 2) for x in v] for k, v in runs.items()},
        "ratios": {k: round(v, 3) for k, v in ratios.items()},
        "targets": TARGETS,
        "workers": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "numbers_checked": int(checked.group(1)) if checked else None,
        "executed_pages": int(checked.group(2)) if checked else None,
        "repeats": args.repeats,
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
    }
    out = ROOT / "benchmarks" / "results" / "build.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    s = result["seconds"]
    rows = [
        ("cold, 1 worker / N workers", s["cold_1"], s["cold_n"], "cold_1_over_n"),
        ("warm llmbook / plain Material", s["warm"], s["plain"], "warm_over_plain"),
        ("prose-edit rebuild / plain", s["rebuild"], s["rebuild_plain"], "rebuild_over_plain"),
        ("warm under load / quiet", s["loaded"], s["warm"], "loaded_over_quiet"),
    ]
    print(f"| {'measurement':<32}| {'a (s)':>8} | {'b (s)':>8} | {'a/b':>6} | target |")
    print(f"|{'-' * 33}|{'-' * 10}|{'-' * 10}|{'-' * 8}|--------|")
    for name, a, b, key in rows:
        target = f"<= {TARGETS[key]}" if key in TARGETS else "-"
        print(f"| {name:<32}| {a:>8.2f} | {b:>8.2f} | {ratios[key]:>6.2f} | {target:>6} |")
    print(f"{result['numbers_checked']} numbers checked on {result['executed_pages']} pages")
    print(f"-> {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

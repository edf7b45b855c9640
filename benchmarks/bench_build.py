"""Build times of a synthetic book, MkDocs and Zensical side by side, each against the same engine
without llmbook (they report, they never fail on time).

The book is the project's docs plus copies of chapter 10 and lesson 3 up to N pages. For each N:

  cold, 1 and 2 workers   empty caches: every page's code runs (`execute_workers` 1 or 2);
                          past --cold-up-to pages the first engine fills the cache once
  warm                    the caches the cold build left, against the plain engine on the same docs
  prose edit              one character of one page changed, then rebuilt: MkDocs as `mkdocs serve`
                          does (config reloaded, same process), Zensical as `zensical build --clean`
  peak memory             the largest resident set of the build's processes (warm build)
  rewritten               cache files a warm build wrote: pages re-executed / re-rendered /
                          re-checked (0 is right)

    python benchmarks/bench_build.py [--pages 6 200] [--repeats N] [--cold-up-to N]
                                     [--engines mkdocs zensical]

Results in benchmarks/results/build.json and a table.
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
TARGETS = {"mkdocs": {"warm": 1.3, "edit": 1.3}, "zensical": {"warm": 1.2}}
COPIED = ("docs/chapters/ch10-modern-llm.md", "docs/lessons/lesson03-five-upgrades.md")

# In a fresh process: build once (warm), change one prose character (the nth full stop: each
# measurement edits another place, as an author would), time the rebuild.
_SERVE = """
import sys, time
from pathlib import Path
from mkdocs.commands.build import build
from mkdocs.config import load_config
config_file, site, page, nth = sys.argv[1:5]
build(load_config(config_file, site_dir=site))
path = Path(page)
text = path.read_text(encoding="utf-8")
parts = text.split("。")  # the nth full stop becomes another: a new edit each time
n = int(nth) % (len(parts) - 1) + 1
path.write_text("。".join(parts[:n]) + "．" + "。".join(parts[n:]), encoding="utf-8")
start = time.perf_counter()
build(load_config(config_file, site_dir=site))
print(f"REBUILD {time.perf_counter() - start:.4f}")
path.write_text(text, encoding="utf-8")
"""


def book(into: Path, pages: int) -> Path:
    """The sources with `pages` pages in all, and the 1-worker and plain configurations."""
    into.mkdir(parents=True)
    for name in ("mkdocs.yml", "docs", "plugins", "llmkit", "bookdemos", "locales"):
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, into / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, into / name)
    have = sum(1 for p in (into / "docs").rglob("*") if p.suffix in (".md", ".ipynb"))
    (into / "docs" / "copies").mkdir()
    for n in range(max(0, pages - have)):
        source = ROOT / COPIED[n % 2]
        shutil.copy2(source, into / "docs" / "copies" / f"{n:03d}-{source.name}")
    config = (into / "mkdocs.yml").read_text(encoding="utf-8")
    for workers in (1, 2):
        one = config.replace("  - llmbook:\n", f"  - llmbook:\n      execute_workers: {workers}\n")
        (into / f"mkdocs-{workers}w.yml").write_text(one, encoding="utf-8")
    plain = re.sub(r"^  - llmbook:\n(?:^      .*\n)*", "", config, flags=re.M)
    plain = re.sub(r"^  - .*: notebooks/.*\n", "", plain, flags=re.M)
    plain = plain.replace("  - llmbook.extension\n", "")  # the core itself: plain Markdown
    # Without llmbook an engine would build the translations, and Zensical a notebook's twin.
    plain += "exclude_docs: |\n  *.en.md\n  *.en.ipynb\n  notebooks/\n"
    (into / "mkdocs-plain.yml").write_text(plain, encoding="utf-8")
    return into


def _env(root: Path, cache: Path) -> dict[str, str]:
    environ = {**os.environ, "LLMBOOK_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    environ["PYTHONPATH"] = os.pathsep.join([str(root), str(root / "plugins")])
    environ.pop("LLMBOOK_CACHE", None)
    # The copy's llmbook compiled once, as an installed one is (pip compiles it; the engines and
    # their extensions already are): a build that compiled every module again would time Python's
    # compiler, not the build (PYTHONDONTWRITEBYTECODE=1 cost this book's warm build ~0.2 s).
    environ.pop("PYTHONDONTWRITEBYTECODE", None)
    return environ


def _timed(command: list[str], root: Path, cache: Path) -> tuple[float, int]:
    """(seconds, peak KiB of its largest process) of one build in a fresh process."""
    wrapper = (
        "import resource, subprocess, sys\n"
        "done = subprocess.run(sys.argv[1:])\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(done.returncode)\n"
    )
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *command],
        cwd=root,
        env=_env(root, cache),
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed ({' '.join(command)}):\n{done.stderr[-4000:]}")
    return seconds, int(re.search(r"PEAK (\d+)", done.stderr).group(1))


def build(engine: str, root: Path, cache: Path, config: str) -> tuple[float, int]:
    if engine == "mkdocs":
        command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", config, "-d", "site"]
        return _timed(command, root, cache)
    if config == "mkdocs-plain.yml":
        command = [sys.executable, "-m", "zensical", "build", "--clean", "-f", config]
        return _timed(command, root, cache)
    # The book builds from the config llmbook writes for Zensical (translations left out, the
    # notebook's twin written): written before the timed build, as an author writes it once.
    subprocess.run(
        [sys.executable, "-m", "llmbook", "zensical-config", config],
        cwd=root,
        env=_env(root, cache),
        check=True,
        capture_output=True,
    )
    written = config.replace(".yml", ".zensical.yml")
    command = [sys.executable, "-m", "zensical", "build", "--clean", "-f", written]
    return _timed(command, root, cache)


def edit(engine: str, root: Path, cache: Path, config: str, page: str, nth: int = 0) -> float:
    """Seconds of the rebuild after a one-character prose edit of `page` (its `nth` full stop)."""
    if engine == "zensical":
        path = root / page
        text = path.read_text(encoding="utf-8")
        parts = text.split("。")
        n = nth % (len(parts) - 1) + 1
        path.write_text("。".join(parts[:n]) + "．" + "。".join(parts[n:]), encoding="utf-8")
        try:
            return build(engine, root, cache, config)[0]
        finally:
            path.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", _SERVE, config, "site-edit", page, str(nth)],
        cwd=root,
        env=_env(root, cache),
        capture_output=True,
        text=True,
    )
    found = re.search(r"REBUILD ([\d.]+)", done.stdout)
    if done.returncode != 0 or not found:
        sys.exit(f"rebuild failed ({config}):\n{done.stderr[-4000:]}")
    return float(found.group(1))


def _stamps(cache: Path) -> dict[str, int]:
    return {
        str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*") if p.is_file()
    }


def measure(engine: str, root: Path, cache: Path, repeats: int, cold: bool) -> dict:
    """One engine on one book; `cache` is the book's execution cache, shared by the engines."""
    base = root.parent / f"{engine}-caches"
    runs: dict[str, list[float]] = {k: [] for k in ("cold_1", "cold_2", "warm", "plain")}
    runs.update(edit=[], edit_plain=[])
    for workers in (1, 2) if cold else (2,) if not cache.exists() else ():
        shutil.rmtree(cache, ignore_errors=True)
        seconds, _ = build(engine, root, cache, f"mkdocs-{workers}w.yml")
        runs[f"cold_{workers}"].append(seconds)
    build(engine, root, cache, "mkdocs.yml")  # this engine's pages rendered once
    before = _stamps(cache)
    peaks = []
    copy = f"docs/copies/001-{Path(COPIED[1]).name}"
    page = copy if (root / copy).exists() else COPIED[1]
    for _ in range(repeats):  # alternate, so a change in load hits both alike
        seconds, peak = build(engine, root, cache, "mkdocs.yml")
        runs["warm"].append(seconds)
        peaks.append(peak)
        runs["plain"].append(build(engine, root, base / "plain", "mkdocs-plain.yml")[0])
    after = _stamps(cache)
    rewritten = [name for name, stamp in after.items() if before.get(name) != stamp]
    for _ in range(repeats):
        runs["edit"].append(edit(engine, root, cache, "mkdocs.yml", page))
        runs["edit_plain"].append(edit(engine, root, base / "plain", "mkdocs-plain.yml", page))
    med = {k: round(statistics.median(v), 2) for k, v in runs.items() if v}
    return {
        "seconds": med,
        "runs": {k: [round(x, 2) for x in v] for k, v in runs.items() if v},
        "ratios": {
            "warm_over_plain": round(med["warm"] / med["plain"], 3),
            "edit_over_plain": round(med["edit"] / med["edit_plain"], 3),
        },
        "peak_mib": round(max(peaks) / 1024),
        "warm_rewrote": {
            "executed": len([n for n in rewritten if n.startswith("results/")]),
            "rendered": len([n for n in rewritten if n.startswith(("pages/", "converted/"))]),
            "checked": len([n for n in rewritten if n.startswith("stages/")]),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="book build times, MkDocs and Zensical")
    parser.add_argument("--pages", type=int, nargs="+", default=[6, 200])
    parser.add_argument("--repeats", type=int, default=3, help="builds per measurement (median)")
    parser.add_argument("--engines", nargs="+", default=["mkdocs", "zensical"])
    parser.add_argument(
        "--cold-up-to",
        type=int,
        default=10**9,
        help="cold builds only for books of at most this many pages; in larger ones the first "
        "engine fills the cache once (2 workers)",
    )
    args = parser.parse_args()
    result: dict = {"targets": TARGETS, "repeats": args.repeats, "books": {}}
    result["machine"] = {"python": platform.python_version(), "cpus": os.cpu_count()}
    for pages in args.pages:
        with tempfile.TemporaryDirectory(prefix="llmbook-bench-") as tmp:
            root = book(Path(tmp) / "src", pages)
            cache = Path(tmp) / "cache"
            result["books"][str(pages)] = {
                engine: measure(engine, root, cache, args.repeats, pages <= args.cold_up_to)
                for engine in args.engines
            }
    out = ROOT / "benchmarks" / "results" / "build.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(table(result))
    print(f"-> {out.relative_to(ROOT)}")


def table(result: dict) -> str:
    head = (
        "| pages | engine | cold 1w | cold 2w | warm | plain | warm/plain | edit | edit plain "
        "| edit/plain | peak MiB | warm re-ran / re-rendered / re-checked |"
    )
    rows = [head, "|" + "---|" * 12]
    for pages, engines in result["books"].items():
        for engine, m in engines.items():
            s, r = m["seconds"], m["ratios"]
            rows.append(
                f"| {pages} | {engine} | {s.get('cold_1', '-')} | {s.get('cold_2', '-')} "
                f"| {s['warm']} | {s['plain']} | {r['warm_over_plain']} | {s['edit']} "
                f"| {s['edit_plain']} | {r['edit_over_plain']} | {m['peak_mib']} "
                f"| {m['warm_rewrote']['executed']} / {m['warm_rewrote']['rendered']} "
                f"/ {m['warm_rewrote'].get('checked', '-')} |"
            )
    return "\n".join(rows)


if __name__ == "__main__":
    main()

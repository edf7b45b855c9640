"""Cold builds of the synthetic book (bench_build.py's: the project's docs plus copies of chapter
10 and lesson 3 up to N pages) with pages run by local workers against pages run as tasks on a
Dask LocalCluster of as many workers on the same machine (`execute_cluster`): the difference over
N is the cluster's overhead per page (a task's transfer, its result's way back, the checks of
the worker's versions and project files). It reports, it never fails on time.

    python benchmarks/bench_cluster.py [--pages 200] [--workers 2] [--one-line-pages 100]

First, one-line pages on warm workers both ways (the cost per page of the cluster alone), then
the cold builds.

Results in benchmarks/results/cluster.json. With M machines of W workers each, a cold build takes
about  (build's own time) + N × (page time / (M × W) + overhead per page / (M × W)),  as long as
the scheduler hands out tasks faster than the workers finish them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_build import book  # noqa: E402


def _cold(root: Path, config: str, cluster: str = "") -> float:
    """Seconds of one build in a fresh process with an empty cache."""
    cache = root / "cache"
    shutil.rmtree(cache, ignore_errors=True)
    path = [str(root), str(root / "plugins"), os.environ.get("PYTHONPATH", "")]
    environ = {**os.environ, "LLMBOOK_CACHE_DIR": str(cache), "NO_MKDOCS_2_WARNING": "1"}
    environ.update(PYTHONPATH=os.pathsep.join(p for p in path if p), LLMBOOK_CLUSTER=cluster)
    environ.pop("LLMBOOK_CACHE", None)
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", config, "-d", "site"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=root, env=environ, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"build failed ({config}, cluster {cluster or 'none'}):\n{done.stderr[-4000:]}")
    return seconds


def _local_cluster(root: Path, workers: int):  # noqa: ANN202 (a distributed.LocalCluster)
    """`workers` worker processes of one thread each, importing llmbook and llmkit from the book
    (as workers on a shared checkout would), not daemonic (pages start processes)."""
    import dask
    from distributed import LocalCluster

    sys.path[:0] = [str(root), str(root / "plugins")]  # the workers' interpreters start with it
    with dask.config.set({"distributed.worker.daemon": False}):
        return LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0"
        )


def _overhead(pages: int, workers: int) -> dict:
    """Seconds to run `pages` one-line pages on warm local workers and on a warm LocalCluster of
    as many workers, in this process: the difference is the cluster's cost per page alone."""
    from llmbook.adapters.config import LLMBookConfig
    from llmbook.core.project import Project
    from llmbook.execute import Executor

    timings = {}
    with tempfile.TemporaryDirectory(prefix="llmbook-cluster-overhead-") as folder:
        root = Path(folder)
        (root / "docs").mkdir()
        cluster = _local_cluster(root, workers)
        try:
            for name, address in (("local", ""), ("cluster", cluster.scheduler_address)):
                config = LLMBookConfig()
                config.load_dict({"cache": False, "execute_workers": workers})
                config.load_dict({"execute_cluster": address, "execute_preamble": ""})
                config.validate()
                executor = Executor(config, Project.at(root))
                executor.run_pages(
                    [(f"docs/warm{n}.md", "```python\nx = 1\n```\n") for n in range(workers)]
                )
                batch = [(f"docs/p{n}.md", f"```python\nx = {n}\n```\n") for n in range(pages)]
                start = time.perf_counter()
                report = executor.run_pages(batch)
                timings[name] = time.perf_counter() - start
                assert not report.failures, report.failures
        finally:
            cluster.close()
    per_page = (timings["cluster"] - timings["local"]) / pages
    print(
        f"{pages} one-line pages, {workers} workers: local {timings['local']:.2f} s, "
        f"LocalCluster {timings['cluster']:.2f} s, {per_page * 1000:+.0f} ms per page"
    )
    return {**{f"{k}_s": round(v, 2) for k, v in timings.items()}, "per_page_s": round(per_page, 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description="cold build: local workers vs a LocalCluster")
    parser.add_argument("--pages", type=int, nargs="+", default=[200])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--cold-up-to", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--engines", nargs="*", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--one-line-pages", type=int, default=100)
    args, _ = parser.parse_known_args()  # nox passes bench_build's arguments to every bench
    overhead = _overhead(args.one_line_pages, args.workers)
    results = {}
    for pages in args.pages:
        with tempfile.TemporaryDirectory(prefix="llmbook-cluster-bench-") as folder:
            root = book(Path(folder) / "book", pages)
            config = f"mkdocs-{args.workers}w.yml"
            if not (root / config).exists():
                text = (root / "mkdocs.yml").read_text(encoding="utf-8")
                workers = f"  - llmbook:\n      execute_workers: {args.workers}\n"
                (root / config).write_text(text.replace("  - llmbook:\n", workers), "utf-8")
            local, remote = [], []
            for _ in range(args.repeats):
                local.append(_cold(root, config))
                cluster = _local_cluster(root, args.workers)  # fresh: its page servers cold too
                try:
                    remote.append(_cold(root, config, cluster.scheduler_address))
                finally:
                    cluster.close()
            best_local, best_remote = min(local), min(remote)
            results[str(pages)] = {
                "local_s": [round(x, 2) for x in local],
                "cluster_s": [round(x, 2) for x in remote],
                "overhead_per_page_s": round((best_remote - best_local) / pages, 3),
            }
            print(
                f"{pages} pages, {args.workers} workers: local {best_local:.1f} s, "
                f"LocalCluster {best_remote:.1f} s, "
                f"{(best_remote - best_local) / pages * 1000:+.0f} ms per page"
            )
    out = HERE / "results" / "cluster.json"
    out.parent.mkdir(exist_ok=True)
    data = {"workers": args.workers, "cpus": os.cpu_count(), "one_line_pages": overhead}
    data["results"] = results
    out.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""What running blocks in IPython's shell costs a build: the book's chapter 10 and its notebook,
each run --repeats times through the executor (cache off, one page at a time), alternately with the shell
(`execute_ipython: true`, the default) and as plain Python (`execute_ipython: false`), after one
warm-up run each (the forkserver's imports are paid once). Also the shell's own parts, in this
process: making an `InteractiveShell` over a page's namespace, and transforming one magic block.
Measures and reports (benchmarks/results/ipython.json and a line per page); never fails on time.

    python benchmarks/bench_ipython.py [--repeats N]
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

from llmbook.adapters.config import LLMBookConfig  # noqa: E402
from llmbook.core.project import Project  # noqa: E402
from llmbook.execute import Executor  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "ipython.json"
PAGES = ("docs/chapters/ch10-modern-llm.md", "docs/notebooks/llama-kv-cache.ipynb")


def _executor(ipython: bool) -> Executor:
    config = LLMBookConfig()
    config.load_dict({"cache": False, "execute_ipython": ipython, "execute_workers": 1})
    errors, _ = config.validate()
    assert not errors, errors
    return Executor(config, Project.at(ROOT))


def _page_seconds(src: str, repeats: int) -> dict[bool, list[float]]:
    """Wall seconds per run, with and without the shell, alternating (a busy machine slows both
    alike), after one warm-up run of each."""
    raw = (ROOT / src).read_bytes()
    times: dict[bool, list[float]] = {False: [], True: []}
    for attempt in range(repeats + 1):
        for ipython in (False, True):
            start = time.perf_counter()
            _executor(ipython).run_page(raw, src=src)
            if attempt:
                times[ipython].append(time.perf_counter() - start)
    return times


def _shell_parts(repeats: int) -> dict[str, float]:
    from IPython.core.interactiveshell import InteractiveShell
    from llmbook.execute.shell.display import Displays
    from llmbook.execute.shell.shell import page_shell, transform_magics

    made, transformed = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as home:
            start = time.perf_counter()
            page_shell(InteractiveShell, Displays(), {"__name__": "__main__"}, home)
            made.append(time.perf_counter() - start)
        start = time.perf_counter()
        transform_magics("%matplotlib inline\nx = 1\n!echo hi\n%time y = x\n")
        transformed.append(time.perf_counter() - start)
    return {
        "shell_ms": round(statistics.median(made) * 1000, 2),
        "magic_block_ms": round(statistics.median(transformed) * 1000, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="the cost of IPython's shell in page code")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    result: dict[str, object] = {"machine": platform.platform(), "repeats": args.repeats}
    result.update(_shell_parts(20))
    print(
        f"making the shell: {result['shell_ms']} ms; one magic block: {result['magic_block_ms']} ms"
    )
    for src in PAGES:
        times = _page_seconds(src, args.repeats)
        plain, shell = statistics.median(times[False]), statistics.median(times[True])
        name = Path(src).stem
        result[name] = {"plain_s": round(plain, 3), "ipython_s": round(shell, 3)}
        print(f"{name}: plain {plain:.3f} s, IPython {shell:.3f} s ({shell - plain:+.3f} s)")
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

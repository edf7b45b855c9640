"""A CUDA page under every guard (benchmarks/gpu_run.sh): Landlock's file and TCP rules, the
seccomp socket filter, no capabilities, the allowlisted environment. The page multiplies on the
GPU with deterministic algorithms on, compiles a Triton kernel through torch.compile (its cache in
the page's cache folder) and reads its device files; the result and any error go to a JSON file.

    python benchmarks/gpu_guarded_page.py [--out benchmarks/results/guarded-page.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "plugins"))

from llmbook.core.lexer import lex  # noqa: E402
from llmbook.execute.sandbox.guards import machine_guards  # noqa: E402
from llmbook.execute.stages.collect import collect_page  # noqa: E402
from llmbook.execute.stages.engine import Engine, Limits  # noqa: E402

PAGE = """\
```python
import os, torch
x = torch.randn(512, 512, device="cuda")
print("matmul repeatable", torch.equal(x @ x, x @ x))
double_relu = torch.compile(lambda t: torch.relu(t) * 2)
print("compiled equal", torch.allclose(double_relu(x), torch.relu(x) * 2))
print("triton cache written", bool(os.listdir(os.environ["TRITON_CACHE_DIR"])))
```
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="a CUDA page under every guard")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "guarded-page.json"))
    args = parser.parse_args()
    guards = machine_guards("required", "none")  # stops here if the machine lacks one
    with tempfile.TemporaryDirectory() as project:
        (Path(project) / "docs").mkdir()
        limits = Limits(block_timeout=300, memory_mb=0)  # CUDA reserves a large address space
        engine = Engine(workers=1, limits=limits, seed=0, root=project, guards=guards)
        page = collect_page(lex(PAGE), src="docs/page.md", meta={})
        start = time.perf_counter()
        (outcome,) = engine.run([page])
        seconds = round(time.perf_counter() - start, 1)
    result = {"guards": vars(guards), "seconds": seconds}
    if outcome.error is not None:
        result["error"] = str(outcome.error)
    else:
        result["output"] = outcome.result.blocks[0].output
    print(json.dumps(result, indent=2))
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

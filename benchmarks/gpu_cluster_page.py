"""A GPU page built through a one-worker Dask cluster (benchmarks/gpu_run.sh): a LocalCluster
whose only worker declares GPU=1, and a page whose front matter asks for it
(`execute_resources: {GPU: 1}`) built with `execute_cluster`. The page multiplies on CUDA with
deterministic algorithms on; where it ran, its output and any error go to a JSON file.

    python benchmarks/gpu_cluster_page.py [--out benchmarks/results/cluster-gpu-page.json]
    python benchmarks/gpu_cluster_page.py --smoke   # the same on CPU (no CUDA asked of the page)
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

PAGE = """\
---
execute_resources: {{GPU: 1}}
---
# GPU

```python
import torch
x = torch.randn(1024, 1024, device="{device}")
print("device", x.device.type, torch.cuda.device_count())
print("matmul repeatable", torch.equal(x @ x, x @ x))
```

矩阵有 [[x.numel() = 1,048,576]] 个元素。
"""


def main() -> None:
    parser = argparse.ArgumentParser(description="a GPU page through a one-worker cluster")
    parser.add_argument("--out", default=str(ROOT / "benchmarks/results/cluster-gpu-page.json"))
    parser.add_argument("--smoke", action="store_true", help="on CPU: the page asks no CUDA")
    args = parser.parse_args()
    import dask
    from distributed import LocalCluster
    from llmbook.adapters.config import LLMBookConfig
    from llmbook.core.project import Project
    from llmbook.execute import Executor

    # Not daemonic: a daemonic process may not start the page's process.
    with dask.config.set({"distributed.worker.daemon": False}):
        cluster = LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            resources={"GPU": 1},
        )
    result: dict = {"scheduler": cluster.scheduler_address}
    try:
        with tempfile.TemporaryDirectory() as project:
            (Path(project) / "docs").mkdir()
            config = LLMBookConfig()
            options = {"cache": False, "execute_cluster": cluster.scheduler_address}
            config.load_dict({**options, "execute_timeout": 300})
            config.validate()
            executor = Executor(config, Project.at(project))
            page = PAGE.format(device="cpu" if args.smoke else "cuda")
            start = time.perf_counter()
            try:
                plan = executor.run_page(page, src="docs/gpu.md")
            except Exception as error:  # noqa: BLE001 - reported in the JSON
                result["error"] = str(error)
            else:
                result["output"] = plan.result.blocks[0].output
                result["checked_numbers"] = plan.count
            result["seconds"] = round(time.perf_counter() - start, 1)
            result["ran_on"] = executor.placed.get("docs/gpu.md", "")
            result["gpu_worker"] = next(iter(cluster.workers.values())).worker_address
    finally:
        cluster.close()
    print(json.dumps(result, indent=2))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    sys.exit(1 if "error" in result or result["ran_on"] != result["gpu_worker"] else 0)


if __name__ == "__main__":
    main()

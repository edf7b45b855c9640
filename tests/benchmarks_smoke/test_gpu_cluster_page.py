"""benchmarks/gpu_cluster_page.py --smoke: the GPU-through-a-cluster script of gpu_run.sh on CPU
(its one worker declares GPU=1, the page asks no CUDA), so a machine without a GPU still checks
that it builds the page on that worker and reports it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_gpu_cluster_page_smoke(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    out = tmp_path / "cluster-gpu-page.json"
    proc = subprocess.run(
        [sys.executable, "benchmarks/gpu_cluster_page.py", "--smoke", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["ran_on"] == result["gpu_worker"] != ""
    assert result["output"] == "device cpu 0\nmatmul repeatable True\n"
    assert result["checked_numbers"] == 1

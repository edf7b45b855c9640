"""benchmarks/bench_gpu.py --smoke: the GPU benchmark's logic on CPU (tiny shapes, float32, no
compile), so a machine without a GPU still checks that every method runs and is reported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
METHODS = [
    "llmkit-eager",
    "hf-dynamic",
    "llmkit-compiled",
    "hf-static",
    "llmkit-compiled-fused",
    "hf-static-compiled",
]


@pytest.mark.slow
def test_bench_gpu_smoke(tmp_path: Path) -> None:
    out = tmp_path / "decode-gpu-smoke.json"
    proc = subprocess.run(
        [sys.executable, "benchmarks/bench_gpu.py", "--smoke", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    result = json.loads(out.read_text())
    assert result["env"]["torch"] == __import__("torch").__version__
    assert result["bandwidth"]["read_bytes_per_s"] > 0
    assert result["bandwidth"]["copy_bytes_per_s"] > 0
    assert set(result["shapes"]) == {"tiny", "tiny-tied"}
    for name, shape in result["shapes"].items():
        assert shape["weights_shared_with_hf"] is True, name
        assert shape["bytes_per_token"] > 0
        # float32 on CPU: llmkit's greedy tokens are HF's
        assert shape["greedy_tokens_equal_hf"] is True, name
        assert shape["greedy_leading_new_tokens_equal_hf"] == 8, name
        assert list(shape["methods"]) == METHODS, name
        for method, row in shape["methods"].items():
            where = f"{name} {method}: {row}"
            if row["status"] == "skipped":
                assert row["skip_reason"], where
                continue
            assert row["status"] == "ok", where
            assert row["decode_tokens_per_s"] > 0, where
            assert row["end_to_end_tokens_per_s"] > 0, where
            assert row["fraction_of_read_bandwidth"] > 0, where
            assert row["tokens_equal_llmkit_eager"] is True, where
            assert len(row["full_s"]) == len(row["prefill_s"]) == 3, where
        # without --compile-smoke only the HF compiled forward is left out
        assert shape["methods"]["hf-static-compiled"]["status"] == "skipped"
    assert set(result["targets"]) >= {"fraction", "fraction_met", "faster_than_hf_best"}
    assert "| shape | method |" in proc.stdout

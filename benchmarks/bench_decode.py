"""Decode throughput at batch 1: llmkit (static cache, with fused projections, concat cache, no
cache, optionally the compiled step) vs HF generate.

Same weights for every method (llmkit loads the HF model's state dict). Reports tokens/s as
new tokens / wall time of the whole generate call (prefill included, same for all), the median
of --repeats runs, plus the machine's memory bandwidth measured in the same run and the medium
model's fraction of the decode roofline (bytes read per token / bandwidth). Measures and reports;
never fails on time. Results: benchmarks/results/decode-<device>.json.

    python benchmarks/bench_decode.py                      # CPU, full config
    python benchmarks/bench_decode.py --device cuda --compile
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import statistics
import time
from pathlib import Path

import torch
import transformers

import llmkit
from llmkit.config import SIZES
from llmkit.generate import generate

_DIMS = SIZES[:-1]  # all but max_position_embeddings, which build() sets
# The presets' dimensions, spelled as transformers.LlamaConfig arguments (the names are shared).
CONFIGS = {
    name: {dim: getattr(llmkit.PRESETS[name], dim) for dim in _DIMS} for name in ("tiny", "medium")
}
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed(fn, device: torch.device) -> float:
    sync(device)
    start = time.perf_counter()
    fn()
    sync(device)
    return time.perf_counter() - start


def memory_bandwidth(device: torch.device, mib: int = 512, repeats: int = 7) -> float:
    """Read bandwidth in bytes/s: the best time to sum a large fp32 tensor (decode reads weights)."""
    x = torch.ones(mib * 2**20 // 4, device=device)
    x.sum()
    return x.numel() * 4 / min(timed(x.sum, device) for _ in range(repeats))


def bytes_per_token(config: llmkit.ModelConfig, elem: int, context: int) -> int:
    """Weights every decode step reads (all matmuls + norms; one embedding row) + the KV cache."""
    weights = (
        llmkit.param_count(config) - config.vocab_size * config.hidden_size + config.hidden_size
    )
    return weights * elem + llmkit.kv_cache_bytes_for(config, context, elem)


def build(name: str, dtype: torch.dtype, device: torch.device):
    hf_config = transformers.LlamaConfig(
        **CONFIGS[name],
        max_position_embeddings=2048,
        rope_parameters={"rope_type": "default", "rope_theta": 10000.0},
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=None,
    )
    torch.manual_seed(0)
    hf = transformers.LlamaForCausalLM._from_config(hf_config, attn_implementation="sdpa")
    hf = hf.to(device=device, dtype=dtype).eval()
    return hf, llmkit.from_hf(hf)


def bench_one(name: str, dtype_name: str, args, device: torch.device) -> dict:
    dtype = DTYPES[dtype_name]
    hf, ours = build(name, dtype, device)
    prompt = torch.randint(0, CONFIGS[name]["vocab_size"], (1, args.prompt_len), device=device)
    n = args.new_tokens
    mask = torch.ones_like(prompt)
    fused = llmkit.fuse_projections(copy.deepcopy(ours))  # the explicit opt-in, own weights

    def methods(n: int) -> dict:
        runs = {
            "llmkit-static": lambda: generate(ours, prompt, n, cache="static"),
            "llmkit-fused": lambda: generate(fused, prompt, n, cache="static"),
            "llmkit-concat": lambda: generate(ours, prompt, n, cache="concat"),
            "llmkit-nocache": lambda: generate(ours, prompt, n, cache=None),
            "hf-generate": lambda: hf.generate(
                prompt,
                attention_mask=mask,
                max_new_tokens=n,
                min_new_tokens=n,
                do_sample=False,
                eos_token_id=None,
                pad_token_id=0,
            ),
        }
        if args.compile:  # the fixed-shape step, compiled once (CUDA graphs on a GPU)
            mode = "reduce-overhead" if device.type == "cuda" else True
            runs["llmkit-compiled"] = lambda: generate(fused, prompt, n, compile=mode)
        return runs

    same_tokens = torch.equal(generate(ours, prompt, n), methods(n)["hf-generate"]())
    # Recomputing everything costs O(n^2): for the larger model one run is all the time allows.
    nocache_repeats = (
        args.repeats if llmkit.param_count(ours.config) < 50e6 else args.nocache_repeats
    )
    times: dict[str, list[float]] = {m: [] for m in methods(n)}
    with torch.inference_mode():
        for fn in methods(
            n if args.compile else 8
        ).values():  # warm-up: allocator, kernels, compile
            fn()
        # Round-robin, so load from other processes hits every method alike.
        for r in range(args.repeats):
            for method, fn in methods(n).items():
                if method != "llmkit-nocache" or r < nocache_repeats:
                    times[method].append(timed(fn, device))
    row = {
        "config": name,
        "dtype": dtype_name,
        "params": llmkit.param_count(ours.config),
        "greedy_tokens_equal_hf": same_tokens,
        "methods": {},
    }
    for method, seconds in times.items():
        median = statistics.median(seconds)
        row["methods"][method] = {
            "new_tokens": n,
            "repeats": len(seconds),
            "seconds": seconds,
            "median_s": median,
            "tokens_per_s": n / median,
        }
        print(f"  {name:6s} {dtype_name:8s} {method:15s} {n / median:9.1f} tok/s", flush=True)
    tps = {m: r["tokens_per_s"] for m, r in row["methods"].items()}
    row["speedup_static_vs_hf"] = tps["llmkit-static"] / tps["hf-generate"]
    # Each round times the methods back to back, so a per-round ratio cancels most of the load
    # other processes put on a shared machine; its median is the steadier comparison.
    for method in ("llmkit-static", "llmkit-fused", "llmkit-compiled"):
        if method in times:
            row[f"speedup_{method.split('-')[1]}_vs_hf_paired"] = statistics.median(
                h / s for s, h in zip(times[method], times["hf-generate"], strict=True)
            )
    row["bytes_per_token"] = bytes_per_token(
        ours.config, torch.finfo(dtype).bits // 8, args.prompt_len + n
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--configs", default="tiny,medium")
    parser.add_argument("--dtypes", default="float32,bfloat16")
    parser.add_argument("--prompt-len", type=int, default=32)
    parser.add_argument("--new-tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--nocache-repeats",
        type=int,
        default=1,
        help="runs of the no-cache path for models over 50M parameters",
    )
    parser.add_argument(
        "--compile", action="store_true", help="torch.compile the static-cache decode step"
    )
    parser.add_argument(
        "--threads", type=int, default=0, help="torch CPU threads (0 = torch default)"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)

    bandwidth = memory_bandwidth(device)
    print(
        f"memory read bandwidth: {bandwidth / 1e9:.1f} GB/s ({device}, {torch.get_num_threads()} threads)"
    )
    rows = [
        bench_one(c, d, args, device)
        for c in args.configs.split(",")
        for d in args.dtypes.split(",")
    ]
    for row in rows:
        roofline = bandwidth / row["bytes_per_token"]
        row["roofline_tokens_per_s"] = roofline
        row["roofline_fraction_static"] = row["methods"]["llmkit-static"]["tokens_per_s"] / roofline

    result = {
        "device": str(device),
        "threads": torch.get_num_threads(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "machine": platform.processor() or platform.machine(),
        "prompt_len": args.prompt_len,
        "compile": args.compile,
        "memory_bandwidth_bytes_per_s": bandwidth,
        "rows": rows,
    }
    out = Path(args.out or Path(__file__).parent / "results" / f"decode-{device.type}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")

    methods = [m for m in rows[0]["methods"] if m != "hf-generate"] + ["hf-generate"]
    print(
        f"\n| config | dtype | {' | '.join(methods)} | static/HF | fused/HF (paired) "
        "| roofline tok/s | static % of roofline |"
    )
    print("|" + "---|" * (len(methods) + 6))
    for row in rows:
        cells = [f"{row['methods'][m]['tokens_per_s']:.1f}" for m in methods]
        print(
            f"| {row['config']} | {row['dtype']} | {' | '.join(cells)} | {row['speedup_static_vs_hf_paired']:.2f}x "
            f"| {row['speedup_fused_vs_hf_paired']:.2f}x "
            f"| {row['roofline_tokens_per_s']:.1f} | {100 * row['roofline_fraction_static']:.0f}% |"
        )
    print(f"\nwrote {out}")


if __name__ == "__main__":
    main()

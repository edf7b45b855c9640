"""Decode at batch 1 on one GPU (bf16, greedy): llmkit eager, its decode step as a CUDA graph
(compile="reduce-overhead"), the same after fuse_projections; HF generate with a dynamic cache, a
static cache (transformers may auto-compile it: recorded) and a static cache with a compiled forward.
Llama-3-8B and Llama-3.2-1B shapes, random weights built on the GPU; llmkit shares HF's tensors.

Decode tok/s = (N - 1) / (median time of generate(N) - median time of generate(1)): the prefill is
left out; warm-up (compilation included) is reported apart. Bytes read per decode token x tok/s =
achieved bandwidth, against the read bandwidth measured in the same run. Measures and reports, never
fails on time; the JSON is rewritten after every method, so a killed run keeps its results.

    python benchmarks/bench_gpu.py                         # needs CUDA; ~8 min on an H200
    python benchmarks/bench_gpu.py --smoke                 # CPU, float32, tiny shapes, no compile
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
import traceback
from pathlib import Path

import torch
import transformers

import llmkit
from llmkit.hf import hf_to_llmkit_state_dict

_8B = llmkit.ModelConfig.llama3_8b().replace(max_position_embeddings=4096)
SHAPES = {
    "llama3-8b": _8B,
    # Llama 3.2 1B: the 8B's vocab, heads, eps and theta; tied embeddings (rope scaling left out)
    "llama3.2-1b": _8B.replace(
        hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, tie_word_embeddings=True
    ),
    "tiny": llmkit.ModelConfig.tiny(),  # --smoke: one untied and one tied shape
    "tiny-tied": llmkit.ModelConfig.tiny().replace(tie_word_embeddings=True),
}
CORE = ["llmkit-eager", "hf-dynamic", "llmkit-compiled", "hf-static", "llmkit-compiled-fused"]
METHODS = CORE + ["hf-static-compiled"]  # the last runs after every shape's core methods
# Seconds of compilation / graph capture guessed per method on the GPU (for the budget only).
COMPILE_GUESS = {"llmkit-compiled": 60, "llmkit-compiled-fused": 45, "hf-static": 90}
COMPILE_GUESS["hf-static-compiled"] = 120
TARGET_FRACTION = 0.75


def timed(fn, device: torch.device) -> float:
    sync = torch.cuda.synchronize if device.type == "cuda" else lambda: None
    sync()
    start = time.perf_counter()
    fn()
    sync()
    return time.perf_counter() - start


def bandwidth(device: torch.device, nbytes: int, repeats: int = 10) -> dict:
    """Best of `repeats`: x.sum() over an fp32 tensor (read) and a device-to-device copy (bytes
    read + written). fp32 keeps 4 GiB under 2**31 elements (one kernel, 32-bit indexing)."""
    x = torch.ones(nbytes // 4, dtype=torch.float32, device=device)
    y = torch.empty_like(x)
    x.sum()  # warm-up
    y.copy_(x)
    read = min(timed(x.sum, device) for _ in range(repeats))
    copy = min(timed(lambda: y.copy_(x), device) for _ in range(repeats))
    return {"bytes": nbytes, "read_bytes_per_s": nbytes / read, "copy_bytes_per_s": 2 * nbytes / copy}  # fmt: skip


def bytes_per_token(config: llmkit.ModelConfig, elem: int, context: int) -> int:
    """As bench_decode.bytes_per_token: every weight a decode step reads (one embedding row), plus
    the KV cache; a tied LM head still reads the whole table (bench_decode's presets are untied)."""
    table = config.vocab_size * config.hidden_size
    weights = llmkit.param_count(config) - table + config.hidden_size
    weights += table if config.tie_word_embeddings else 0
    return weights * elem + llmkit.kv_cache_bytes_for(config, context, elem)


_HF_FIELDS = ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers", "head_dim",
              "num_attention_heads", "num_key_value_heads", "rms_norm_eps", "tie_word_embeddings",
              "max_position_embeddings")  # fmt: skip


def hf_config(c: llmkit.ModelConfig) -> transformers.LlamaConfig:
    return transformers.LlamaConfig(
        **{f: getattr(c, f) for f in _HF_FIELDS},
        rope_parameters={"rope_type": "default", "rope_theta": c.rope_theta},
        bos_token_id=None,
        eos_token_id=None,
        pad_token_id=None,
    )


def build(config: llmkit.ModelConfig, dtype: torch.dtype, device: torch.device):
    """HF model initialised on `device` in `dtype` (random N(0, 0.02)); the llmkit model, built on
    meta, takes its tensors (no copy)."""
    torch.manual_seed(0)
    with torch.device(device):
        hf = transformers.LlamaForCausalLM._from_config(
            hf_config(config), dtype=dtype, attn_implementation="sdpa"
        ).eval()
    with torch.device("meta"):
        model = llmkit.Transformer(config)
    state = hf_to_llmkit_state_dict(hf.state_dict())
    if config.tie_word_embeddings:
        state["lm_head.weight"] = state["embed.weight"]
    model.load_state_dict(state, strict=True, assign=True)
    if config.tie_word_embeddings:
        model.lm_head.weight = model.embed.weight
    model.rope.reset_tables(device)  # non-persistent: built on meta
    ptrs = {p.data_ptr() for p in hf.parameters()}
    shared = all(p.data_ptr() in ptrs for p in model.parameters())
    return hf, model.eval(), shared


def dynamo_graphs() -> int:
    return torch._dynamo.utils.counters["stats"]["unique_graphs"]


def leading_equal(a: torch.Tensor, b: torch.Tensor, start: int) -> int:
    """How many tokens from `start` on agree before the first difference."""
    same = (a[0, start:].cpu() == b[0, start:].cpu()).tolist()
    return same.index(False) if False in same else len(same)


def run_method(method: str, state: dict, args, device: torch.device, compile_on: bool) -> dict:
    hf, model, prompt, n = state["hf"], state["model"], state["prompt"], args.new_tokens
    row: dict = {"status": "ok", "compile": False}
    mode = "reduce-overhead" if device.type == "cuda" else None  # CUDA graphs need CUDA
    if method.startswith("llmkit"):
        if method == "llmkit-compiled-fused":  # last llmkit method: fusion replaces the weights
            llmkit.fuse_projections(model)
        row["compile"] = (mode or True) if method != "llmkit-eager" and compile_on else False

        def gen(k):
            return llmkit.generate(model, prompt, k, compile=row["compile"])
    else:
        kw = dict(attention_mask=torch.ones_like(prompt), do_sample=False, pad_token_id=0)
        kw.update(eos_token_id=None)  # every run makes exactly k tokens
        if method != "hf-dynamic":
            kw["cache_implementation"] = "static"
        if method == "hf-static-compiled":
            hf.forward = torch.compile(hf.forward, mode=mode, fullgraph=True)
            kw["disable_compile"] = True  # no auto-compile around the compiled forward
            row["compile"] = mode or True

        def gen(k):
            with torch.inference_mode():
                return hf.generate(prompt, max_new_tokens=k, min_new_tokens=k, **kw)

    graphs = dynamo_graphs()
    warm = 2 if row["compile"] or method == "hf-static" else 1  # CUDA graphs record on a rerun
    row["warmup_s"] = [timed(lambda: gen(n), device) for _ in range(warm)]
    row["warmup_s"].append(timed(lambda: gen(1), device))
    if method == "hf-static":  # transformers compiles a static-cache decode on CUDA by itself
        row["hf_auto_compiled"] = getattr(hf, "_compiled_call", None) is not None
        row["compile"] = "transformers auto-compile" if row["hf_auto_compiled"] else False
    row["dynamo_graphs_compiled"] = dynamo_graphs() - graphs  # in this method's warm-up
    full, prefill = [], []
    for _ in range(args.repeats):
        full.append(timed(lambda: gen(n), device))
        prefill.append(timed(lambda: gen(1), device))
    median_full, median_prefill = statistics.median(full), statistics.median(prefill)
    decode_s = median_full - median_prefill
    row.update(full_s=full, prefill_s=prefill, new_tokens=n, median_full_s=median_full)
    row.update(median_prefill_s=median_prefill, decode_s=decode_s)
    row["decode_tokens_per_s"] = (n - 1) / decode_s if decode_s > 0 else None
    row["end_to_end_tokens_per_s"] = n / median_full
    if row["decode_tokens_per_s"]:
        row["achieved_bytes_per_s"] = state["bytes_per_token"] * row["decode_tokens_per_s"]
        row["fraction_of_read_bandwidth"] = row["achieved_bytes_per_s"] / state["read_bw"]
    tokens = gen(n)
    eager = state.setdefault("eager_tokens", tokens)  # the first method's, llmkit-eager's
    row["tokens_equal_llmkit_eager"] = torch.equal(tokens.cpu(), eager.cpu())
    row["leading_new_tokens_equal_llmkit_eager"] = leading_equal(tokens, eager, prompt.shape[1])
    if method == "hf-dynamic":
        state["row"]["greedy_tokens_equal_hf"] = row["tokens_equal_llmkit_eager"]
        lead = row["leading_new_tokens_equal_llmkit_eager"]
        state["row"]["greedy_leading_new_tokens_equal_hf"] = lead
    return row


def setup(name: str, args, dtype: torch.dtype, device: torch.device, read_bw: float) -> dict:
    t0 = time.perf_counter()
    hf, model, shared = build(SHAPES[name], dtype, device)
    g = torch.Generator().manual_seed(0)
    prompt = torch.randint(0, model.config.vocab_size, (1, args.prompt_len), generator=g)
    context = args.prompt_len + args.new_tokens // 2  # the mean context of a decode step
    config = model.config
    row = dict(config={k: v for k, v in vars(config).items() if v is not None},
               params=llmkit.param_count(config), weights_shared_with_hf=shared,
               config_from_hf_equal=llmkit.config_from_hf(hf.config) == config,
               bytes_per_token=bytes_per_token(config, dtype.itemsize, context),
               build_s=time.perf_counter() - t0, methods={})  # fmt: skip
    print(f"{name}: built in {row['build_s']:.1f} s, shared weights: {shared}", flush=True)
    state = dict(hf=hf, model=model, prompt=prompt.to(device), row=row, read_bw=read_bw)
    return state | {"bytes_per_token": row["bytes_per_token"]}


def summarize(result: dict, target: str) -> None:
    """Per shape: llmkit's best compiled method against the bandwidth and HF's best method."""
    for shape in result["shapes"].values():
        ok = {m: r for m, r in shape["methods"].items() if r.get("decode_tokens_per_s")}
        ours = [ok[m] for m in ("llmkit-compiled", "llmkit-compiled-fused") if m in ok]
        hfs = [ok[m]["decode_tokens_per_s"] for m in ok if m.startswith("hf-")]
        best = max(ours, key=lambda r: r["decode_tokens_per_s"]) if ours else None
        shape["llmkit_best_fraction_of_read_bandwidth"] = best and best["fraction_of_read_bandwidth"]  # fmt: skip
        shape["llmkit_best_vs_hf_best"] = best and hfs and best["decode_tokens_per_s"] / max(hfs)
    row = result["shapes"].get(target, {})
    frac, speedup = row.get("llmkit_best_fraction_of_read_bandwidth"), row.get("llmkit_best_vs_hf_best")  # fmt: skip
    result["targets"] = dict(shape=target, fraction_goal=TARGET_FRACTION, fraction=frac,
                             fraction_met=None if frac is None else frac >= TARGET_FRACTION,
                             speedup_vs_hf_best=speedup,
                             faster_than_hf_best=None if not speedup else speedup > 1)  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--shapes", default=None, help="default llama3-8b,llama3.2-1b")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--prompt-len", type=int, default=32)
    parser.add_argument("--new-tokens", type=int, default=None, help="default 128 (smoke 8)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--budget-s", type=float, default=480.0, help="skip methods past this")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "decode-gpu.json"))
    parser.add_argument("--smoke", action="store_true", help="CPU, float32, tiny shapes")
    parser.add_argument("--compile-smoke", action="store_true", help="compile in --smoke too")
    args = parser.parse_args()
    start, smoke, out = time.perf_counter(), args.smoke, Path(args.out)
    args.shapes = args.shapes or ("tiny,tiny-tied" if smoke else "llama3-8b,llama3.2-1b")
    args.new_tokens = args.new_tokens or (8 if smoke else 128)
    compile_on = not smoke or args.compile_smoke
    device = torch.device("cpu" if smoke else "cuda")
    dtype = torch.float32 if smoke else torch.bfloat16
    if smoke:  # one thread: a tiny model gains nothing from more, and loses much on a busy machine
        torch.set_num_threads(1)
    elif not torch.cuda.is_available():
        sys.exit("bench_gpu.py needs CUDA (or --smoke)")
    # 2 shapes x (unfused, fused, HF prefill/decode) graphs: stay clear of dynamo's default of 8
    torch._dynamo.config.recompile_limit = max(torch._dynamo.config.recompile_limit, 64)
    env = dict(python=platform.python_version(), torch=torch.__version__, cuda=torch.version.cuda,
               transformers=transformers.__version__, dtype=str(dtype).removeprefix("torch."),
               device=torch.cuda.get_device_name(device) if device.type == "cuda" else "cpu")  # fmt: skip
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        env.update(gpu_memory_bytes=props.total_memory, multiprocessors=props.multi_processor_count)
    print(" ".join(f"{k}={v}" for k, v in env.items()), flush=True)
    bw = bandwidth(device, (64 if smoke else 4096) * 2**20)
    print(f"read {bw['read_bytes_per_s'] / 1e9:.0f} GB/s, copy (read+write) "
          f"{bw['copy_bytes_per_s'] / 1e9:.0f} GB/s", flush=True)  # fmt: skip
    shapes, methods = args.shapes.split(","), args.methods.split(",")
    result = {"env": env, "args": vars(args), "bandwidth": bw, "shapes": {}}
    states: dict[str, dict] = {}
    failed = False
    # Every shape's core methods first; the HF compiled forward, the least needed, last.
    tasks = [(s, m) for s in shapes for m in CORE if m in methods]
    tasks += [(s, "hf-static-compiled") for s in shapes if "hf-static-compiled" in methods]
    for name, method in tasks:
        if name not in states:
            try:
                states[name] = setup(name, args, dtype, device, bw["read_bytes_per_s"])
            except Exception as exc:  # recorded; its methods are skipped below
                failed = True
                traceback.print_exc()
                states[name] = {"row": {"build_error": repr(exc), "methods": {}}}
            result["shapes"][name] = states[name]["row"]
        state, runs = states[name], states[name]["row"]["methods"]
        elapsed = time.perf_counter() - start
        slowest = max(
            (r["median_full_s"] for r in runs.values() if "median_full_s" in r), default=0
        )
        guess = (COMPILE_GUESS.get(method, 0) if not smoke else 0) + (args.repeats + 3) * slowest
        if "build_error" in state["row"]:
            runs[method] = {"status": "skipped", "skip_reason": "the shape failed to build"}
        elif elapsed + guess > args.budget_s:
            why = f"budget: {elapsed:.0f} s of {args.budget_s:.0f} s used, needs ~{guess:.0f} s"
            runs[method] = {"status": "skipped", "skip_reason": why}
        elif method == "hf-static-compiled" and not compile_on:
            why = "needs torch.compile (--smoke without --compile-smoke)"
            runs[method] = {"status": "skipped", "skip_reason": why}
        else:
            try:
                runs[method] = run_method(method, state, args, device, compile_on)
            except Exception as exc:  # report and go on: one broken method must not lose the rest
                failed = True
                tb = traceback.format_exc().splitlines()[-12:]
                runs[method] = {"status": "error", "error": repr(exc), "traceback": tb}
                traceback.print_exc()
        r = runs[method]
        tps = r.get("decode_tokens_per_s")
        detail = f"{tps:9.1f} decode tok/s" if tps else r.get("skip_reason") or r.get("error")
        print(f"  {name:12s} {method:22s} {detail}", flush=True)
        if r["status"] == "ok" and device.type == "cuda":
            r["max_memory_allocated_bytes"] = torch.cuda.max_memory_allocated(device)
        result["elapsed_s"] = time.perf_counter() - start
        summarize(result, "llama3-8b" if "llama3-8b" in shapes else shapes[0])
        out.parent.mkdir(parents=True, exist_ok=True)  # rewritten after every method
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(result, indent=2, default=str) + "\n")
        tmp.replace(out)
    report(result, out)
    return 1 if failed else 0


def report(result: dict, out: Path) -> None:
    bw = result["bandwidth"]
    print(f"\nmeasured read bandwidth {bw['read_bytes_per_s'] / 1e9:.0f} GB/s "
          f"(copy {bw['copy_bytes_per_s'] / 1e9:.0f} GB/s read+write)")  # fmt: skip
    print("\n| shape | method | compile | decode tok/s | e2e tok/s | prefill ms | warm-up s "
          "| GB/s | % of read BW | new tokens = eager |\n|" + "---|" * 10)  # fmt: skip
    for name, shape in result["shapes"].items():
        for method, r in shape["methods"].items():
            if not r.get("decode_tokens_per_s"):
                why = r.get("skip_reason") or r.get("error") or "decode time <= 0 (noise)"
                print(f"| {name} | {method} | {r['status']}: {why} |")
                continue
            print(f"| {name} | {method} | {r['compile']} | {r['decode_tokens_per_s']:.1f} "
                  f"| {r['end_to_end_tokens_per_s']:.1f} | {1e3 * r['median_prefill_s']:.1f} "
                  f"| {sum(r['warmup_s']):.1f} | {r['achieved_bytes_per_s'] / 1e9:.0f} "
                  f"| {100 * r['fraction_of_read_bandwidth']:.0f}% "
                  f"| {r['leading_new_tokens_equal_llmkit_eager']}/{r['new_tokens']} |")  # fmt: skip
        print(f"{name}: greedy tokens equal HF: {shape.get('greedy_tokens_equal_hf')} "
              f"(leading new tokens equal: {shape.get('greedy_leading_new_tokens_equal_hf')})")  # fmt: skip
    t = result.get("targets", {})
    frac, speed = t.get("fraction"), t.get("speedup_vs_hf_best")
    print(f"\ntarget ({t.get('shape')}): llmkit-compiled(-fused) >= {100 * TARGET_FRACTION:.0f}% "
          f"of read bandwidth: {'n/a' if frac is None else f'{100 * frac:.0f}%'} -> "
          f"{t.get('fraction_met')}; faster than HF's best: "
          f"{'n/a' if not speed else f'{speed:.2f}x'} -> {t.get('faster_than_hf_best')}")  # fmt: skip
    print(f"\nwrote {out} ({result.get('elapsed_s', 0):.0f} s)")


if __name__ == "__main__":
    sys.exit(main())

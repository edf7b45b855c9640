"""`python -m llmkit generate PATH "prompt"`: the whole pipeline in one command (tokenizer, chat
template, prefill, decode loop, streamed detokenization) with only `tokenizers` and `jinja2`
besides llmkit, so that every step stays visible (no transformers)."""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

from .prompt import (
    TextStream,
    UsageError,
    chat_template,
    eos_ids,
    read_json,
    render_chat,
    token_text,
)

__all__ = ["main"]


def _device(name: str | None):
    import torch

    if name is None:
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        device = torch.device(name)
    except RuntimeError as error:
        raise UsageError(f"--device {name}: {error}") from error
    if device.type == "cuda" and not torch.cuda.is_available():
        raise UsageError(f"--device {name}: this PyTorch sees no CUDA GPU; use --device cpu")
    return device


def _dtype(name: str, stored, device):
    """auto: the checkpoint's dtype (`stored`), but float32 on CPU, where half-precision matmuls
    are slow."""
    import torch

    if name != "auto":
        return getattr(torch, name)
    if device.type == "cpu" and stored in (torch.float16, torch.bfloat16):
        return torch.float32
    return stored


def _prompt(folder: Path, config: dict, args: argparse.Namespace) -> tuple:
    """(tokenizer, prompt ids, EOS ids); the prompt goes through the chat template if any."""
    from tokenizers import Tokenizer

    tok_config = read_json(folder / "tokenizer_config.json")
    try:
        tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    except Exception as error:  # tokenizers raises a bare Exception for a malformed file
        raise UsageError(f"{folder / 'tokenizer.json'} could not be read: {error}") from error
    tokenizer.no_truncation()  # a tokenizer.json may carry a training-time truncation length
    tokenizer.no_padding()
    template = None if args.no_chat else chat_template(folder, tok_config)
    if template is None:
        ids = tokenizer.encode(args.prompt, add_special_tokens=True).ids
    else:
        bos, eos = (token_text(tok_config.get(k)) for k in ("bos_token", "eos_token"))
        text = render_chat(template, args.prompt, bos, eos)
        ids = tokenizer.encode(text, add_special_tokens=False).ids  # the template has them
    return tokenizer, ids, eos_ids(folder, config, tok_config, tokenizer)


def _gguf_prompt(file: Path, args: argparse.Namespace) -> tuple:
    """(tokenizer, prompt ids, EOS ids, ModelConfig, loader) of a GGUF file, all from its
    header, which is read once."""
    from .gguf import load_gguf, read_config
    from .gguf_tokenizer import chat_template, special_token, stop_ids, tokenizer_from_gguf

    try:
        metadata, tensors, model_config = read_config(file)
        tokenizer = tokenizer_from_gguf(metadata)
    except (ImportError, KeyError, ValueError) as error:
        raise UsageError(f"{file}: {error}") from error
    template = None if args.no_chat else chat_template(metadata)
    if template is None:
        ids = tokenizer.encode(args.prompt, add_special_tokens=True).ids
    else:
        bos, eos = special_token(metadata, "bos"), special_token(metadata, "eos")
        text = render_chat(template, args.prompt, bos, eos)
        ids = tokenizer.encode(text, add_special_tokens=False).ids  # the template has them
    load = functools.partial(load_gguf, file, metadata, tensors, model_config)
    return tokenizer, ids, stop_ids(metadata), model_config, load


def _model(path: Path, model_config, stored, load, args: argparse.Namespace, prompt_len: int):
    """The model on its device, once the prompt is known to fit (before any weight is read).
    stored: the checkpoint's dtype; load(dtype, device) reads the weights."""
    device = _device(args.device)
    if args.cuda_graphs and device.type != "cuda":
        raise UsageError(f"--cuda-graphs needs a CUDA device, not --device {device}")
    limit = model_config.context_length
    P, N = prompt_len, args.max_new_tokens
    if P + N > limit:
        fix = "shorten the prompt" if P >= limit else f"pass --max-new-tokens {limit - P} or less"
        where = "max_position_embeddings" if limit == model_config.max_position_embeddings else ""
        source = "the GGUF metadata" if path.is_file() else "config.json"
        raise UsageError(
            f"prompt ({P} tokens) + --max-new-tokens {N} = {P + N} exceed the model's {limit} "
            f"positions ({where or 'its RoPE scaling'} in {source}); {fix}"
        )
    try:
        return load(_dtype(args.dtype, stored, device), device)
    except (FileNotFoundError, ValueError) as error:
        raise UsageError(str(error)) from error


def _checkpoint_prompt(folder: Path, args: argparse.Namespace) -> tuple:
    """(tokenizer, prompt ids, EOS ids, ModelConfig, loader, stored dtype) of a Hugging Face
    checkpoint folder; config.json is read once."""
    from .checkpoint import load_checkpoint, read_config_json
    from .hf_config import stored_dtype

    if not folder.is_dir():
        raise UsageError(
            f"{folder}: no such folder; PATH is a Hugging Face checkpoint folder or a .gguf file"
        )
    for name in ("config.json", "tokenizer.json"):
        if not (folder / name).is_file():
            raise UsageError(
                f"{folder / name} not found; the checkpoint folder needs config.json, "
                "tokenizer.json and *.safetensors (download them together)"
            )
    try:
        config, model_config = read_config_json(folder)
        stored = stored_dtype(config)
    except (KeyError, ValueError) as error:  # JSONDecodeError is a ValueError
        raise UsageError(f"{folder / 'config.json'}: {error}") from error
    tokenizer, prompt_ids, stop = _prompt(folder, config, args)
    load = functools.partial(load_checkpoint, folder, model_config)
    return tokenizer, prompt_ids, stop, model_config, load, stored


def _generate(args: argparse.Namespace) -> int:
    import torch

    if args.max_new_tokens < 1:
        raise UsageError(f"--max-new-tokens {args.max_new_tokens}: must be at least 1")
    if args.top_k is not None and args.top_k < 1:
        raise UsageError(f"--top-k {args.top_k}: must be at least 1")
    path = Path(args.path)
    if path.is_file() and path.suffix == ".gguf":
        tokenizer, prompt_ids, stop, model_config, load = _gguf_prompt(path, args)
        # auto: GGUF weights are quantized; bfloat16 on a GPU, float32 on CPU (see _dtype)
        stored = torch.bfloat16
    else:
        tokenizer, prompt_ids, stop, model_config, load, stored = _checkpoint_prompt(path, args)
    model = _model(path, model_config, stored, load, args, len(prompt_ids))
    _stream(model, tokenizer, prompt_ids, stop, args)
    return 0


def _stream(model, tokenizer, prompt_ids: list[int], stop: list[int], args) -> None:
    """Generate, writing the text to stdout as it comes and the timing line to stderr."""
    import torch

    import llmkit

    device = model.lm_head.weight.device
    stream, times = TextStream(tokenizer, sys.stdout), []

    def on_token(tokens) -> None:
        token = int(tokens[0])  # waits for the device: the time is when the token exists
        times.append(time.perf_counter())
        stream.stopped = stream.stopped or token in stop
        if not stream.stopped:
            stream.add(token)

    compile_mode = "reduce-overhead" if args.cuda_graphs else args.compile
    generator = None if args.seed is None else torch.Generator(device).manual_seed(args.seed)
    input_ids = torch.tensor([prompt_ids], dtype=torch.long, device=device)
    start = time.perf_counter()
    llmkit.generate(
        model,
        input_ids,
        args.max_new_tokens,
        temperature=args.temperature,
        top_k=args.top_k,
        generator=generator,
        eos_token_id=stop or None,
        on_token=on_token,
        compile=compile_mode,
    )
    total = time.perf_counter() - start
    stream.finish()
    print(flush=True)
    print(_timing(times, start, total, len(prompt_ids), compile_mode), file=sys.stderr)


def _timing(times: list[float], start: float, total: float, prompt_len: int, compiled) -> str:
    """The stderr line: tokens, rate, decode rate after the warm-up steps, prefill time."""
    n = len(times)  # every token the model produced, the EOS included
    rate = f"{n / total:.1f} tok/s"
    # Decode rate: the steps after the first token (the prefill's), and after the first two
    # compiled steps, which compile (and record the CUDA graph) instead of measuring speed.
    warm = 3 if compiled else 1
    if n > warm and times[-1] > times[warm - 1]:
        rate += f", decode {(n - warm) / (times[-1] - times[warm - 1]):.1f} tok/s"
        if compiled:
            rate += f" after {warm - 1} compiling steps of {times[warm - 1] - times[0]:.2f} s"
    prefill = times[0] - start
    return (
        f"llmkit: {n} tokens in {total:.2f} s ({rate}); prompt {prompt_len} tokens, "
        f"prefill {prefill:.2f} s"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m llmkit", description="llmkit command line")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    gen = commands.add_parser(
        "generate",
        help="stream a checkpoint's continuation of a prompt",
        description="Stream what a local Hugging Face checkpoint or GGUF file writes after PROMPT. stdout: the "
        "generated text (the EOS token not included) and one newline; stderr: a timing line.",
    )
    # fmt: off
    add = gen.add_argument
    add("path", metavar="PATH",
        help="checkpoint folder (config.json, safetensors, tokenizer.json) or a .gguf file")
    add("prompt", metavar="PROMPT", help="the user message (raw text with --no-chat)")
    add("--max-new-tokens", type=int, default=128, metavar="N", help="at most N (default 128)")
    add("--device", help="cpu, cuda, cuda:1, ... (default: cuda if available, else cpu)")
    add("--dtype", choices=("auto", "float32", "bfloat16", "float16"), default="auto",
        help="auto (default): the checkpoint's dtype, except that bfloat16/float16 "
        "checkpoints run in float32 on CPU (half-precision matmuls are slow there)")
    add("--compile", action="store_true", help="torch.compile the decode step")
    add("--cuda-graphs", action="store_true", help="compile it with CUDA graphs (reduce-overhead)")
    add("--temperature", type=float, default=0.0, help="0 = greedy (default); T > 0 samples")
    add("--top-k", type=int, metavar="K", help="sample among the K likeliest tokens only")
    add("--seed", type=int, help="seed for reproducible sampling")
    add("--no-chat", action="store_true",
        help="encode PROMPT as raw text (with special tokens), not through the chat template")
    # fmt: on
    gen.set_defaults(func=_generate)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command; returns the exit status (2 for a usage error, printed as one line)."""
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UsageError as error:
        print(f"llmkit: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C mid-stream: end the line, no traceback
        print(file=sys.stderr)
        return 130

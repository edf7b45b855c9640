"""Loading a Hugging Face checkpoint folder (`config.json` + `*.safetensors`) into llmkit:
Llama 2/3/3.1/3.2, Qwen2/2.5 (q/k/v biases), Qwen3 (per-head q/k RMSNorm) and Mistral (sliding
window), each a configuration of the same blocks.

The model is built on the `meta` device (no memory, no random init), the weights are read straight
into their final dtype and device and assigned (no float32 or second copy), and the RoPE tables,
which no checkpoint holds, are computed on that device. A config option llmkit does not model is
refused by name instead of being silently ignored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import torch

from .config import ROPE_SCALINGS, ModelConfig
from .hf import hf_to_llmkit_state_dict
from .model import Transformer

__all__ = [
    "as_dtype",
    "config_from_json",
    "from_pretrained",
    "load_checkpoint",
    "read_config_json",
    "read_safetensors",
    "stored_dtype",
]

# What a Llama-family config.json may say that llmkit models exactly (value: what is accepted).
_ACCEPTED = {
    "model_type": ("llama", "qwen2", "qwen3", "mistral"),
    "hidden_act": ("silu",),
    "attention_bias": (False, None),
    "mlp_bias": (False, None),
    "pretraining_tp": (1, None),
    "attention_dropout": (0, 0.0, None),
    "use_sliding_window": (False, None),
}


def _rope(data: dict) -> tuple[float, dict | None]:
    """(theta, llmkit rope_scaling) from either the old (`rope_theta`, `rope_scaling`) or the new
    (`rope_parameters`) layout; refuses scalings llmkit does not implement with HF's semantics."""
    params = dict(data.get("rope_parameters") or {})
    theta = float(params.get("rope_theta", data.get("rope_theta", 10000.0)))
    scaling = data.get("rope_scaling") or params
    kind = scaling.get("rope_type", scaling.get("type", "default")) if scaling else "default"
    # "ntk" is llmkit's own static NTK-aware scaling: Hugging Face has no such rope_type
    supported = [name for name in ROPE_SCALINGS if name != "ntk"]
    if kind == "default":
        return theta, None
    if kind not in supported:
        raise ValueError(
            f"config.json: rope_type {kind!r} is not supported by llmkit (supported: default, "
            f"{', '.join(supported)}); loading it would give wrong logits"
        )
    if kind != "yarn":
        return theta, {"type": kind, **{key: scaling[key] for key in ROPE_SCALINGS[kind]}}
    unknown = set(scaling) - _YARN_KEYS
    if unknown:
        raise ValueError(
            f"config.json: rope option(s) {sorted(unknown)} of rope_type 'yarn' are not "
            "supported by llmkit"
        )
    original = (
        data.get("original_max_position_embeddings")  # Phi-3 style, outside the rope dict
        or scaling.get("original_max_position_embeddings")
        or data["max_position_embeddings"]
    )
    factor = scaling.get("factor") or data["max_position_embeddings"] / original
    options = {key: scaling[key] for key in _YARN_KEYS if scaling.get(key) is not None}
    options.update(factor=float(factor), original_max_position_embeddings=original)
    return theta, {**options, "type": "yarn"}


_YARN_KEYS = {
    "rope_type",
    "type",
    "rope_theta",
    "factor",
    "original_max_position_embeddings",
    "beta_fast",
    "beta_slow",
    "attention_factor",
    "mscale",
    "mscale_all_dim",
    "truncate",
}


def config_from_json(data: dict) -> ModelConfig:
    """A ModelConfig from a Llama config.json; ValueError naming any option llmkit does not model."""
    for name, accepted in _ACCEPTED.items():
        if name in data and data[name] not in accepted:
            raise ValueError(
                f"config.json: {name}={data[name]!r} is not supported by llmkit "
                f"(supported: {', '.join(repr(a) for a in accepted if a is not None)})"
            )
    theta, scaling = _rope(data)
    if (
        data.get("partial_rotary_factor", 1.0) != 1.0
        or (scaling or {}).get("partial_rotary_factor", 1.0) != 1.0
    ):
        raise ValueError("config.json: partial_rotary_factor != 1 is not supported by llmkit")
    # Mistral slides its window in every layer; Qwen's optional window is refused above.
    window = data.get("sliding_window") if data.get("model_type") == "mistral" else None
    layer_types = set(data.get("layer_types") or ["full_attention"])
    if layer_types != {"full_attention"}:
        raise ValueError(
            f"config.json: layer_types={sorted(layer_types)!r} is not supported by llmkit "
            "(supported: 'full_attention' in every layer)"
        )
    heads = data["num_attention_heads"]
    return ModelConfig(
        vocab_size=data["vocab_size"],
        hidden_size=data["hidden_size"],
        intermediate_size=data["intermediate_size"],
        num_hidden_layers=data["num_hidden_layers"],
        num_attention_heads=heads,
        num_key_value_heads=data.get("num_key_value_heads") or heads,
        head_dim=data.get("head_dim"),
        rms_norm_eps=float(data.get("rms_norm_eps", 1e-6)),
        rope_theta=theta,
        rope_scaling=scaling,
        max_position_embeddings=data.get("max_position_embeddings", 2048),
        tie_word_embeddings=bool(data.get("tie_word_embeddings", False)),
        qkv_bias=data.get("model_type") == "qwen2",  # Qwen2 always has q/k/v biases
        qk_norm=data.get("model_type") == "qwen3",  # Qwen3 always normalises q and k per head
        sliding_window=window,
    )


def _weight_files(folder: Path) -> list[Path]:
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        return [folder / name for name in sorted(set(weight_map.values()))]
    single = folder / "model.safetensors"
    if single.is_file():
        return [single]
    raise FileNotFoundError(
        f"{folder}: no model.safetensors or model.safetensors.index.json (only safetensors "
        "checkpoints are read)"
    )


def as_dtype(dtype: torch.dtype | str) -> torch.dtype:
    """A torch.dtype from itself or its name ("bfloat16", "torch.bfloat16")."""
    if isinstance(dtype, torch.dtype):
        return dtype
    found = getattr(torch, str(dtype).removeprefix("torch."), None)
    if not isinstance(found, torch.dtype):
        raise ValueError(f"{dtype!r} is not a torch dtype")
    return found


def stored_dtype(data: dict) -> torch.dtype:
    """The dtype config.json says the weights are stored in (`dtype`, formerly `torch_dtype`;
    float32 when it says neither)."""
    return as_dtype(data.get("dtype") or data.get("torch_dtype") or "float32")


def read_config_json(folder: str | Path) -> tuple[dict, ModelConfig]:
    """(config.json as read, its ModelConfig): a checkpoint folder's config, parsed once."""
    data = json.loads((Path(folder) / "config.json").read_text(encoding="utf-8"))
    return data, config_from_json(data)


_SAFETENSORS_DTYPES = {
    "F64": torch.float64,
    "F32": torch.float32,
    "F16": torch.float16,
    "BF16": torch.bfloat16,
    "I64": torch.int64,
    "I32": torch.int32,
    "I16": torch.int16,
    "I8": torch.int8,
    "U8": torch.uint8,
    "BOOL": torch.bool,
}


def read_safetensors(
    file: Path, dtype: torch.dtype, device: torch.device
) -> Iterator[tuple[str, torch.Tensor]]:
    """(name, tensor) for each tensor of a .safetensors file, floating ones cast to `dtype`, on
    `device`, one at a time. Plain reads into the tensor's own memory, no mmap: the file's pages
    never count as this process's memory, and a tensor already in its final dtype is not copied.
    Format: 8-byte little-endian header length, a JSON header (dtype, shape, data_offsets per
    tensor), then the raw little-endian data."""
    with open(file, "rb") as handle:
        length = int.from_bytes(handle.read(8), "little")
        header = json.loads(handle.read(length))
        header.pop("__metadata__", None)
        for name, info in sorted(header.items(), key=lambda item: item[1]["data_offsets"][0]):
            if info["dtype"] not in _SAFETENSORS_DTYPES:
                raise ValueError(f"{file}: tensor {name!r} has dtype {info['dtype']}, not read")
            start, end = info["data_offsets"]
            raw = torch.empty(end - start, dtype=torch.uint8)
            handle.seek(8 + length + start)
            if handle.readinto(raw.numpy()) != end - start:
                raise ValueError(f"{file}: truncated (tensor {name!r})")
            tensor = raw.view(_SAFETENSORS_DTYPES[info["dtype"]]).reshape(info["shape"])
            if tensor.is_floating_point():
                tensor = tensor.to(dtype)
            yield name, tensor.to(device)


def from_pretrained(
    path: str | Path, *, dtype: torch.dtype | str | None = None, device: torch.device | str = "cpu"
) -> Transformer:
    """The llmkit Transformer of a local Hugging Face Llama checkpoint folder, or of a `.gguf`
    file (llmkit.gguf), in eval mode.

    dtype: default the checkpoint's own (`dtype` / `torch_dtype` in config.json); float32 for a
    GGUF file, whose quantized tensors have no torch dtype.
    """
    folder = Path(path)
    if folder.is_file() and folder.suffix == ".gguf":
        from .gguf import from_gguf

        return from_gguf(folder, dtype=dtype, device=device)
    data, config = read_config_json(folder)
    dtype = stored_dtype(data) if dtype is None else as_dtype(dtype)
    return load_checkpoint(folder, config, dtype, torch.device(device))


def load_checkpoint(
    folder: Path, config: ModelConfig, dtype: torch.dtype, device: torch.device
) -> Transformer:
    """The weights of a checkpoint folder whose config.json was already read into `config`."""
    with torch.device("meta"):
        model = Transformer(config)
    state: dict[str, torch.Tensor] = {}
    for file in _weight_files(Path(folder)):
        # One tensor at a time: the peak is the weights in their final dtype plus one tensor.
        state.update(read_safetensors(file, dtype, device))
    return load_hf_state(model, state, device)


def load_hf_state(
    model: Transformer, state: dict[str, torch.Tensor], device: torch.device
) -> Transformer:
    """`model` (built on `meta`) with the Hugging Face-named weights of `state` put in place."""
    config = model.config
    renamed = hf_to_llmkit_state_dict(state)
    if config.tie_word_embeddings:
        renamed["lm_head.weight"] = renamed["embed.weight"]
    model.load_state_dict(renamed, strict=True, assign=True)
    if config.tie_word_embeddings:
        model.lm_head.weight = model.embed.weight  # one parameter again, as built
    model.rope.reset_tables(device)
    return model.eval()

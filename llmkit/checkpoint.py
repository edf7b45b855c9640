"""Loading a Hugging Face checkpoint folder (`config.json` + `*.safetensors`) into llmkit:
Llama 2/3/3.1/3.2, Qwen2/2.5 (q/k/v biases), Qwen3 (per-head q/k RMSNorm) and Mistral (sliding
window), each a configuration of the same blocks.

The model is built on the `meta` device (no memory, no random init), the weights are read straight
into their final dtype and device and assigned (no float32 or second copy), and the RoPE tables,
which no checkpoint holds, are computed on that device. A config option llmkit does not model is
refused by name (llmkit.hf_config).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import torch

from .config import ModelConfig
from .gguf import from_gguf
from .hf import load_hf_state
from .hf_config import as_dtype, config_from_json, stored_dtype
from .model import Transformer

__all__ = ["from_pretrained", "load_checkpoint", "read_config_json", "read_safetensors"]


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

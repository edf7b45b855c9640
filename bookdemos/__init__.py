"""The interactive demos of this book (`:::demo ID TITLE`), registered by mkdocs.yml's llmbook
option `demos: [bookdemos]`.

The build imports this module to learn the demos' IDs: it imports nothing else (no torch), so
validating a page stays cheap. A demo's own module, named in `DEMOS` as `module:Class`, is imported
only when a page renders that demo and its frame is not in the cache. Each demo draws with the
plugin's kit (`llmbook.demos`: svg, controls, layout) and computes with llmkit; its widget script is
`assets/<ID>.js`, which the build ships with `assets/demos.css`.
"""

from __future__ import annotations

__all__ = ["ASSETS", "DEMOS", "DEPENDS"]

# Each demo's ID (as pages write it) and the class that draws it.
DEMOS = {
    "kv-cache": "bookdemos.kv_cache:KVCacheDemo",
    "mha-gqa": "bookdemos.mha_gqa:MHAGQADemo",
    "norm-compare": "bookdemos.norm_compare:NormCompareDemo",
    "pre-post-norm": "bookdemos.pre_post_norm:PrePostNormDemo",
    "rope": "bookdemos.rope:RopeDemo",
    "swiglu": "bookdemos.swiglu:SwiGLUDemo",
}
# What the demos compute with: a change of any of them draws their frames again (the source of
# this package is keyed as well).
DEPENDS = ("llmkit", "torch")
# The folder of the demos' scripts and styles, beside this file: shipped into the site.
ASSETS = "assets"

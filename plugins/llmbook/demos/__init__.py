"""The registry of demos that `:::demo ID TITLE` embeds.

A demo is a static figure computed at build time by llmkit (the reading and printing version) plus an
interactive widget in plain JavaScript shipped with the plugin. Each demo lives in its own module,
named in `catalog.MODULES` (so IDs are known without importing torch), and registers itself with
`@register` when imported. Rendered frames are kept on disk by `cache.DemoCache`.
"""

from __future__ import annotations

from llmbook.demos.base import Demo, get_demo, known_ids, register

__all__ = ["Demo", "get_demo", "known_ids", "register"]

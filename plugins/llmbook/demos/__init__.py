"""The registry of demos that `:::demo ID TITLE` embeds.

A demo is a static figure computed at build time by llmkit (the reading and printing version) plus an
interactive widget. Each demo lives in its own module, found by `catalog.MODULES` from its source (so
IDs are known without importing torch), and registers itself with `@register` when imported. Rendered frames are
kept on disk by `cache.DemoCache`.

Everything is drawn once, in Python: the figure, and the widget's stage in its first state
(`controls.stage`, what a reader without JavaScript sees). The widget's script,
`assets/demos/<ID>.js`, only reads: the inputs, the data Python embedded (`data-role="config"`),
the plot's map (`data-plot`); it moves the marks Python drew (`data-mark`) and paints with the
`--llmbook-c-*` colours of `svg.COLORS`. A demo writes in the page's language: every word it shows
is in its module's `TEXT` table (zh and en), and the words its script writes travel in
`data-text-*` attributes (`controls.texts`). Adding a demo: its module and its small script.
"""

from __future__ import annotations

from llmbook.demos.base import Demo, DemoNeeds, get_demo, known_ids, register

__all__ = ["Demo", "DemoNeeds", "get_demo", "known_ids", "register"]

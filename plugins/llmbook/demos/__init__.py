"""The `:::demo ID TITLE` mechanism: a demo is a static figure computed at build time (the
reading and printing version) plus an interactive widget. The plugin holds no demo of its own: a
book registers its demos through the llmbook option `demos` (`catalog.DemoCatalog`: IDs known
without importing any demo), and the build keeps their rendered frames (`cache.DemoFrames`).

Everything is drawn once, in Python, with this package's kit: the figure (`svg`, `layout`), and
the widget's stage in its first state (`controls.stage`, what a reader without JavaScript sees).
The widget's script, which the book ships beside its demos (its `ASSETS`), only reads: the inputs,
the data Python embedded (`data-role="config"`), the plot's map (`data-plot`); it moves the marks
Python drew (`data-mark`) and paints with the `--llmbook-c-*` colours of `svg.COLORS`, starting
through the plugin's `assets/demos/kit.js`. A demo writes in the page's language: every word it
shows is in its class's `TEXT` table, and the words its script writes travel in `data-text-*`
attributes (`controls.texts`).
"""

from __future__ import annotations

from llmbook.demos.base import Demo, DemoError, DemoNeeds
from llmbook.demos.cache import DemoFrames
from llmbook.demos.catalog import DemoCatalog, DemoEntry

__all__ = ["Demo", "DemoCatalog", "DemoEntry", "DemoError", "DemoFrames", "DemoNeeds"]

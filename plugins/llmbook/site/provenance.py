"""The record of what computed each executed page, shown to readers: a folded panel at the page's
end (added per build, outside the render cache, so that a warm build's page says its results came
from the cache) and `provenance.json` beside the pages, which the editions' colophon reads
(editions/colophon.py).

Two builds of the same book differ in the panels and `provenance.json` only: when the results
were computed, how long the page ran, and whether this build took them from its cache.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path
from typing import Any

from llmbook.core.i18n import Locale
from llmbook.editions.colophon import PROVENANCE_FILE
from llmbook.execute.stages.executor import Executor
from llmbook.execute.stages.provenance import Record
from llmbook.execute.stages.report import Report

__all__ = [
    "PANEL",
    "ProvenanceLog",
    "entry",
    "page_entry",
    "panel",
]

# The panel as it lies in a built page (tests mask it to compare two builds' pages).
PANEL = re.compile(r'<details class="[^"]*\bllmbook-provenance\b[^"]*".*?</details>\n?', re.S)


def entry(record: Record, *, seed: int, cached: bool) -> dict[str, Any]:
    """A page's record as `provenance.json` holds it."""
    data = asdict(record)
    del data["modules"]  # the build's working: the distributions are what a reader can install
    return {**data, "seed": seed, "cached": cached}


def page_entry(report: Report, executor: Executor, src: str) -> dict[str, Any] | None:
    """The record of page `src` as this build got it (None: no code of its ran)."""
    plan = report.plans.get(src)
    if plan is None or plan.result is None or plan.result.record is None:
        return None
    companion = executor.companion
    ran = companion.runs(src) if companion is not None else src  # a translation's: its source's
    return entry(plan.result.record, seed=executor.spec.seed, cached=ran not in executor.executed)


def panel(data: Mapping[str, Any], locale: Locale) -> str:
    """The folded panel (Material's `details`) listing `entry`'s record in the page's words."""

    def item(key: str, **fields: object) -> str:
        escaped = {k: html.escape(str(v)) for k, v in fields.items()}
        return f"<li>{locale.ui(key, **escaped)}</li>"

    packages = locale.ui("list_join").join(
        f"<code>{html.escape(name)} {html.escape(v)}</code>"
        for name, v in data["distributions"].items()
    )
    when = _when(str(data["computed"]))
    rows = [
        item("provenance_python", python=data["python"], platform=data["platform"]),
        f"<li>{locale.ui('provenance_packages')} {packages}</li>" if packages else "",
        item("provenance_seed", seed=data["seed"]),
        item("provenance_seconds", seconds=f"{float(data['seconds']):.2f}"),
        item("provenance_cached" if data["cached"] else "provenance_ran", when=when),
    ]
    return (
        '<details class="info llmbook-provenance">\n'
        f"<summary>{html.escape(locale.ui('provenance_title'))}</summary>\n"
        f"<ul>\n{''.join(row + chr(10) for row in rows if row)}</ul>\n</details>\n"
    )


def _when(computed: str) -> str:
    """`2026-12-05T03:32:15Z` as `2026-12-05 03:32 UTC`."""
    return computed.replace("T", " ")[:16] + " UTC" if computed.endswith("Z") else computed


class ProvenanceLog:
    """The records of the pages this build rendered, by their site path, for `provenance.json`."""

    def __init__(self) -> None:
        self.pages: dict[str, dict[str, Any]] = {}

    def add(self, site_path: str, src: str, data: Mapping[str, Any]) -> None:
        self.pages[site_path] = {"src": src, **data}

    def write(self, site_dir: Path) -> None:
        """`provenance.json` at the site's root: every executed page's record, by its path."""
        if not self.pages:
            return
        text = json.dumps(dict(sorted(self.pages.items())), ensure_ascii=False, indent=1)
        (site_dir / PROVENANCE_FILE).write_text(text + "\n", encoding="utf-8")

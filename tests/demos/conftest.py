"""Fixtures for the demo tests: every demo rendered once per session, and its embedded grid."""

from __future__ import annotations

import pytest
from demo_helpers import json_blocks
from llmbook.demos import get_demo, known_ids


@pytest.fixture(scope="session")
def rendered() -> dict[str, dict[str, str]]:
    """Every demo's figure and widget markup, rendered once per session."""
    out = {}
    for demo_id in known_ids():
        demo = get_demo(demo_id)
        out[demo_id] = {"figure": demo.figure_svg(), "widget": demo.widget_html()}
    return out


@pytest.fixture(scope="session")
def grids(rendered: dict[str, dict[str, str]]) -> dict[str, dict]:
    return {i: json_blocks(r["widget"])["grid"] for i, r in rendered.items()}

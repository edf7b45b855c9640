"""Shared helpers for the demo tests: render each demo once, pull its grid and config JSON out."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET

import pytest

from llmbook.demos import get_demo, known_ids

IDS = ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
_SCRIPT = re.compile(r'<script type="application/json" data-role="(\w+)">(.*?)</script>', re.S)


def json_blocks(markup: str) -> dict[str, object]:
    return {role: json.loads(text) for role, text in _SCRIPT.findall(markup)}


def parse_svg(markup: str) -> ET.Element:
    return ET.fromstring(markup)


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


def unescape_text(svg: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", svg))

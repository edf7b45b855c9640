"""Helpers for the demo tests (a unique module name: several test folders have a conftest.py)."""

from __future__ import annotations

import html
import json
import re
import xml.etree.ElementTree as ET

IDS = ["kv-cache", "mha-gqa", "rope", "norm-compare", "pre-post-norm", "swiglu"]
_SCRIPT = re.compile(r'<script type="application/json" data-role="(\w+)">(.*?)</script>', re.S)


def json_blocks(markup: str) -> dict[str, object]:
    return {role: json.loads(text) for role, text in _SCRIPT.findall(markup)}


def parse_svg(markup: str) -> ET.Element:
    return ET.fromstring(markup)


def unescape_text(svg: str) -> str:
    """The figure's visible text, tags removed and entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", " ", svg))


def layouts(figure: str) -> tuple[str, str]:
    """A demo figure's wide drawing and its phone panels (demos/layout.py), as markup."""
    wide, narrow = figure.split('<div class="llmbook-demo__narrow">')
    return wide, narrow

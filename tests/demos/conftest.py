"""Fixtures for the demo tests: every demo rendered once per test run, and its embedded grid."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from demo_helpers import BOOK, get_demo, json_blocks
from sites import once_per_run


def _render_all(folder: Path, language: str = "zh") -> Path:
    out = {}
    for demo_id in BOOK.known_ids():
        demo = get_demo(demo_id, language)
        out[demo_id] = {"figure": demo.figure_svg(), "widget": demo.widget_html()}
    path = folder / "rendered.json"
    path.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """Every demo's figure and widget markup (Chinese, the book's language), rendered once per
    test run (the workers share it: rendering runs llmkit and takes seconds)."""
    path = once_per_run(tmp_path_factory, "demos-rendered", _render_all)
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def rendered_en(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, str]]:
    """The same in English, as the English edition renders them."""
    path = once_per_run(
        tmp_path_factory, "demos-rendered-en", lambda folder: _render_all(folder, "en")
    )
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def grids(rendered: dict[str, dict[str, str]]) -> dict[str, dict]:
    return {i: json_blocks(r["widget"])["grid"] for i, r in rendered.items()}

"""Fixtures for the directive tests (helpers live in directive_helpers.py)."""

from __future__ import annotations

from typing import Any

import pytest
from directive_helpers import _CONFIGS, fake_demo_frames, render_page
from llmbook.demos import DemoFrames


@pytest.fixture
def fake_demos() -> DemoFrames:
    """The tests' own demos (directive_helpers.DEMOS), loaded as a build loads a book's."""
    return fake_demo_frames()


@pytest.fixture
def mdx_configs() -> dict[str, dict[str, Any]]:
    return _CONFIGS


@pytest.fixture
def render():
    return render_page

"""Fixtures for the directive tests (helpers live in directive_helpers.py)."""

from __future__ import annotations

from typing import Any

import llmbook.demos
import pytest
from directive_helpers import _CONFIGS, FakeDemo, render_page
from llmbook.demos import Demo


@pytest.fixture
def fake_demos(monkeypatch: pytest.MonkeyPatch) -> dict[str, type[Demo]]:
    """A demo registry of our own, so these tests do not depend on the real catalog."""
    registry: dict[str, type[Demo]] = {"test-demo": FakeDemo}
    monkeypatch.setattr(
        llmbook.demos,
        "get_demo",
        lambda demo_id, language="zh": registry[demo_id](language) if demo_id in registry else None,
    )
    monkeypatch.setattr(llmbook.demos, "known_ids", lambda: sorted(registry))
    return registry


@pytest.fixture
def mdx_configs() -> dict[str, dict[str, Any]]:
    return _CONFIGS


@pytest.fixture
def render():
    return render_page

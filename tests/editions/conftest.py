"""The project's editions, made by the shared project build (tests/sites.py `build_project_site`):
`editions` gives (site folder, dist folder)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sites import project_site


@pytest.fixture(scope="session")
def editions(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    site = project_site(tmp_path_factory)
    return site, site.parent / "dist"

"""Build a site for a test: the project's own, or a small one from given pages on the project's config.

Each build runs `mkdocs build --strict` in a subprocess from the project root (jieba's user
dictionary path is relative to it, and jieba's state is global), with the execution cache off.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

__all__ = ["ROOT", "build_project_site", "build_site"]

ROOT = Path(__file__).resolve().parents[2]


def _run_mkdocs(config_file: Path, site_dir: Path) -> None:
    env = {**os.environ, "LLMBOOK_CACHE": "0", "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config_file), "-d", str(site_dir)]
    result = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"mkdocs build failed ({config_file}):\n{result.stdout}\n{result.stderr}")


def build_project_site(site_dir: Path) -> Path:
    """The project's site (mkdocs.yml as is) built into `site_dir`."""
    _run_mkdocs(ROOT / "mkdocs.yml", site_dir)
    return site_dir


def build_site(
    root: Path, pages: dict[str, str], *, nav: list | None = None, extra: dict | None = None
) -> Path:
    """A site of `pages` ({"a/b.md": markdown}) on the project's mkdocs.yml; returns its site/ dir."""
    docs = root / "docs"
    for rel, text in pages.items():
        (docs / rel).parent.mkdir(parents=True, exist_ok=True)
        (docs / rel).write_text(text, encoding="utf-8")
    # INHERIT merges mappings and replaces lists: only these keys change.
    config = {"INHERIT": str(ROOT / "mkdocs.yml"), "docs_dir": str(docs)}
    config["nav"] = nav if nav is not None else [{Path(p).stem: p} for p in pages]
    config.update(extra or {})
    config_file = root / "mkdocs.yml"
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    site_dir = root / "site"
    _run_mkdocs(config_file, site_dir)
    return site_dir

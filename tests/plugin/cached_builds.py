"""A MkDocs build in its own process with the cache on (in `root/cache`), running a script that
builds `root/mkdocs.yml` into `root/<site>` and prints what it observed."""

from __future__ import annotations

from pathlib import Path

from sites import ROOT, Built, build

__all__ = ["ROOT", "cached_build"]


def cached_build(script: str, root: Path, site: str) -> Built:
    # A fresh process per build: what one build leaves in memory must not help the next.
    done = build(
        root / "mkdocs.yml", site=root / site, script=script, cache=root / "cache", cwd=ROOT
    )
    return done.ok()

"""A MkDocs build with the cache on (in `root/cache`) of `root/mkdocs.yml` into `root/<site>`: in its
own process, running a script that builds and prints what it observed (`cached_build`), or, for a
first build, in this process with its log kept as those scripts print it (`first_build_here`)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sites import ROOT, Built, build

__all__ = ["ROOT", "cached_build", "first_build_here"]


def cached_build(script: str, root: Path, site: str) -> Built:
    # A fresh process per build: what one build leaves in memory must not help the next.
    done = build(
        root / "mkdocs.yml", site=root / site, script=script, cache=root / "cache", cwd=ROOT
    )
    return done.ok()


def first_build_here(root: Path, site: str) -> tuple[Built, str]:
    """`cached_build`'s build in this process, and its log: for a site's first build, which no
    cache can help yet (the builds after it, which read the cache, run in their own process)."""
    log = io.StringIO()
    with _log_to(log):
        done = build(
            root / "mkdocs.yml", site=root / site, in_process=True, cache=root / "cache", cwd=ROOT
        )
    return done, log.getvalue()


@contextmanager
def _log_to(stream: io.StringIO) -> Iterator[None]:
    """Every record of INFO and above into `stream`, as the scripts' logging.basicConfig writes."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(level)

"""A MkDocs build in its own process with the cache on (in `root/cache`), running a script that
builds `root/mkdocs.yml` into `root/<site>` and prints what it observed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cached_build(script: str, root: Path, site: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LLMBOOK_CACHE_DIR": str(root / "cache"), "NO_MKDOCS_2_WARNING": "1"}
    env.pop("LLMBOOK_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", script, str(root / "mkdocs.yml"), str(root / site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done

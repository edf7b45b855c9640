"""Every notebook the book's build writes, re-run by Jupyter: for each executed page of both
editions (zh in site/, en in site/en/), its notebook executed top to bottom by nbclient with a
real ipykernel from the notebook's folder (tests/notebooks/rerun.py), and its text outputs
compared with the build's. Reports per page: cells, code cells, code cells re-run equal, cells
that raised, each difference left (cut to 300 characters), the notebook's bytes; and the bytes
all notebooks take in site/, and those the Markdown pages' notebooks add. Writes benchmarks/results/notebook_rerun.json.

    python benchmarks/notebook_rerun.py [--site PATH]   # PATH: a site built with its en/ edition;
                                                        # without, both editions are built first
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "plugins"), str(ROOT / "tests")]

from notebooks.rerun import rerun  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results" / "notebook_rerun.json"


def build_sites(site: Path) -> None:
    """The project's two editions (no PDF or EPUB), as tests/sites.py builds them."""
    env = {**os.environ, "OMP_NUM_THREADS": "1", "NO_MKDOCS_2_WARNING": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "plugins"), str(ROOT)])
    for config, target in (("mkdocs.yml", site), ("mkdocs.en.yml", site / "en")):
        argv = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", config, "-d"]
        subprocess.run([*argv, str(target)], cwd=ROOT, env=env, check=True)


def _cut(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 300 else text[:300] + "…"


def measure(site: Path) -> dict:
    pages = []
    for path in sorted(site.rglob("*.ipynb")):
        rel = path.relative_to(site).as_posix()
        first = json.loads(path.read_text(encoding="utf-8"))["cells"][:1]
        made = any("llmbook-setup" in c.get("metadata", {}).get("tags", []) for c in first)
        started = time.perf_counter()
        found = rerun(path)
        pages.append({
            "notebook": rel,
            "edition": "en" if rel.startswith("en/") else "zh",
            # a Markdown page's notebook (page_notebook.py), or a notebook page's download
            "kind": "markdown page" if made else "notebook page",
            "cells": found.cells,
            "code_cells": found.code_cells,
            "equal": found.equal,
            "raised": found.failed,
            "differences": [
                {"cell": cell, "part": part, "stored": _cut(stored), "rerun": _cut(got)}
                for cell, part, stored, got in found.differences
            ],
            "bytes": path.stat().st_size,
            "seconds": round(time.perf_counter() - started, 1),
        })  # fmt: skip
        print(f"{rel}: {found.equal}/{found.code_cells} code cells equal, "
              f"{len(found.differences)} differences, raised in {found.failed}")  # fmt: skip
    site_bytes = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    notebook_bytes = sum(page["bytes"] for page in pages)
    added = sum(page["bytes"] for page in pages if page["kind"] == "markdown page")
    return {
        "pages": pages,
        "notebook_bytes": notebook_bytes,
        "added_bytes": added,  # what the Markdown pages' notebooks add (notebook pages had one)
        "site_bytes": site_bytes,
        "notebook_share": round(notebook_bytes / site_bytes, 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (with en/); default: build one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        site = args.site
        if site is None:
            site = Path(scratch) / "site"
            build_sites(site)
        report = measure(site.resolve())
    RESULTS.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"notebooks: {report['notebook_bytes']:,} bytes of {report['site_bytes']:,} in site/, "
          f"{report['added_bytes']:,} of them the Markdown pages'")  # fmt: skip


if __name__ == "__main__":
    main()

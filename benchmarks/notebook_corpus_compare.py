"""llmbook beside mkdocs-jupyter on IPython's example notebooks (tests/notebooks/errors_corpus.py),
a collection whose cells raise: per notebook, the code cells with stored outputs and how many of
them each tool's page shows whole (outputs.cells_shown, as tests/notebooks/test_errors_corpus.py
counts them), the raising cells llmbook's strict build names and the errors its allowing build
shows; and each tool's cold build of the whole collection (no cache: LLMBOOK_CACHE=0,
mkdocs-jupyter's `cache: false`). A measurement: it never fails.

mkdocs-jupyter runs from its own virtual environment (its kernel imports what the notebooks do):

    python3 -m venv /tmp/mkj
    /tmp/mkj/bin/pip install mkdocs-jupyter==0.26.3 mkdocs-material==9.8.2 ipykernel==7.4.0 \
        ipython==9.18.1 numpy==2.4.6 matplotlib==3.11.2 sympy==1.14.0 pandas==3.1.1
    LLMBOOK_MKDOCS_JUPYTER_VENV=/tmp/mkj python benchmarks/notebook_corpus_compare.py

Results in benchmarks/results/errors_corpus.json, and printed as a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]
from compare_mkdocs_jupyter import QUIET, VENV  # noqa: E402
from notebooks.errors_corpus import ENV, PINS  # noqa: E402
from notebooks.jupyter_corpus import fetch  # noqa: E402
from notebooks.outputs import Output, cells_shown, outputs, page_misses  # noqa: E402
from notebooks.test_errors_corpus import (  # noqa: E402
    ALLOWING,
    CASES,
    EXAMPLES,
    PATH,
    STRICT,
    lay_out,
    named,
    raised,
)
from sites import Built  # noqa: E402

MKDOCS_JUPYTER = {
    **ALLOWING,
    # the .py files beside the notebooks are not pages; a raising cell shows its error
    "plugins": [
        {
            "mkdocs-jupyter": {
                "execute": True,
                "allow_errors": True,
                "include": ["*.ipynb"],
                "cache": False,
            }
        }
    ],
}


def run(tool: str, config_file: Path, venv: Path) -> tuple[float, Built]:
    """(seconds, what it left) of one cold build of `config_file` into its site/ (its log in
    build.log beside)."""
    env = {**os.environ, **QUIET}
    site = config_file.parent / "site"
    if tool == "llmbook":
        command = [sys.executable, "-m", "mkdocs", "build", "-f", str(config_file)]
        env.update({"LLMBOOK_CACHE": "0", "PATH": PATH})
    else:
        command = [str(venv / "bin" / "mkdocs"), "build", "-f", str(config_file)]
        env["PATH"] = PATH.replace(str(Path(sys.executable).parent), str(venv / "bin"), 1)
        env.pop("PYTHONPATH", None)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=config_file.parent, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    (config_file.parent / "build.log").write_text(done.stderr, encoding="utf-8")
    return seconds, Built(site, done.returncode, done.stdout, done.stderr)


def compare(corpus: Path, work: Path, venv: Path) -> dict:
    """Three builds (llmbook allowing errors, llmbook strict, mkdocs-jupyter), then each
    notebook's counts."""
    builds = {}
    for name, config in (
        ("llmbook", ALLOWING),
        ("llmbook strict", STRICT),
        ("mkdocs-jupyter", MKDOCS_JUPYTER),
    ):
        root = work / name.replace(" ", "-")
        shutil.rmtree(root, ignore_errors=True)
        config_file = lay_out(corpus, config, root)
        if name == "mkdocs-jupyter":  # lay_out's nav, mkdocs-jupyter's plugin
            text = yaml.safe_load(config_file.read_text(encoding="utf-8"))
            config_file.write_text(yaml.safe_dump({**text, **config}), encoding="utf-8")
        builds[name] = run(name.split()[0], config_file, venv)
    strict_named = named(builds["llmbook strict"][1])
    allowed_named = named(builds["llmbook"][1])
    notebooks = []
    for case in CASES:
        stored = outputs(json.loads((corpus / EXAMPLES / case.page).read_text(encoding="utf-8")))
        row = {
            "notebook": case.page,
            "cells with stored outputs": len({o.cell for o in stored}),
            "raising (pinned)": len(case.raises),
            "named by the strict build": len(strict_named.get(f"docs/{case.page}", [])),
            "named by the allowing build": len(allowed_named.get(f"docs/{case.page}", [])),
        }
        for tool in ("llmbook", "mkdocs-jupyter"):
            page = _page(builds[tool][1].site, case.page)
            row[f"shown by {tool}"] = len(cells_shown(page, stored)) if page else None
        row["errors shown"] = _errors_shown(builds["llmbook"][1].site, case.page)
        notebooks.append(row)
    times = {
        name: {"cold": round(seconds, 1), "returncode": built.returncode}
        for name, (seconds, built) in builds.items()
    }
    return {"notebooks": notebooks, "builds": times}


def _page(site: Path, page: str) -> str | None:
    html = (site / page).with_suffix(".html")
    return html.read_text(encoding="utf-8") if html.is_file() else None


def _errors_shown(site: Path, page: str) -> int | None:
    """The error outputs of llmbook's executed download whose traceback's last line its page
    shows (as test_errors_corpus.py reads them)."""
    html, download = _page(site, page), site / page
    if html is None or not download.is_file():
        return None
    found = raised(json.loads(download.read_text(encoding="utf-8")))
    ends = [Output(cell, "stderr", {"text": end}) for cell, _, end in found]
    return len(ends) - len(page_misses(html, ends))


def table(report: dict) -> str:
    """The report as Markdown: a row per notebook, a total, then the build times."""
    keys = list(report["notebooks"][0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    for row in report["notebooks"]:
        lines.append("| " + " | ".join(str(row[k]) for k in keys) + " |")
    total = [sum(r[k] or 0 for r in report["notebooks"]) for k in keys[1:]]
    lines.append("| **total** | " + " | ".join(str(t) for t in total) + " |")
    lines.append("")
    for name, done in report["builds"].items():
        lines.append(f"- {name}: cold build {done['cold']} s (exit {done['returncode']})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="folder for the sites (default: a temporary one)")
    args = parser.parse_args()
    if VENV not in os.environ:
        sys.exit(f"set {VENV} to a virtual environment with mkdocs-jupyter (see this file's top)")
    work = args.work or Path(tempfile.mkdtemp(prefix="notebook-corpus-compare-"))
    corpus = fetch(Path(os.environ.get(ENV) or work / "corpus"), PINS)
    report = compare(corpus, work, Path(os.environ[VENV]))
    out = ROOT / "benchmarks" / "results" / "errors_corpus.json"
    out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(table(report))


if __name__ == "__main__":
    main()

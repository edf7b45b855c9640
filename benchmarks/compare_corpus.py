"""llmbook beside mkdocs-jupyter (`execute: true`) on the tutorial corpus: the pages of nbsphinx's
documentation, emcee's tutorials and markdown-exec's usage pages that
tests/notebooks/test_tutorial_corpus.py builds (BUILT), one site per collection and tool, cold
(no cache) and warm (each tool's cache filled by the build before). mkdocs-jupyter runs
notebooks only: markdown-exec's Markdown pages are timed for llmbook alone. A report: it never
fails, whatever a build takes or says.

mkdocs-jupyter runs from its own virtual environment (its kernel imports what the notebooks do):

    python3 -m venv /tmp/mkj
    /tmp/mkj/bin/pip install mkdocs-jupyter mkdocs-material ipykernel matplotlib numpy scipy \
        emcee==3.1.6
    LLMBOOK_MKDOCS_JUPYTER_VENV=/tmp/mkj python benchmarks/compare_corpus.py

Results in benchmarks/results/corpus.json, and printed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]
from compare_mkdocs_jupyter import VENV, cold_and_warm  # noqa: E402
from notebooks.jupyter_corpus import fetch  # noqa: E402
from notebooks.test_tutorial_corpus import BUILT, COLLECTIONS, CONFIG, lay_out  # noqa: E402
from notebooks.tutorial_corpus import ENV, PINS  # noqa: E402

MKDOCS_JUPYTER = {
    "site_name": "Tutorial corpus",
    "use_directory_urls": False,
    "theme": {"name": "material", "font": False},
    # the .py files of nbsphinx's documentation are not pages; its cache off unless warm
    "plugins": [{"mkdocs-jupyter": {"execute": True, "include": ["*.ipynb"], "cache": False}}],
}


def time_collection(name: str, folder: Path, work: Path, venv: Path) -> dict:
    """Both tools on one collection's pages, one site each: cold, then warm."""
    cases = [c for c in BUILT if c.page.startswith(f"{name}/")]
    notebooks = [c for c in cases if c.page.endswith(".ipynb")]
    result: dict = {"pages": len(cases), "notebooks": len(notebooks)}
    tools = [("llmbook", CONFIG, cases)]
    if notebooks:
        tools.append(("mkdocs-jupyter", MKDOCS_JUPYTER, notebooks))
    for tool, config, pages in tools:
        root = work / name / tool
        shutil.rmtree(root, ignore_errors=True)
        cold, warm = cold_and_warm(tool, config, lay_out(folder, pages, root), venv)
        result[tool] = {
            "cold": round(cold[0], 2),
            "warm": round(warm[0], 2),
            "ok": cold[1] == 0 and warm[1] == 0,
            "said": cold[2],
        }
    if not notebooks:
        result["mkdocs-jupyter"] = "runs notebooks only: these are Markdown pages"
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="folder for the sites (default: a temporary one)")
    args = parser.parse_args()
    if VENV not in os.environ:
        sys.exit(f"set {VENV} to a virtual environment with mkdocs-jupyter (see this file's top)")
    venv = Path(os.environ[VENV])
    work = args.work or Path(tempfile.mkdtemp(prefix="compare-corpus-"))
    folder = fetch(Path(os.environ.get(ENV) or work / "corpus"), PINS)
    report = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}",
        "sdists": {name: version for name, (version, _) in PINS.sdists.items()},
        "collections": {name: time_collection(name, folder, work, venv) for name in COLLECTIONS},
    }
    out = ROOT / "benchmarks" / "results" / "corpus.json"
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print_report(report)


def print_report(report: dict) -> None:
    for name, result in report["collections"].items():
        print(f"\n## {name}: {result['pages']} pages ({result['notebooks']} notebooks)")
        for tool in ("llmbook", "mkdocs-jupyter"):
            times = result[tool]
            if isinstance(times, str):
                print(f"  {tool:15} {times}")
                continue
            failed = "" if times["ok"] else f"   FAILED: {' | '.join(times['said'])[:300]}"
            print(f"  {tool:15} cold {times['cold']:6.2f} s   warm {times['warm']:6.2f} s{failed}")


if __name__ == "__main__":
    main()

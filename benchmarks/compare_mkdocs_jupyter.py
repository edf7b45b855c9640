"""llmbook beside mkdocs-jupyter (`execute: true`) on the same notebooks: what each page shows,
cell by cell and output by output, and how long each build takes. A report: it never fails.

The notebooks: Jupyter's own test notebooks that tests/notebooks/test_jupyter_corpus.py builds
(COMPARED and FAILING), and tests/notebooks/jupyter_book_style.ipynb. Each is built alone by each
tool (the differences, a time per notebook), then those llmbook builds are built together: cold
(no cache: llmbook's LLMBOOK_CACHE=0, mkdocs-jupyter's `cache: false`) and warm (each tool's
cache filled by the build before). mkdocs-jupyter runs from its own virtual environment, which
brings nbconvert, nbclient and the kernel (its kernel imports what the notebooks import):

    python3 -m venv /tmp/mkj
    /tmp/mkj/bin/pip install mkdocs-jupyter mkdocs-material ipykernel pandas matplotlib \
        ipywidgets sympy
    LLMBOOK_MKDOCS_JUPYTER_VENV=/tmp/mkj python benchmarks/compare_mkdocs_jupyter.py [--only TEXT]

Results in benchmarks/results/mkdocs_jupyter.json, and printed: per notebook, each cell whose
code or outputs the two pages show differently, then the build times.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml
from bs4 import BeautifulSoup, Tag

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests")]
from notebooks.jupyter_corpus import ENV, fetch  # noqa: E402
from notebooks.outputs import outputs, page_misses, shown_mime  # noqa: E402
from notebooks.test_jupyter_corpus import COMPARED, CONFIG, FAILING, lay_out, slug  # noqa: E402

BOOK_STYLE = ROOT / "tests" / "notebooks" / "jupyter_book_style.ipynb"
VENV = "LLMBOOK_MKDOCS_JUPYTER_VENV"
MKDOCS_JUPYTER = {
    "site_name": "Jupyter corpus",
    "use_directory_urls": False,
    "theme": {"name": "material"},
    # .py files beside nbconvert's notebooks are not pages; its cache off unless warm.
    "plugins": [{"mkdocs-jupyter": {"execute": True, "include": ["*.ipynb"], "cache": False}}],
}
QUIET = {"NO_MKDOCS_2_WARNING": "1", "PYTHONWARNINGS": "ignore"}


def run_build(tool: str, config: Path, site: Path, venv: Path, cache: Path | None) -> tuple:
    """(seconds, return code, the build's error lines) of one build."""
    env = {**os.environ, **QUIET}
    if tool == "llmbook":
        command = [sys.executable, "-m", "mkdocs", "build", "-f", str(config), "-d", str(site)]
        env.pop("LLMBOOK_CACHE", None)
        env.update({"LLMBOOK_CACHE_DIR": str(cache)} if cache else {"LLMBOOK_CACHE": "0"})
    else:
        command = [str(venv / "bin" / "mkdocs"), "build", "-f", str(config), "-d", str(site)]
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
        env.pop("PYTHONPATH", None)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=config.parent, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    said = [x for x in done.stderr.splitlines() if re.match(r"(ERROR|docs/|\w+Error|\w+: )", x)]
    return seconds, done.returncode, said[:3]


def mkdocs_jupyter_cells(page: str) -> dict[int, dict]:
    """Each code cell of mkdocs-jupyter's page: is its code shown, and its outputs as
    (kind, text) with kind the mime type nbconvert rendered, "stdout", "stderr" or "error"."""
    article = BeautifulSoup(page, "html.parser").find("article")
    cells = {}
    for number, cell in enumerate(article.select(".jp-Notebook > .jp-Cell"), start=1):
        if "jp-CodeCell" not in cell["class"]:
            continue
        shown = [(*_nbconvert_output(o), "shown") for o in cell.select(".jp-OutputArea-output")]
        code = "shown" if cell.select_one(".jp-InputArea") else "removed"
        cells[number] = {"code": code, "outputs": shown}
    return cells


def _nbconvert_output(element: Tag) -> tuple[str, str]:
    mime = element.get("data-mime-type")
    text = " ".join(element.get_text(" ").split())
    if mime is None:
        img = element.find("img")
        src = img.get("src", "") if img else ""
        mime = src[5 : src.index(";")] if src.startswith("data:") else "?"
        mime = mime if img else ("text/html" if "jp-RenderedHTML" in element["class"] else "?")
    if mime == "application/vnd.jupyter.stderr":
        return ("error" if "Traceback" in text or text.startswith("-----") else "stderr", text)
    if mime == "text/plain" and "jp-OutputArea-executeResult" not in element["class"]:
        return ("stdout", text)  # nbconvert marks a stream as text/plain too
    return (mime, text)


def llmbook_cells(page: str, download: dict) -> dict[int, dict]:
    """The same for llmbook's page: outputs from its executed download, the code and each text
    output looked up on the page ("collapsed" inside a details block, "removed" when absent)."""
    article = BeautifulSoup(page, "html.parser").find("article")
    shown = _bare(article.get_text())
    folded = "\n".join(_bare(d.get_text()) for d in article.find_all("details"))
    found = outputs(download)
    cells = {}
    for number, cell in enumerate(download["cells"], start=1):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]).strip()
        first = _bare(source.splitlines()[0]) if source else ""
        kinds = []
        for output in (o for o in found if o.cell == number):
            kind = output.kind if output.kind in ("stdout", "stderr", "error") else None
            text = output.data.get("text", output.data.get("text/plain", ""))
            if output.kind == "error":
                text = f"{output.data['ename']}: {output.data['evalue']}"
            state = _state(_bare(text), shown, folded) if kind else "shown"
            kinds.append((kind or shown_mime(output.data), " ".join(text.split()), state))
        cells[number] = {"code": _state(first, shown, folded), "outputs": kinds}
    return cells


def _bare(text: str) -> str:
    """Text without its spaces: highlighted code puts them between its tokens."""
    return re.sub(r"\s+", "", text)


def _state(text: str, shown: str, folded: str) -> str:
    if not text:
        return "shown"
    return "collapsed" if text in folded else "shown" if text in shown else "removed"


def cell_differences(theirs: dict[int, dict], ours: dict[int, dict]) -> list[str]:
    lines = []
    for number in sorted(set(theirs) | set(ours)):
        a, b = theirs.get(number), ours.get(number)
        if a is None or b is None:
            continue
        if a["code"] != b["code"]:
            lines.append(f"cell {number}: code {a['code']} by mkdocs-jupyter, {b['code']} by us")
        kinds_a = [k for k, _, _ in a["outputs"]]
        kinds_b = [k for k, _, _ in b["outputs"]]
        if kinds_a != kinds_b:
            lines.append(f"cell {number}: outputs {kinds_a} by mkdocs-jupyter, {kinds_b} by us")
            continue
        for (kind, text_a, _), (_, text_b, state) in zip(a["outputs"], b["outputs"], strict=True):
            comparable = kind in ("stdout", "stderr", "text/plain")
            if comparable and text_a != text_b:
                lines.append(f"cell {number}: {kind} {text_a[:70]!r} / ours {text_b[:70]!r}")
            if state != "shown":
                lines.append(f"cell {number}: {kind} output shown by mkdocs-jupyter, {state} by us")
    return lines


def compare_one(name: str, source: Path, work: Path, venv: Path) -> dict:
    """Both tools on one notebook, each in a site of its own."""
    result: dict = {"notebook": name}
    for tool, config in (("mkdocs-jupyter", MKDOCS_JUPYTER), ("llmbook", CONFIG)):
        root = work / tool / slug(name)
        shutil.rmtree(root, ignore_errors=True)
        config_file = lay_out(source.parent, source.name, root)
        config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
        seconds, code, said = run_build(tool, config_file, root / "site", venv, None)
        result[tool] = {"seconds": round(seconds, 2), "ok": code == 0, "said": said}
    if result["llmbook"]["ok"] and result["mkdocs-jupyter"]["ok"]:
        theirs = (work / "mkdocs-jupyter" / slug(name) / "site" / f"{slug(name)}.html").read_text()
        site = work / "llmbook" / slug(name) / "site"
        page = (site / f"{slug(name)}.html").read_text()
        download = json.loads((site / f"{slug(name)}.ipynb").read_text())
        ours = llmbook_cells(page, download)
        result["differences"] = cell_differences(mkdocs_jupyter_cells(theirs), ours)
        result["llmbook page misses"] = page_misses(page, _unremoved(download))
        result["page bytes"] = {
            "mkdocs-jupyter": len(theirs.encode()),
            "llmbook": len(page.encode()),
        }
    return result


def _unremoved(download: dict) -> list:
    """The download's outputs but those of cells whose tags remove them from the page."""
    removed = {
        number
        for number, cell in enumerate(download["cells"], start=1)
        if {"remove-output", "remove-cell"} & set(cell["metadata"].get("tags", []))
    }
    return [o for o in outputs(download) if o.cell not in removed]


def together(names: list[tuple[str, Path]], work: Path, venv: Path) -> dict:
    """The notebooks llmbook builds, as one site per tool: cold, then warm."""
    times: dict = {}
    for tool, config in (("mkdocs-jupyter", MKDOCS_JUPYTER), ("llmbook", CONFIG)):
        root = work / "together" / tool
        shutil.rmtree(root, ignore_errors=True)
        docs = root / "docs"
        seen: set[str] = set()
        for name, source in names:
            if slug(name) in seen:  # two notebooks of one name (SVG, svg): one site holds one
                continue
            seen.add(slug(name))
            lay_out(source.parent, source.name, root / "one" / slug(name))
            shutil.copytree(root / "one" / slug(name) / "docs", docs, dirs_exist_ok=True)
        cold, warm = cold_and_warm(tool, config, root / "mkdocs.yml", venv)
        times[tool] = {"cold": round(cold[0], 2), "warm": round(warm[0], 2), "ok": cold[1] == 0}
    return times


def cold_and_warm(tool: str, config: dict, config_file: Path, venv: Path) -> tuple[tuple, tuple]:
    """(cold, warm) `run_build` results of one tool on `config`, written to `config_file`: cold
    without a cache, warm after a build that filled it (mkdocs-jupyter's own `cache` on)."""
    root = config_file.parent
    config_file.write_text(yaml.safe_dump(config), encoding="utf-8")
    cold = run_build(tool, config_file, root / "site", venv, None)
    warm_config = json.loads(json.dumps(config))
    if tool == "mkdocs-jupyter":
        warm_config["plugins"][0]["mkdocs-jupyter"]["cache"] = True
        config_file.write_text(yaml.safe_dump(warm_config), encoding="utf-8")
    cache = root / "cache"
    run_build(tool, config_file, root / "site", venv, cache)  # fills the cache
    return cold, run_build(tool, config_file, root / "site", venv, cache)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="folder for the sites (default: a temporary one)")
    parser.add_argument("--only", default="", help="only the notebooks whose path has this")
    args = parser.parse_args()
    if VENV not in os.environ:
        sys.exit(f"set {VENV} to a virtual environment with mkdocs-jupyter (see this file's top)")
    venv = Path(os.environ[VENV])
    work = args.work or Path(tempfile.mkdtemp(prefix="compare-mkdocs-jupyter-"))
    corpus = fetch(Path(os.environ.get(ENV) or work / "corpus"))
    paths = [c.path for c in COMPARED] + list(FAILING)
    own = work / "own" / BOOK_STYLE.name  # alone in its folder: no test file beside it
    own.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(BOOK_STYLE, own)
    names = [(p, corpus / p) for p in paths] + [(BOOK_STYLE.name, own)]
    names = [(n, s) for n, s in names if args.only in n]
    results = [compare_one(name, source, work, venv) for name, source in names]
    built = [(n, s) for (n, s), r in zip(names, results, strict=True) if r["llmbook"]["ok"]]
    report = {"notebooks": results, "together": together(built, work, venv), "count": len(built)}
    out = ROOT / "benchmarks" / "results" / "mkdocs_jupyter.json"
    if not args.only:  # a partial run leaves the last full one's results
        out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print_report(report)


def print_report(report: dict) -> None:
    for result in report["notebooks"]:
        them, us = result["mkdocs-jupyter"], result["llmbook"]
        print(
            f"\n## {result['notebook']}  (mkdocs-jupyter {them['seconds']} s, "
            f"llmbook {us['seconds']} s)"
        )
        if "page bytes" in result:
            sizes = result["page bytes"]
            print(
                f"  page: {sizes['mkdocs-jupyter']} bytes by mkdocs-jupyter, {sizes['llmbook']} by us"
            )
        for tool, done in (("mkdocs-jupyter", them), ("llmbook", us)):
            if not done["ok"]:
                print(f"  {tool} FAILED: {' | '.join(done['said'])[:300]}")
        for line in result.get("differences", []) + result.get("llmbook page misses", []):
            print(f"  - {line}")
    print(f"\nTogether ({report['count']} notebooks, one site per tool):")
    for tool, times in report["together"].items():
        print(f"  {tool:15} cold {times['cold']:6.2f} s   warm {times['warm']:6.2f} s")


if __name__ == "__main__":
    main()

"""The PDF and EPUB editions' build times, and what the first page of chapter 10 looks like.

Three builds of the project with `LLMBOOK_EDITIONS=pdf,epub`, in a fresh cache folder:
  cold     empty cache: every page's code runs, every page is converted by pandoc
  warm     the same again: no page runs, no page is converted again (the store's memo)
  edit     one prose character of chapter 10 changed: its page alone converted again
For each: the whole build's wall time and each edition's own (from the build's log line).
Then chapter 10's first page of the PDF as PNG (Typst renders it), for the eye:
benchmarks/results/pdf-ch10-first-page.png. Results in benchmarks/results/editions.json.
Measures and reports; never fails on time.

    python benchmarks/bench_editions.py
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
CHAPTER = ROOT / "docs" / "chapters" / "ch10-modern-llm.md"
_TIMES = re.compile(r"editions: \S+llmbook\.(pdf|epub) \(([\d.]+) MB\) in ([\d.]+) s")


def _build(folder: Path, cache: Path) -> dict[str, float]:
    env = {
        **os.environ,
        "LLMBOOK_EDITIONS": "pdf,epub",
        "LLMBOOK_EDITIONS_DIR": str(folder / "dist"),
        "LLMBOOK_CACHE_DIR": str(cache),
        "OMP_NUM_THREADS": "1",
    }
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(folder / "site")],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(done.stderr[-3000:])
    found = {kind: float(took) for kind, _, took in _TIMES.findall(done.stderr)}
    return {"build_s": round(seconds, 1), **{f"{k}_s": v for k, v in found.items()}}


def _first_page_of_chapter_10(folder: Path) -> Path:
    import pypdf
    import typst

    sys.path.insert(0, str(ROOT / "plugins"))
    from llmbook.core.i18n import load_locale
    from llmbook.core.store import Store
    from llmbook.editions import BookPage
    from llmbook.editions.glyphs import font_folders
    from llmbook.editions.model import Book
    from llmbook.editions.pdf import book_typst

    site = folder / "site"
    reader = pypdf.PdfReader(folder / "dist" / "llmbook.pdf")
    page = next(
        reader.get_destination_page_number(item)
        for item in reader.outline
        if not isinstance(item, list) and item.title.startswith("第 10 章")
    )
    url = "chapters/ch10-modern-llm.html"
    built = [(BookPage("docs/chapters/ch10-modern-llm.md", url, ""), (site / url).read_text())]
    work = folder / "png"
    work.mkdir()
    source = book_typst(
        built, site, work, Store(None), Book("现代 LLM 架构", "", "", load_locale("zh"))
    )
    (work / "book.typ").write_text(source, encoding="utf-8")
    pngs = typst.compile(
        str(work / "book.typ"), root=str(work), font_paths=font_folders(),
        ignore_system_fonts=True, format="png", ppi=110,
    )  # fmt: skip
    # the book of one chapter: cover, contents, then the chapter's first page
    out = RESULTS / "pdf-ch10-first-page.png"
    out.write_bytes(pngs[2] if isinstance(pngs, list) else pngs)
    print(f"chapter 10 starts on PDF page {page + 1}; its first page: {out}")
    return out


def main() -> None:
    result: dict[str, object] = {"machine": platform.platform()}
    with tempfile.TemporaryDirectory(prefix="llmbook-bench-editions-") as name:
        folder, cache = Path(name), Path(name) / "cache"
        os.environ.pop("LLMBOOK_CACHE", None)
        result["cold"] = _build(folder, cache)
        result["warm"] = _build(folder, cache)
        _first_page_of_chapter_10(folder)  # the chapter as written (the edit comes next)
        shutil.rmtree(folder / "png", ignore_errors=True)
        original = CHAPTER.read_text(encoding="utf-8")
        try:
            CHAPTER.write_text(
                original.replace("自回归生成是", "自回归生成就是", 1), encoding="utf-8"
            )
            result["edit"] = _build(folder, cache)
        finally:
            CHAPTER.write_text(original, encoding="utf-8")
        result["pdf_pages"] = len(
            __import__("pypdf").PdfReader(folder / "dist" / "llmbook.pdf").pages
        )
        for kind in ("pdf", "epub"):
            result[f"{kind}_mb"] = round(
                (folder / "dist" / f"llmbook.{kind}").stat().st_size / 2**20, 2
            )
    for label in ("cold", "warm", "edit"):
        print(f"{label:5} {result[label]}")
    (RESULTS / "editions.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

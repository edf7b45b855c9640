"""The record of what computed each page: the distributions its code imported (with their
versions, in the results cache's entry and its staleness), the panel at the page's end and
`provenance.json`. The proof: a tiny distribution really installed at 1.0, then 1.1, re-runs
exactly the page that imports it."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import asdict
from pathlib import Path

import pytest
from llmbook.core.i18n import load_locale
from llmbook.core.store import Store, read_entry
from llmbook.directives.shipped import shipped
from llmbook.editions.colophon import book_versions, colophon_html
from llmbook.editions.model import BookPage
from llmbook.editions.print_form import print_form
from llmbook.execute.stages.provenance import Distributions, Record, page_record, static_imports
from llmbook.site.provenance import PANEL, entry, panel
from sites import build, write_config, write_pages

RECORD = Record(
    python="CPython 3.11.7",
    platform="Linux-6.1-x86_64",
    computed="2026-12-05T03:32:15Z",
    seconds=1.234,
    modules=["numpy", "torch"],
    distributions={"numpy": "2.4.6", "torch": "2.13.0"},
)


def test_the_imports_written_in_the_code() -> None:
    code = [
        "import numpy as np, os.path\nfrom torch.nn import functional as F\n",
        "from . import x",
    ]
    assert static_imports([*code, "%timeit 1\nimport yaml"]) == {"numpy", "os", "torch"}


def test_the_record_leaves_out_the_standard_library_and_llmbook() -> None:
    record = page_record(["import json, yaml"], ["llmbook.core", "yaml.loader", "csv"], 0.5)
    assert record.modules == ["yaml"]
    assert record.seconds == 0.5 and record.python.split()[1].count(".") == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", record.computed)


def test_distributions_and_their_versions() -> None:
    found = Distributions()
    assert found.of_modules(["yaml", "llmbook", "no_such_module"]) == {
        "PyYAML": found.version("PyYAML")
    }
    assert found.changed({"PyYAML": found.version("PyYAML")}) == []
    assert found.changed({"PyYAML": "0.1", "no-such-dist": "1.0"}) == ["PyYAML", "no-such-dist"]


def test_a_cached_result_goes_stale_when_a_recorded_version_changes(make_executor, tmp_path):
    pages = [("docs/a.md", "```python\nimport yaml\nprint(1)\n```\n"), ("docs/b.md", "[[2 = 2]]\n")]
    executor = make_executor(execute_preamble="")
    report = executor.run_pages(pages)
    assert executor.executed == ["docs/a.md", "docs/b.md"] and report.failures == []
    assert "PyYAML" not in report.plans["docs/b.md"].result.record.distributions
    record = report.plans["docs/a.md"].result.record
    assert "PyYAML" in record.distributions and "yaml" in record.modules
    again = make_executor(execute_preamble="")
    assert again.run_pages(pages).plans["docs/a.md"].result.record == record  # from the cache
    assert again.executed == []
    store = Store(tmp_path / ".llmbook-cache")
    for path in (tmp_path / ".llmbook-cache" / "results").glob("*.json"):
        kept = read_entry(path)
        if "PyYAML" not in kept.value["record"]["distributions"]:
            continue  # b.md imported no yaml
        kept.value["record"]["distributions"]["PyYAML"] = "0.1"  # as if built with another
        store.slot("results", kept.value["src"]).put(kept.key, kept.value)
    third = make_executor(execute_preamble="")
    third.run_pages(pages)
    assert third.executed == ["docs/a.md"]


def test_the_panel_in_the_pages_language() -> None:
    data = entry(RECORD, seed=0, cached=True)
    assert data == {
        "python": "CPython 3.11.7",
        "platform": "Linux-6.1-x86_64",
        "computed": "2026-12-05T03:32:15Z",
        "seconds": 1.234,
        "distributions": {"numpy": "2.4.6", "torch": "2.13.0"},
        "seed": 0,
        "cached": True,
    }
    english = panel(data, load_locale("en"))
    assert english.startswith('<details class="info llmbook-provenance">\n<summary>')
    assert "<summary>What computed this page</summary>" in english
    assert "<li>Python: CPython 3.11.7, on Linux-6.1-x86_64</li>" in english
    assert "<code>numpy 2.4.6</code>, <code>torch 2.13.0</code>" in english
    assert "<li>Seed: 0</li>" in english and "<li>Run time: 1.23 s</li>" in english
    assert "<li>Results: from the build cache, computed 2026-12-05 03:32 UTC</li>" in english
    chinese = panel({**data, "cached": False}, load_locale("zh"))
    assert "<li>结果：由本次构建计算，2026-12-05 03:32 UTC</li>" in chinese
    assert PANEL.fullmatch(english) and PANEL.fullmatch(chinese)


def test_the_book_wide_versions() -> None:
    other = Record("CPython 3.11.7", "Linux-6.1-x86_64", "", 0.1, [], {"llmkit": "0.1.0"})
    newer = Record("CPython 3.11.7", "Linux-6.1-x86_64", "", 0.1, [], {"numpy": "2.5.0"})
    pythons, platforms, union = book_versions(asdict(r) for r in (RECORD, other, newer))
    assert pythons == ["CPython 3.11.7"] and platforms == ["Linux-6.1-x86_64"]
    assert union == {"llmkit": "0.1.0", "numpy": "2.4.6, 2.5.0", "torch": "2.13.0"}


def test_the_colophon_of_the_books_pages(tmp_path: Path) -> None:
    records = {
        "a.html": entry(RECORD, seed=0, cached=False),
        "b.html": {**entry(RECORD, seed=0, cached=True), "distributions": {"tinypkg": "1.1"}},
        "skipped.html": {**entry(RECORD, seed=0, cached=True), "distributions": {"x": "9"}},
    }
    (tmp_path / "provenance.json").write_text(json.dumps(records), encoding="utf-8")
    pages = [BookPage("docs/a.md", "a.html", "A"), BookPage("docs/b.md", "b.html", "B")]
    made = colophon_html(tmp_path, pages, load_locale("en"))
    assert made == (
        '<h1 id="llmbook-colophon">Colophon</h1>\n<p>Every result in this book was computed by '
        "its code at build time, with CPython 3.11.7 on Linux-6.1-x86_64, and these packages:</p>"
        "\n<ul><li><code>numpy 2.4.6</code></li><li><code>tinypkg 1.1</code></li>"
        "<li><code>torch 2.13.0</code></li></ul>\n"
    )
    assert '<h1 id="llmbook-colophon">版本记录</h1>' in colophon_html(
        tmp_path, pages, load_locale("zh")
    )
    assert colophon_html(tmp_path / "none", pages, load_locale("en")) == ""


def test_the_editions_leave_the_panel_out() -> None:
    shown = panel(entry(RECORD, seed=0, cached=True), load_locale("en"))
    printed = print_form(f"<p>Text.</p>{shown}", load_locale("en"), shipped())
    assert printed.html.strip() == "<p>Text.</p>"


# -- the proof: a distribution upgraded under a warm build ----------------------------------------


def _wheel(folder: Path, version: str) -> Path:
    """tinypkg-VERSION-py3-none-any.whl, made by hand: a module and its .dist-info."""
    info = f"tinypkg-{version}.dist-info"
    files = {
        "tinypkg/__init__.py": f'VERSION = "{version}"\n',
        f"{info}/METADATA": f"Metadata-Version: 2.1\nName: tinypkg\nVersion: {version}\n",
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: hand\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    lines = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=")
        lines.append(f"{name},sha256={digest.decode()},{len(text.encode())}")
    files[f"{info}/RECORD"] = "\n".join([*lines, f"{info}/RECORD,,"]) + "\n"
    path = folder / f"tinypkg-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
    return path


def _install(wheel: Path, target: Path) -> None:
    """pip's install into `target`, the version there before uninstalled (`--target` alone would
    leave its .dist-info beside the new one's)."""
    shutil.rmtree(target, ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--upgrade",
         "--quiet", "--disable-pip-version-check", "--target", str(target), str(wheel)],
        check=True,
    )  # fmt: skip


PAGES = {
    "a.md": "# A\n\n```python\nimport tinypkg\nprint(tinypkg.VERSION)\n```\n",
    "b.md": "# B\n\n```python\nprint(6 * 7)\n```\n",
}


@pytest.mark.slow
def test_upgrading_a_distribution_re_runs_exactly_the_page_that_imports_it(tmp_path: Path):
    packages = tmp_path / "packages"  # outside the book's folder: installed, not the project's
    root = tmp_path / "book"
    write_pages(root / "docs", PAGES)
    config = {
        "site_name": "t",
        "use_directory_urls": False,
        "nav": ["a.md", "b.md"],
        "plugins": [{"llmbook": {"language": "en", "offline_check": False}}],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }
    config_file = write_config(root, config)
    path = os.pathsep.join([str(packages), os.environ.get("PYTHONPATH", "")])

    def built(version: str) -> tuple[str, dict, str]:
        _install(_wheel(tmp_path, version), packages)
        done = build(config_file, cache=True, env={"PYTHONPATH": path})
        assert done.returncode == 0, done.stderr
        site = root / "site"
        records = json.loads((site / "provenance.json").read_text(encoding="utf-8"))
        return done.stderr, records, (site / "a.html").read_text(encoding="utf-8")

    log, records, page = built("1.0")
    assert "(2 pages run)" in log
    assert records["a.html"]["distributions"]["tinypkg"] == "1.0"
    assert "tinypkg" not in records["b.html"]["distributions"]
    assert "<code>tinypkg 1.0</code>" in page and "computed by this build" in page
    log, records, page = built("1.1")
    assert "(1 pages run)" in log
    assert "docs/a.md: ran in a worker process" in log
    assert "docs/b.md: results from the cache" in log
    assert records["a.html"]["distributions"]["tinypkg"] == "1.1"
    assert records["a.html"]["cached"] is False and records["b.html"]["cached"] is True
    assert records["b.html"]["src"] == "docs/b.md" and records["b.html"]["seed"] == 0
    assert "<code>tinypkg 1.1</code>" in page and "<pre" in page
    b = (root / "site" / "b.html").read_text(encoding="utf-8")
    assert "<li>Results: from the build cache, computed " in b


def test_a_warm_build_says_its_results_came_from_the_cache(build_site) -> None:
    """The panel is added per build, outside the render cache, in the page's language;
    `provenance.json` lists the executed pages only (the search index leaves the panel out:
    tests/plugin/test_search_view.py)."""
    pages = {
        "index.md": "# 首页\n\n```python\nimport yaml\nprint(1)\n```\n",
        "plain.md": "# 文字\n",
    }
    cold = build_site(pages, site="site1", execute_preamble="")
    html = (cold / "index.html").read_text(encoding="utf-8")
    assert "<summary>本页由什么计算</summary>" in html and "<li>结果：由本次构建计算，" in html
    assert "<li>随机种子：0</li>" in html and "<code>PyYAML " in html
    assert "llmbook-provenance" not in (cold / "plain.html").read_text(encoding="utf-8")
    warm = build_site(pages, site="site2", execute_preamble="")
    html = (warm / "index.html").read_text(encoding="utf-8")
    assert "<li>结果：取自构建缓存，计算于 " in html
    records = json.loads((warm / "provenance.json").read_text(encoding="utf-8"))
    assert list(records) == ["index.html"] and records["index.html"]["cached"] is True

"""Every cache of a build is a namespace of one store: a site that uses them all leaves nothing
else in the cache folder, a warm build reads only hits, and a torn entry of any namespace is a
miss that the next build writes again (a half-written notebook is never shipped)."""

from __future__ import annotations

import json
import logging
import textwrap
from pathlib import Path

import pytest
from llmbook.core.store import read_entry
from llmbook.core.store_builds import BUILDS
from llmbook.core.store_namespaces import NAMESPACES as DECLARED
from sites import masked_provenance

ROOT = Path(__file__).resolve().parents[2]

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# 笔记本\n"]},
        {
            "cell_type": "code",
            "metadata": {},
            "source": ["print(2 + 2)"],
            "outputs": [],
            "execution_count": None,
        },
    ],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}

PAGES = {
    "index.md": """\
        # 首页

        ```python
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(2, 1))
        ax.plot([1, 2, 3])
        ax.set_title("一条线")
        print("画好了")
        ```

        :::related
        依赖 | 第二页, 细节
        :::

        :::demo norm-compare 交互：RMSNorm 与 LayerNorm
        拖动滑块，看两种归一化。
        :::
        """,
    "two.md": "# 第二页\n\n## 细节\n\n正文。\n",
    "two.en.md": "# Page two\n\n## Details\n\nText.\n",  # its translation (its staleness kept)
    "nb.ipynb": json.dumps(NOTEBOOK, ensure_ascii=False),
}

# The namespaces this site uses (what each holds, keys on and is made stale by: the registry,
# llmbook/core/store_namespaces.py); the others need a bibliography, formulas, search, editions.
NAMESPACES = {
    "results",
    "stages",
    "pages",
    "converted",
    "sections",
    "demos",
    "outlines",
    "parts",
    "notebooks",
    "offline",
    "translations",
}


@pytest.fixture(autouse=True)
def _no_build_date(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # builds stamp no date of their own


def _build(root: Path, site: str = "site") -> dict[str, bytes]:
    """Build PAGES under `root` with MkDocs, the offline check on (so the theme loads nothing
    from a CDN); the site's files."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    for name, text in PAGES.items():
        path = root / "docs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    config = {
        "site_name": "t",
        "site_dir": site,
        "use_directory_urls": False,
        "theme": {"name": "mkdocs", "highlightjs": False, "language": "zh"},
        "plugins": [
            {
                "llmbook": {
                    "offline_check": True,
                    "languages": ["zh", "en"],
                    "demos": ["bookdemos"],
                    "locales": str(ROOT / "locales"),  # the demos' words
                }
            }
        ],
        "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
    }
    (root / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    build(load_config(str(root / "mkdocs.yml")))  # paths are relative to mkdocs.yml, not cwd
    return _files(root / site)


def _files(site: Path) -> dict[str, bytes]:
    """The site's files, the record of what computed each page masked (sites.masked_provenance)."""
    files = {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    return masked_provenance(files)


def _entries(cache: Path) -> dict[Path, str]:
    """Every file under the cache folder → its namespace; each must be `namespace/entry` of a
    declared namespace (or a finished build's record of what it read)."""
    found = {}
    for path in sorted(p for p in cache.rglob("*") if p.is_file()):
        parts = path.relative_to(cache).parts
        if parts[0] == BUILDS:
            continue
        assert len(parts) == 2 and parts[0] in DECLARED, f"not in a store namespace: {parts}"
        found[path] = parts[0]
    return found


def _hit_counts(messages: list[str]) -> dict[str, tuple[int, int]]:
    """The build log's one line of store counts: {namespace: (hits, reads)}."""
    (line,) = [m for m in messages if "cache hits: " in m]
    counts = {}
    for part in line.split("cache hits: ")[1].split(";")[0].split(", "):
        namespace, ratio = part.split(" ")
        hits, reads = ratio.split("/")
        counts[namespace] = (int(hits), int(reads))
    return counts


@pytest.mark.slow
def test_every_cache_is_a_namespace_of_one_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
        cold = _build(tmp_path)
    cache = tmp_path / ".llmbook-cache"
    entries = _entries(cache)
    assert NAMESPACES <= DECLARED.keys()
    assert set(entries.values()) == NAMESPACES  # every namespace used, nothing else written
    assert all(read_entry(path) is not None for path in entries)  # each a whole, verified entry
    assert _hit_counts(caplog.messages)["results"] == (0, 2)  # both executed pages ran

    caplog.clear()
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
        warm = _build(tmp_path, site="warm")
    assert warm == cold
    counts = _hit_counts(caplog.messages)
    assert all(hits == reads for hits, reads in counts.values()), counts
    assert {"results", "stages", "converted", "notebooks", "offline"} <= counts.keys()
    assert _entries(cache) == entries  # a warm build adds nothing


@pytest.mark.slow
def test_a_torn_entry_of_any_namespace_is_a_miss_and_is_written_again(tmp_path: Path) -> None:
    cold = _build(tmp_path)
    cache = tmp_path / ".llmbook-cache"
    entries = _entries(cache)

    # Half-written notebook entries (nb.ipynb's download, index.md's notebook): the downloads
    # are made again, not served torn.
    notebooks = [path for path, namespace in entries.items() if namespace == "notebooks"]
    assert len(notebooks) == 2
    kept = {notebook: notebook.read_bytes() for notebook in notebooks}
    for notebook, data in kept.items():
        notebook.write_bytes(data[: len(data) // 2])
    assert _build(tmp_path, site="site2") == cold
    assert {notebook: notebook.read_bytes() for notebook in notebooks} == kept

    for path in entries:  # every entry of every namespace loses its last byte
        path.write_bytes(path.read_bytes()[:-1])
    assert _build(tmp_path, site="site3") == cold
    assert _entries(cache) == entries
    assert all(read_entry(path) is not None for path in entries)  # each written again

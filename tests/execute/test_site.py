"""Whole MkDocs builds of a temporary site: determinism, the cache across builds, the reports."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort
from sites import masked_provenance

from .conftest import SEED_000

PAGES = {
    "index.md": """\
        # 首页

        ```python
        import torch
        x = torch.randn(4)
        print([round(v, 4) for v in x.tolist()])
        ```

        ```python
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(3, 2))
        ax.plot(x.numpy())
        ax.set_title("随机向量")
        ```

        范数 [[x.norm().item() = 2.7]]，比例 [[0.25 = 25%]]。
        """,
    "chapters/kv.md": """\
        ```python hidden
        kv_gb = kv_cache_bytes(32, 32, 128, 4096) / 1e9
        ```

        需要 [[kv_gb = 2.1]] GB。
        """,
}


def _files(site: Path) -> dict[str, bytes]:
    """The site's files, the record of what computed each page masked (sites.masked_provenance)."""
    return masked_provenance({
        p.relative_to(site).as_posix(): p.read_bytes()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    })  # fmt: skip


def test_two_builds_are_byte_identical(build_site, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    first = _files(build_site(PAGES, site="site1"))
    second = _files(build_site(PAGES, site="site2"))
    assert first.keys() == second.keys() and "index.html" in first
    assert [name for name in first if first[name] != second[name]] == []
    index = first["index.html"].decode()
    figure = re.search(r'<img src="(assets/llmbook/figures/\w+\.svg)" alt="随机向量"', index)
    assert figure and '<svg role="img" aria-label="随机向量"' in first[figure.group(1)].decode()
    assert '<span class="llmbook-num" title="x.norm().item() = ' in index


def test_cached_rebuild_gives_the_same_site_without_running(build_site, tmp_path, caplog) -> None:
    cold = _files(build_site(PAGES, site="site1"))
    assert len(list((tmp_path / ".llmbook-cache" / "results").glob("*.json"))) == 2
    with caplog.at_level(logging.INFO):
        warm = _files(build_site(PAGES, site="site2"))
    assert cold == warm
    messages = [r.getMessage() for r in caplog.records]
    own = [m for m in messages if m.startswith("llmbook: docs/index.md: ")]
    assert own == [  # one line per page
        "llmbook: docs/index.md: results from the cache; numbers: 2 checked, 0 cited, "
        "0 illustrative, 0 structural, 0 unaccounted"
    ]
    total = [m for m in messages if m.startswith("llmbook: checked ")]
    assert len(total) == 1 and total[0].startswith("llmbook: checked 3 numbers on 2 executed pages")
    assert total[0].endswith(" (0 pages run)")  # all from the cache


def test_serve_style_rebuild_reruns_only_the_changed_page(build_site, caplog) -> None:
    def ran() -> list[str]:
        found = [
            r.getMessage().removeprefix("llmbook: ").split(": ran in a worker process")[0]
            for r in caplog.records
            if ": ran in a worker process" in r.getMessage()
        ]
        caplog.clear()
        return found

    with caplog.at_level(logging.INFO):
        build_site(PAGES)
        assert ran() == ["docs/index.md", "docs/chapters/kv.md"]  # MkDocs' order of pages
        build_site({"index.md": PAGES["index.md"].replace("范数", "向量的范数")})  # prose only
        assert ran() == []
        build_site(
            {
                "chapters/kv.md": PAGES["chapters/kv.md"]
                .replace("4096", "8192")
                .replace("2.1", "4.3")
            }
        )
        assert ran() == ["docs/chapters/kv.md"]


def test_a_drifted_number_fails_the_build_after_all_pages(build_site, monkeypatch, caplog) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    pages = dict(PAGES)
    pages["chapters/kv.md"] = pages["chapters/kv.md"].replace("2.1", "2.2")
    pages["index.md"] = pages["index.md"].replace("25%", "26%")
    with pytest.raises(Abort):
        build_site(pages)
    lines = caplog.text.split("\n")
    assert "docs/chapters/kv.md:5: written 2.2, computed 2.1474836 (rounds to 2.1)" in lines
    assert "docs/index.md:16: written 26%, computed 0.25 (rounds to 25%)" in lines


def test_seed_000_builds_as_is_when_it_opts_out(build_site, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    seed = SEED_000.read_text(encoding="utf-8")
    site = build_site({"seed.md": "---\nexecute: false\n---\n" + seed})
    html = (site / "seed.html").read_text(encoding="utf-8")
    assert '<span class="nc">CachedAttention</span>' in html and "llmbook-output" not in html


def test_front_matter_keeps_error_lines_true(build_site, monkeypatch, caplog) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    seed = SEED_000.read_text(encoding="utf-8")
    with pytest.raises(Abort):
        build_site({"seed.md": "---\ntitle: 种子\n---\n\n" + seed})
    # MkDocs hands over the page without its 4 front-matter lines; the error still names the file line.
    assert "docs/seed.md:78: NameError: name 'nn' is not defined" in caplog.text

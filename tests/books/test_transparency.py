"""llmbook added to a site that does not use it (`execute_pages: []`) leaves every page's article
as the plain build renders it: python fences stay highlighted code (their code is not run: it
could not be), `::: package.Name` lines are left for mkdocstrings, numbers are not policed."""

from __future__ import annotations

from pathlib import Path

from .transparency import articles, compare

SITE = Path(__file__).parent / "plain_site" / "mkdocs.yml"


def test_every_article_is_the_plain_builds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    assert compare(SITE, tmp_path) == {}
    pages = articles(tmp_path / "llmbook")
    assert sorted(pages) == ["404.html", "guide/usage/index.html", "index.html"]
    assert "::: plain.client.Client" in pages["index.html"]
    assert "llmbook" not in pages["index.html"] + pages["guide/usage/index.html"]

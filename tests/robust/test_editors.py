"""The whole book as other editors save it (CRLF, tab indentation, trailing whitespace) builds
into the same site as the book itself: Python-Markdown reads each as the original, and so does
every llmbook stage (the load stage normalises the text once, as the engine does)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sites import ROOT, build, masked_panel, project_config, project_site, write_config

from .variants import VARIANTS, rewrite

pytestmark = pytest.mark.slow

# The editions' download links: the shared project site is built with them, these builds not.
_EDITIONS = re.compile(r'<p class="llmbook-editions">.*?</p>', re.S)
# Whitespace Markdown keeps from a line's end (a paragraph's last line): invisible, not content.
_LINE_END_SPACE = re.compile(r"[ \t]+(?=\n|</)")


def article(page: Path) -> str:
    """A page's article, without the editions' links, whitespace at line ends or blank lines,
    its record of what computed it masked (when, how long: each build's own)."""
    text = masked_panel(page.read_text(encoding="utf-8"))
    found = re.search(r"<article.*?</article>", text, re.S)
    assert found is not None, page
    return re.sub(r"\n+", "\n", _LINE_END_SPACE.sub("", _EDITIONS.sub("", found.group(0))))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_the_book_as_other_editors_save_it(
    variant: str, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    rewrite(docs, variant)
    config = write_config(tmp_path, project_config(docs))
    env = {"OMP_NUM_THREADS": "1"}
    built = build(config, site=tmp_path / "site", strict=True, cache=False, cwd=ROOT, env=env)
    assert built.returncode == 0, built.stderr[-3000:]
    book = project_site(tmp_path_factory)
    # the Chinese edition's pages (the English one, in en/, is another build's)
    pages = sorted(
        p.relative_to(book) for p in book.rglob("*.html") if p.relative_to(book).parts[0] != "en"
    )
    assert pages and pages == sorted(p.relative_to(built.site) for p in built.site.rglob("*.html"))
    for page in pages:
        assert article(built.site / page) == article(book / page), page

"""Through the whole plugin, errors name the line of the file, front matter included.

MkDocs hands `on_page_markdown` the page without its front matter; every stage must add it back.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

FRONT = "---\ntitle: 测试\nexecute: false\n---\n\n"  # 5 lines MkDocs removes


def _build(tmp_path: Path, page: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(FRONT + page, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nuse_directory_urls: false\nplugins: [llmbook]\n"
        "markdown_extensions: [admonition, pymdownx.details, pymdownx.superfences, tables]\n",
        encoding="utf-8",
    )
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q"],
        cwd=tmp_path,
        env={**os.environ, "LLMBOOK_CACHE": "0", "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("# 标题\n\n:::fold 细节\n没有收尾\n", "docs/index.md:8: "),
        ("# 标题\n\n正文\n\n$\\frac{1}{$\n", "docs/index.md:10: "),
    ],
    ids=["directive", "math"],
)
def test_errors_count_the_front_matter(tmp_path: Path, page: str, expected: str) -> None:
    result = _build(tmp_path, page)
    assert result.returncode != 0
    assert expected in result.stderr, result.stderr[-2000:]

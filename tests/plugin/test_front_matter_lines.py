"""Through the whole plugin, errors name the line of the file, front matter included.

MkDocs hands `on_page_markdown` the page without its front matter; every stage must add it back.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sites import Built

FRONT = "---\ntitle: 测试\nexecute: false\n---\n\n"  # 5 lines MkDocs removes


CONFIG = (
    "site_name: t\nuse_directory_urls: false\nplugins: [llmbook]\n"
    "markdown_extensions: [admonition, pymdownx.details, pymdownx.superfences, tables]\n"
)


def _build(make_site: Callable[..., Built], page: str) -> Built:
    return make_site({"index.md": FRONT + page}, CONFIG, site="site", cache=False, args=["-q"])


@pytest.mark.parametrize(
    ("page", "expected"),
    [
        ("# 标题\n\n:::fold 细节\n没有收尾\n", "docs/index.md:8: "),
        ("# 标题\n\n正文\n\n$\\frac{1}{$\n", "docs/index.md:10: "),
    ],
    ids=["directive", "math"],
)
def test_errors_count_the_front_matter(make_site, page: str, expected: str) -> None:
    result = _build(make_site, page)
    assert result.returncode != 0
    assert expected in result.stderr, result.stderr[-2000:]

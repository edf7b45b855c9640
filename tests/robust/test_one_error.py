"""One fault, one error, where it is: a page whose code fails is still a page to the rest of the
book (links into it are checked against its headings), and a drift in a helper module names the
drifted numbers and the page's own failure, nothing else. Before, every link into the failed page
was a second, false error (`… which is no page of the book`)."""

from __future__ import annotations

from pathlib import Path

import pytest

CONFIG = {
    "site_name": "One error",
    "theme": {"name": "material", "font": False},
    "plugins": [{"llmbook": {"offline_check": False}}],
    "markdown_extensions": ["attr_list", "pymdownx.superfences", "llmbook.extension"],
}
CHAPTER = """\
---
chapter: 1
---
# 第 1 章 · 缓存

## 1.1 字节数 {#bytes}

```python
from calc import kv_bytes
assert kv_bytes(1) == 4, kv_bytes(1)
```

一个 token 占 [[kv_bytes(1) = 4]] 字节。
"""
NUMBERS = """\
# 数字

```python
from calc import kv_bytes
```

两个 token 占 [[kv_bytes(2) = 8]] 字节，三个占 [[kv_bytes(3) = 12]] 字节。
"""
HOME = """\
# 首页

先读[第 1 章](ch1.md)，尤其是[1.1 节](ch1.md#bytes)。见[数字](numbers.md)。
"""
CALC = "def kv_bytes(tokens):\n    return 2 * 2 * tokens\n"


def _site(tmp_path: Path, calc: str) -> dict[str, str]:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "calc.py").write_text(calc, encoding="utf-8")
    return {"index.md": HOME, "ch1.md": CHAPTER, "numbers.md": NUMBERS}


def _errors(stderr: str) -> list[str]:
    """The report's lines that name a page."""
    return [line for line in stderr.splitlines() if line.startswith("docs/")]


def test_the_book_builds_as_written(tmp_path: Path, make_site) -> None:
    built = make_site(_site(tmp_path, CALC), CONFIG, cache=False, strict=True)
    assert built.returncode == 0, built.stderr[-3000:]


def test_a_drift_names_the_drifted_numbers_and_nothing_else(tmp_path: Path, make_site) -> None:
    drifted = CALC.replace("2 * 2", "3 * 2")
    built = make_site(_site(tmp_path, drifted), CONFIG, cache=False, strict=True)
    assert built.returncode != 0
    assert _errors(built.stderr) == [
        "docs/ch1.md:10: AssertionError: 6 (python block at line 8)",
        "docs/numbers.md:7: written 8, computed 12",
        "docs/numbers.md:7: written 12, computed 18",
    ]
    assert "1 page failed:" in built.stderr
    assert "2 written numbers differ from the computation:" in built.stderr


@pytest.mark.parametrize("broken", ["---\nchapter: ten\n---\n# x\n", b"# x\n\xff\n"])
def test_links_into_a_page_that_cannot_be_read_are_not_errors(
    broken: str | bytes, tmp_path: Path, make_site
) -> None:
    pages = {**_site(tmp_path, CALC), "ch1.md": broken}
    built = make_site(pages, CONFIG, cache=False, strict=True)
    assert [line.split(":")[0] for line in _errors(built.stderr)] == ["docs/ch1.md"]


def test_every_malformed_directive_of_every_page_is_in_the_one_report(make_site) -> None:
    """Directives are validated by the check stage, before any page renders: two pages with a
    malformed block each give one report naming both (before, the render stopped at the first)."""
    pages = {
        "index.md": "# A\n\n:::quiz\n这是问题吗？\n- [x] 是\n- [ ] 否\n:::\n",
        "b.md": "# B\n\n:::fold\n:::\n\n:::quiz 不要标题\n问？\n- [x] 是\n答案: A\n解析: 因为。\n:::\n",
    }
    built = make_site(pages, CONFIG, cache=False, strict=True)
    assert built.returncode != 0
    assert "2 pages failed:" in built.stderr
    assert [line.split(":")[:2] for line in _errors(built.stderr)] == [
        ["docs/b.md", "3"],
        ["docs/index.md", "3"],
    ]

"""The live preview survives author errors: under `mkdocs serve` a page with a drifted number, a
failing block, a timeout or a malformed directive renders, each error in a box at its spot with the
build's exact text and all of them listed at the top; `mkdocs build` of the same site fails."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from mkdocs.exceptions import Abort, PluginError
from sites import build, write_config, write_pages

PAGES = {
    "index.md": """\
        # 首页

        ```python hidden
        width = 128
        ```

        每头 [[width = 64]] 维，层数 [[width // 4 = 32]]。

        :::insigt 笔误的标题
        正文。
        :::

        :::key 要点
        公式 $d = 1$ 照常渲染，数字 [[width * 2 = 256]] 照常核对。
        :::
        """,
    "fails.md": """\
        # 会失败的页

        ```python
        x = 1
        print(x.no_such_name)
        ```

        结果是 [[x = 1]]。
        """,
    "slow.md": """\
        # 太慢的页

        ```python
        import time
        time.sleep(30)
        ```
        """,
}

DRIFT = "docs/index.md:7: written 64, computed 128"
DIRECTIVE = (
    "docs/index.md:9: unknown directive :::insigt Fix: did you mean :::insight? Else use one of:"
)
FAILING = "docs/fails.md:5: AttributeError: 'int' object has no attribute 'no_such_name'"
TIMEOUT = "docs/slow.md:3: block timed out after 3 s"


CONFIG = (
    "site_name: t\nuse_directory_urls: false\ntheme: {name: mkdocs, language: zh}\n"
    "plugins:\n  - llmbook:\n      execute_timeout: 3\n      offline_check: false\n"
    "markdown_extensions: [llmbook.extension, pymdownx.superfences, admonition]\n"
)


def _build(root: Path, pages: dict[str, str], command: str) -> dict[str, str]:
    write_pages(root / "docs", pages, dedent=True)
    site = build(write_config(root, CONFIG), in_process=True, cache=False, command=command).site
    return {p.name: html.unescape(p.read_text(encoding="utf-8")) for p in site.glob("*.html")}


@pytest.fixture(scope="module")
def preview(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The site under `mkdocs serve`, built once: the tests below only read it."""
    return _build(tmp_path_factory.mktemp("preview"), PAGES, "serve")


def _boxes(page: str) -> list[str]:
    return re.findall(
        r'<div class="llmbook-build-error" id="llmbook-error-\d+" role="alert">'
        r'<p class="llmbook-build-error__title">构建错误 \d+</p><pre>(.*?)</pre>',
        page,
        re.S,
    )


def test_a_drifted_number_and_a_bad_directive_show_at_their_spot(preview) -> None:
    page = preview["index.html"]
    boxes = _boxes(page)
    assert boxes[0] == DRIFT
    assert boxes[1].startswith(DIRECTIVE)
    # Each box follows its line; the directive's line is shown as written.
    first = page.index('<div class="llmbook-build-error" id="llmbook-error-1"')
    second = page.index('<div class="llmbook-build-error" id="llmbook-error-2"')
    assert page.index("层数") < first < page.index(":::insigt 笔误的标题") < second
    # The rest of the page renders as in a build: math, a checked number inside a good box.
    assert 'class="admonition success llmbook-key"' in page and "<math" in page
    assert '<span class="llmbook-num" title="width * 2 = 256' in page
    # The top of the page lists both, linked to their boxes.
    top = page[page.index('<div class="llmbook-build-errors"') :]
    assert "本页有 2 个构建错误" in top
    assert '<a href="#llmbook-error-1">docs/index.md:7</a>' in top
    assert '<a href="#llmbook-error-2">docs/index.md:9</a>' in top


def test_a_failing_block_shows_after_its_code_and_its_numbers_stay_unchecked(preview) -> None:
    page = preview["fails.html"]
    (box,) = _boxes(page)
    assert box.startswith(FAILING)
    box_at = page.index('<div class="llmbook-build-error" id="llmbook-error-1"')
    assert page.index("print(x.no_such_name)") < box_at  # after the code block
    assert 'class="llmbook-num llmbook-num-unchecked"' in page
    assert "[[" not in page


def test_a_timeout_shows_on_its_page(preview) -> None:
    (box,) = _boxes(preview["slow.html"])
    assert box.startswith(TIMEOUT)


def test_clean_pages_show_no_error_box(tmp_path: Path) -> None:
    fixed = {"index.md": PAGES["index.md"].replace("64", "128").replace("insigt", "insight")}
    page = _build(tmp_path, fixed, "serve")["index.html"]
    assert "llmbook-build-error" not in page
    assert page.count('class="llmbook-num"') == 3


def test_a_build_of_the_same_site_fails(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with pytest.raises((PluginError, Abort)):
        _build(tmp_path, PAGES, "build")
    assert "3 pages failed:" in caplog.text
    for text in (FAILING, TIMEOUT, DIRECTIVE):
        assert text in caplog.text

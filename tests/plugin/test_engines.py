"""The core is a Python-Markdown extension hosted by two engines: MkDocs (through the plugin) and
Zensical (on its own). Both build the same small book from the project's mkdocs.yml; a drifted number
fails either build naming `docs/…:LINE`; a number in a heading shows its value in the TOC."""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from llmbook.core.assets import asset_paths
from llmbook.site.offline import find_external_loads
from sites import Built, build

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

PAGE = """\
# 小书

```python hidden
from llmkit import ModelConfig
cfg = ModelConfig.llama2_7b()
```

## 每层 [[cfg.num_key_value_heads = 32]] 个 K/V 头

:::key 要点：每头 [[cfg.head_dim = 128]] 维
一共 [[cfg.num_hidden_layers = LAYERS]] 层，公式 $d = 128$。
:::

:::quiz
每头几维？
A. $d = 64$
B. [[cfg.head_dim = 128]] 维
答案: B
解析: 见上文的 $d$。
:::

:::related
依赖 | 第二页, 不存在的话题
:::

```python
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(3, 2))
ax.plot([1, 2, 3])
ax.set_title("一条线")
```
"""


def _book(root: Path, layers: str = "32") -> Path:
    """A project folder: mkdocs.yml inheriting the project's, one page, no notebook."""
    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    (docs / "index.md").write_text(PAGE.replace("LAYERS", layers), encoding="utf-8")
    (docs / "more").mkdir(exist_ok=True)
    (docs / "more" / "two.md").write_text("# 第二页\n\n正文。\n", encoding="utf-8")
    config = {
        "INHERIT": str(ROOT / "mkdocs.yml"),
        "nav": [{"小书": "index.md"}, {"第二页": "more/two.md"}],
    }
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    (root / "locales").symlink_to(ROOT / "locales", target_is_directory=True)  # the book's words
    return root


def _zensical(root: Path) -> Built:
    pytest.importorskip("zensical")
    return build(root / "mkdocs.yml", engine="zensical", cache=False, args=["--clean"])


def _mkdocs(root: Path, *, in_process: bool = False) -> Built:
    return build(root / "mkdocs.yml", strict=True, cache=False, in_process=in_process)


# The book that builds is built by MkDocs in this process (its build, as the CLI runs it, without
# a process start); a build that fails runs the CLI, whose output the tests read.
_SHARED_BUILD = {_mkdocs: functools.partial(_mkdocs, in_process=True)}


@pytest.fixture(scope="module")
def built_by(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., tuple[Path, Built]]:
    """The book built once per engine: the tests that only read it share that build."""
    builds: dict[Callable[..., Built], tuple[Path, Built]] = {}

    def get(engine: Callable[..., Built]) -> tuple[Path, Built]:
        if engine not in builds:
            root = _book(tmp_path_factory.mktemp(engine.__name__.strip("_")))
            builds[engine] = root, _SHARED_BUILD.get(engine, engine)(root)
        return builds[engine]

    return get


@pytest.mark.parametrize("engine", [_mkdocs, _zensical], ids=["mkdocs", "zensical"])
def test_both_engines_build_the_book(engine, built_by) -> None:
    root, done = built_by(engine)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    assert ":::" not in html and "[[" not in html and "$d" not in html
    body = html[html.index('<h1 id="小书">') :]  # the page itself (Zensical's TOC holds HTML too)
    # Numbers and formulas in a directive title and in quiz options render too (not placeholders).
    assert body.count('class="llmbook-num"') == 4 and body.count("<math") == 3
    assert 'class="admonition success llmbook-key"' in html
    figure = re.search(r'<img src="(assets/llmbook/figures/\w+\.svg)" alt="一条线"', html)
    assert figure and (root / "site" / figure.group(1)).is_file()
    for rel in asset_paths():  # linked and shipped
        assert (root / "site" / "assets" / "llmbook" / rel).is_file(), rel
        if not rel.startswith("iframe-worker"):
            assert f"assets/llmbook/{rel}" in html, rel
    assert find_external_loads(root / "site") == []
    assert "wzxhzdk" not in html and "LLMBOOKSTASH" not in html
    # `related` links what the site has (by nav title) and shows the rest as plain chips.
    assert '<a class="llmbook-chip llmbook-chip--link" href="more/two.html"' in body
    assert '<span class="llmbook-chip">不存在的话题</span>' in body


@pytest.mark.parametrize("engine", [_mkdocs, _zensical], ids=["mkdocs", "zensical"])
def test_a_drifted_number_fails_either_engine_at_its_line(engine, tmp_path: Path) -> None:
    done = engine(_book(tmp_path, layers="33"))
    assert done.returncode != 0
    assert "docs/index.md:11: written 33, computed 32" in done.stderr


def test_front_matter_that_is_not_yaml_fails_the_build_at_its_line(tmp_path: Path) -> None:
    """MkDocs keeps such front matter as the page's text (a heading: `chapter: [1`): the build
    stops at the YAML parser's line in the file. (Zensical stops on its own, reading a page's
    metadata; a translation it never reads: tests/plugin/test_zensical_languages.py.)"""
    root = _book(tmp_path)
    page = root / "docs" / "more" / "two.md"
    page.write_text("---\ntitle: 二\nchapter: [1\n---\n# 第二页\n", encoding="utf-8")
    done = build(root / "mkdocs.yml", cache=False)  # without --strict too
    assert done.returncode != 0
    assert (
        "docs/more/two.md:4: the front matter is not valid YAML: did not find expected ',' or "
        "']' (while parsing a flow sequence at line 3) Fix: correct the YAML between the two "
        "`---` lines"
    ) in done.stderr, done.stderr[-3000:]


def test_a_number_in_a_heading_shows_its_value_in_the_toc_and_anchor(built_by) -> None:
    root, done = built_by(_mkdocs)
    assert done.returncode == 0, done.stderr[-3000:]
    html = (root / "site" / "index.html").read_text(encoding="utf-8")
    heading = re.search(r'<h2 id="([^"]+)">每层 <span class="llmbook-num"', html)
    assert heading and heading.group(1) == "每层-32-个-kv-头"
    toc = re.search(
        r'<a href="#每层-32-个-kv-头" class="md-nav__link">\s*<span class="md-ellipsis">\s*每层 32 个 K/V 头',
        html,
    )
    assert toc, "the TOC entry shows the written number"


def test_mkdocs_yml_lists_every_asset_for_zensical() -> None:
    """Zensical links only what mkdocs.yml lists; the MkDocs plugin adds the same list itself."""
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)
    listed = set(config["extra_css"]) | set(config["extra_javascript"])
    listed |= set(config["extra"]["polyfills"])
    book = ROOT / "bookdemos" / "assets"  # the book's demos' (the `demos` option)
    ours = {f"assets/llmbook/{rel}" for rel in asset_paths()}
    assert listed == ours | {f"assets/bookdemos/{rel}" for rel in asset_paths(book)}
    assert "llmbook.extension" in config["markdown_extensions"]


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("", lambda loader, suffix, node: None)


def test_a_directive_error_after_an_executed_output_names_its_true_line(tmp_path: Path) -> None:
    """Outputs inserted after a fence do not shift the lines directives report."""
    root = _book(tmp_path)
    quiz = (
        "---\ntitle: 测验\n---\n\n:::quiz\n问题？\n\n```python\nprint('x')\n```\n\n"
        "A. 甲\nB. 乙\n答案: C\n解析: 因为。\n:::\n"
    )
    (root / "docs" / "index.md").write_text(quiz, encoding="utf-8")
    done = _mkdocs(root)
    assert done.returncode != 0
    assert (
        "docs/index.md:14: quiz answer 'C' is not one of its options A, B "
        "Fix: write one of A, B after 答案:"
    ) in done.stderr


def test_a_warm_zensical_build_runs_and_renders_nothing(tmp_path: Path) -> None:
    """`zensical build --clean` empties `.cache/`: llmbook's cache lives beside it, so the second
    build finds every result and every rendered page, and rewrites none of them."""
    pytest.importorskip("zensical")
    root = _book(tmp_path)

    def build_warm() -> dict[str, int]:
        build(root / "mkdocs.yml", engine="zensical", cache=True, args=["--clean"]).ok()
        cache = root / ".llmbook-cache"
        return {str(p.relative_to(cache)): p.stat().st_mtime_ns for p in cache.rglob("*.json")}

    first = build_warm()
    site = (root / "site" / "index.html").read_bytes()
    assert any(name.startswith("pages/") for name in first) and len(first) >= 3
    assert build_warm() == first  # nothing re-run, nothing re-rendered: no file rewritten
    assert (root / "site" / "index.html").read_bytes() == site


def _fetch(url: str, until, *, timeout: float = 90) -> str:  # noqa: ANN001
    """The page at `url` once `until(page)` holds (a live server rebuilding after an edit)."""
    import time
    import urllib.request

    deadline, text = time.monotonic() + timeout, ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                text = response.read().decode("utf-8")
        except OSError:
            text = ""
        if text and until(text):
            return text
        time.sleep(0.5)
    raise AssertionError(f"{url} never became as expected; last:\n{text[-2000:]}")


def test_zensical_serve_runs_an_edited_page_again_and_shows_its_errors(tmp_path: Path) -> None:
    """Zensical's live preview re-renders an edited page in the same process: the page is run
    again (a drifted number shows in its box, the build's exact text), and is clean once fixed."""
    pytest.importorskip("zensical")
    import socket

    root = _book(tmp_path)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "LLMBOOK_CACHE": "0", "NO_MKDOCS_2_WARNING": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "zensical", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    index = root / "docs" / "index.md"
    try:
        page = _fetch(url, lambda page: 'class="llmbook-num"' in page)
        assert "llmbook-build-error" not in page
        index.write_text(PAGE.replace("LAYERS", "33"), encoding="utf-8")
        page = _fetch(url, lambda page: "llmbook-build-error" in page)
        assert "docs/index.md:11: written 33, computed 32" in page
        index.write_text(PAGE.replace("LAYERS", "32"), encoding="utf-8")
        _fetch(url, lambda page: "llmbook-build-error" not in page and "llmbook-num" in page)
    finally:
        server.terminate()
        server.wait(timeout=30)

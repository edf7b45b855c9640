"""Whole conversions kept between Zensical builds (adapters/zensical/converted.py): a warm
`zensical build --clean` converts no unchanged page, yet its site is byte for byte a fresh
build's (figures and notebooks written, tables of contents kept); what a page was made from
(its text, another page's heading it looked up, a project file its code imported, the book's
words) changing converts it again; a page that warned is converted on every build; an
extension that may keep state of its own keeps the cache off.

Every build runs Zensical's command line in its own process, noting each page it converted."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from sites import build, project_config, write_config, write_pages

pytestmark = pytest.mark.slow

# Zensical's build in this process, printing the pages Python-Markdown converted (the one
# Markdown instance Zensical makes per page holds its context).
_BUILD = """
import sys
import markdown
from zensical.extensions.context import ContextPreprocessor
from zensical.main import cli
converted = []
convert = markdown.Markdown.convert
def counted(self, text):
    context = ContextPreprocessor.from_markdown(self)
    if context is not None:
        converted.append(context.page.path)
    return convert(self, text)
markdown.Markdown.convert = counted
sys.argv = ["zensical", "build", "--clean"]
try:
    cli()
except SystemExit as stop:
    code = stop.code
print("CONVERTED", " ".join(sorted(converted)))
sys.exit(code)
"""

PAGES = {
    "index.md": """\
# 首页

```python
import matplotlib.pyplot as plt
from helper import WORD
fig, ax = plt.subplots(figsize=(2, 1))
ax.plot([1, 2, 3])
ax.set_title("一条线")
print(WORD)
```

:::related
依赖 | 第二页, 细节
:::
""",
    "helper.py": 'WORD = "第一版"\n',
    "two.md": "# 第二页\n\n## 细节\n\n正文。\n",
}

# A Markdown extension that warns while converting a page that asks for it.
_WARNING_EXTENSION = """
import logging
from markdown import Extension
from markdown.preprocessors import Preprocessor

class _Warn(Preprocessor):
    def run(self, lines):
        if any("请警告" in line for line in lines):
            logging.getLogger("MARKDOWN").warning("这一页警告了")
        return lines

class WarnExtension(Extension):
    def extendMarkdown(self, md):
        md.preprocessors.register(_Warn(md), "warn", 100)

def makeExtension(**kwargs):
    return WarnExtension(**kwargs)
"""


def _book(root: Path, extensions: list[str] | None = None, **options: object) -> Path:
    write_pages(root / "docs", PAGES)
    write_pages(root / "locales", {"zh.yml": "demos: {}\n"})  # the book's own words
    (root / "warn_ext.py").write_text(_WARNING_EXTENSION, encoding="utf-8")
    llmbook = {"locales": "locales", "numbers_strict": False, **options}
    config = project_config(
        nav=[{"首页": "index.md"}, {"第二页": "two.md"}],
        plugins=["search", {"llmbook": llmbook}],
    )
    if extensions is not None:
        config["markdown_extensions"] = ["llmbook.extension", "toc", *extensions]
    write_config(root, config)
    return root


def _build(root: Path) -> list[str]:
    """The pages a `zensical build --clean` of `root` converted (its site/ removed first: what
    the build writes, it writes itself)."""
    pytest.importorskip("zensical")
    shutil.rmtree(root / "site", ignore_errors=True)
    done = build(root / "mkdocs.yml", script=_BUILD, cache=root / "cache").ok()
    return re.search(r"^CONVERTED ?(.*)$", done.stdout, re.M).group(1).split()


def _files(site: Path) -> dict[str, bytes]:
    return {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}


def test_a_warm_build_converts_nothing_and_writes_a_fresh_builds_site(tmp_path: Path) -> None:
    root = _book(tmp_path)
    assert _build(root) == ["index.md", "two.md"]
    fresh = _files(root / "site")
    assert "index.ipynb" in fresh and any(n.endswith(".svg") for n in fresh)  # notebook, figure
    assert _build(root) == []
    assert _files(root / "site") == fresh  # byte for byte, every file
    html = fresh["two.html"].decode("utf-8")
    assert 'href="#_1"' in html or 'href="#细节"' in html  # the table of contents, kept

    _book(tmp_path, cache_converted="off")
    assert _build(root) == ["index.md", "two.md"]
    assert _files(root / "site") == fresh


def test_what_a_page_was_made_from_converts_it_again(tmp_path: Path) -> None:
    root = _book(tmp_path)
    _build(root)
    (root / "docs" / "two.md").write_text("# 第二页\n\n## 细节\n\n正文，改了。\n", "utf-8")
    assert _build(root) == ["two.md"]
    # where the heading index.md's :::related looked up now is
    (root / "docs" / "two.md").write_text("# 第二页\n\n## 细节 {#details}\n\n正文。\n", "utf-8")
    assert _build(root) == ["index.md", "two.md"]
    assert "two.html#details" in (root / "site" / "index.html").read_text("utf-8")
    (root / "docs" / "helper.py").write_text('WORD = "第二版"\n', "utf-8")  # its code's import
    assert _build(root) == ["index.md"]
    assert "第二版" in (root / "site" / "index.html").read_text("utf-8")
    (root / "locales" / "zh.yml").write_text("demos: {x: {y: 字}}\n", "utf-8")  # the words
    assert _build(root) == ["index.md", "two.md"]


def test_a_page_that_warns_while_converting_is_converted_every_build(tmp_path: Path) -> None:
    root = _book(tmp_path, extensions=["warn_ext"], cache_converted="on")
    (root / "docs" / "two.md").write_text("# 第二页\n\n请警告。\n", "utf-8")
    assert _build(root) == ["index.md", "two.md"]
    assert _build(root) == ["two.md"]


def test_auto_leaves_the_cache_off_for_an_extension_it_cannot_vouch_for(tmp_path: Path) -> None:
    root = _book(tmp_path, extensions=["pymdownx.snippets"])
    assert _build(root) == ["index.md", "two.md"]
    assert _build(root) == ["index.md", "two.md"]

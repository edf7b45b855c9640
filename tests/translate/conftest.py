"""A small two-language book in the test's tmp_path: `docs/x.md` (Chinese, the book's own) and
its English translation `docs/x.en.md`, a Chinese config (mkdocs.yml: `languages: [zh, en]`,
`translations_strict: true`) and an English one (mkdocs.en.yml INHERITs it: `theme.language:
en`, site/en), as the repository's mkdocs.en.yml does. Builds run in this process and share one
execution cache (tmp_path/cache), as `nox -s docs` builds the two editions."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from llmbook.translate.__main__ import main
from mkdocs.exceptions import Abort, PluginError
from sites import Built, build, write_config, write_pages

OPTIONS = {
    "offline_check": False,
    "numbers_strict": True,
    "languages": ["zh", "en"],
    "translations_strict": True,
}
EN_CONFIG = """\
INHERIT: mkdocs.yml
theme:
  language: en
site_dir: site/en
"""

# The source: two numbered sections with code and bound numbers.
SOURCE = """\
# 利息 {#interest}

## 1. 简单 {#simple}

```python
# 两年的利息
x = 1 + 1
```

结果是 [[x = 2]]。

## 2. 翻倍 {#doubling}

翻倍需要 [[x * 2 = 4]] 年。
"""
# Its translation: the same headings (level, number, id), code (comments translated), numbers.
TRANSLATION = """\
# Interest {#interest}

## 1. Simple {#simple}

```python
# two years of interest
x = 1 + 1
```

The result is [[x = 2]].

## 2. Doubling {#doubling}

Doubling takes [[x * 2 = 4]] years.
"""


@dataclass
class Book:
    root: Path
    caplog: pytest.LogCaptureFixture

    def write_config(self, **options: object) -> None:
        """mkdocs.yml with these llmbook options over OPTIONS, and mkdocs.en.yml."""
        config = {
            "site_name": "t",
            "use_directory_urls": False,
            "theme": {"name": "mkdocs", "language": "zh"},
            "plugins": [{"llmbook": {**OPTIONS, **options}}],
            "markdown_extensions": ["llmbook.extension", "pymdownx.superfences", "attr_list"],
        }
        write_config(self.root, config)
        (self.root / "mkdocs.en.yml").write_text(EN_CONFIG, encoding="utf-8")

    def write(self, pages: Mapping[str, str | bytes]) -> None:
        write_pages(self.root / "docs", pages)

    def config(self, language: str) -> Path:
        return self.root / ("mkdocs.yml" if language == "zh" else "mkdocs.en.yml")

    def build(self, language: str = "en", **options) -> Built:
        """The edition in `language`, built in this process; the shared cache unless told."""
        options.setdefault("cache", self.root / "cache")
        options.setdefault("in_process", True)
        return build(self.config(language), **options)

    def errors(self, language: str = "en", **options) -> list[str]:
        """The errors the build of `language` stops with, one per line, as the report says."""
        with pytest.raises(Abort) as raised:
            self.build(language, **options)
        report = raised.value.__context__
        assert isinstance(report, PluginError), raised.value
        return [line for line in str(report).splitlines() if line.startswith("docs/")]

    def cli(self, *argv: str) -> tuple[int, str, str]:
        """`python -m llmbook.translate ARGV` run in the book's folder: exit status, stdout,
        stderr."""
        out, err = io.StringIO(), io.StringIO()
        with pytest.MonkeyPatch.context() as patch:
            patch.chdir(self.root)
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(list(argv))
        return status, out.getvalue(), err.getvalue()

    def mark(self, src: str = "docs/x.en.md") -> None:
        status, out, err = self.cli("mark", src)
        assert status == 0 and f"{src}: marked" in out, err

    def read(self, src: str) -> str:
        return (self.root / src).read_text(encoding="utf-8")


@pytest.fixture
def book(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> Iterator[Book]:
    """The two-language book, its translation marked as current."""
    made = Book(tmp_path, caplog)
    made.write_config()
    made.write({"index.md": "# 首页\n", "x.md": SOURCE, "x.en.md": TRANSLATION})
    made.mark()
    yield made

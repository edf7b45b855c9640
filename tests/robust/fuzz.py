"""The fuzzer's harness: the book's project (its pages, notebook, glossary, bibliography and
options, plus the seed chapter and a small page written for it) in a folder, one file of it
mutated (mutations.py), built in this process, and the outcome sorted into a class.

    project = FuzzProject.make(folder)      # the book copied; its results cached once
    outcome = project.build_with(target, mutated_text)

Outcomes: "built", "author error" (the build stopped, and every error it printed names a file:
`docs/…`, `mkdocs.yml`), or a bug: "traceback: <type>" (an exception escaped the build),
"unnamed error" (an error naming no file), "internal error" (our last resort caught a bug), or
"hang" (no outcome within HANG_SECONDS).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
import shutil
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from sites import ROOT, build, project_config, write_config

__all__ = ["BUGS", "FuzzProject", "Outcome", "TARGETS"]

HANG_SECONDS = 120
SEED = ROOT / "tests" / "data" / "seed_000.txt"
# What a mutation may target: (kind, path under the project); the weights favour cheap pages.
TARGETS = [
    ("page", "docs/seed.md"), ("page", "docs/seed.md"), ("page", "docs/small.md"),
    ("page", "docs/small.md"), ("page", "docs/index.md"), ("page", "docs/glossary.md"),
    ("page", "docs/guide/authoring.md"), ("page", "docs/chapters/ch10-modern-llm.md"),
    ("page", "docs/lessons/lesson03-five-upgrades.md"), ("notebook", "docs/small.ipynb"),
    ("notebook", "docs/small.ipynb"), ("bib", "docs/references.bib"),
    ("glossary", "docs/glossary.yml"), ("options", "mkdocs.yml"), ("options", "mkdocs.yml"),
]  # fmt: skip
BUGS = ("traceback", "unnamed error", "internal error", "hang")
SMALL_PAGE = """\
# 小页

## 1 计算 {#calc}

```python
def f():
    a = 1

    return a
print(f())
```

f 是 [[f() = 1]]，二倍是 [[2 * f() = 2]]，引用 [[2.1 @shazeer2020glu]]，示意 [[~3]]。见[1 节](#calc)。

$$
y = x^2
$$

:::warning 注意
{term}`GQA` 与 [@shazeer2020glu]。
:::
"""
SMALL_NOTEBOOK = {
    "cells": [
        {
            "cell_type": "markdown",
            "metadata": {},
            "source": "# 笔记本\n\n```python\nnot_run()\n```",
        },
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": "x = 3\nprint(x)",
        },  # fmt: skip
        {"cell_type": "markdown", "metadata": {}, "source": "x 是 [[x = 3]]。"},
    ],
    "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}
# Options as the book sets them, and what keeps each build small: no search, no offline check.
OPTIONS = {
    "numbers_strict": True,
    "offline_check": False,
    "execute_timeout": 60,
    "demos": ["bookdemos"],  # the book's demos, as mkdocs.yml registers them
    "language": "zh",  # its language, and its own words (the demos')
    "locales": str(ROOT / "locales"),
}
_NAMES_A_FILE = re.compile(r"(?:^|\s|')(?:docs/\S+|mkdocs\.yml)")


@dataclass(frozen=True)
class Outcome:
    kind: str  # "built", "author error", or one of BUGS
    message: str = ""
    seconds: float = 0.0

    @property
    def is_bug(self) -> bool:
        return self.kind.split(":")[0] in BUGS


@dataclass
class FuzzProject:
    root: Path
    cache: Path
    originals: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def make(cls, root: Path) -> FuzzProject:
        """The book laid out under `root`, built once (the results cache filled)."""
        # The book's pages, not its translations: OPTIONS names no `languages`, so a translation
        # would be a page of its own, its numbers unchecked.
        shutil.copytree(ROOT / "docs", root / "docs", ignore=shutil.ignore_patterns("*.en.*"))
        (root / "docs" / "seed.md").write_text(
            "---\nexecute: false\nnumbers: report\n---\n" + SEED.read_text(encoding="utf-8"),
            encoding="utf-8",
        )
        (root / "docs" / "small.md").write_text(SMALL_PAGE, encoding="utf-8")
        notebook = json.dumps(SMALL_NOTEBOOK, ensure_ascii=False)
        (root / "docs" / "small.ipynb").write_text(notebook, encoding="utf-8")
        project = cls(root, root / "cache")
        project.write_options(OPTIONS)
        project.originals = {p: (root / p).read_bytes() for _, p in TARGETS}
        first = project.build()
        assert first.kind == "built", first.message
        return project

    def text(self, path: str) -> str:
        return self.originals[path].decode("utf-8")

    def options(self) -> dict:
        return dict(OPTIONS)

    def write_options(self, options: dict) -> None:
        # The project's mkdocs.yml (INHERIT), its plugins replaced: no search, no offline plugin.
        write_config(self.root, project_config(self.root / "docs", plugins=[{"llmbook": options}]))

    def build_with(self, path: str, content: str | dict) -> Outcome:
        """The project built with `path` replaced (options: a dict), then restored."""
        try:
            if path == "mkdocs.yml":
                assert isinstance(content, dict)
                self.write_options(content)
            else:
                (self.root / path).write_bytes(str(content).encode("utf-8", "surrogatepass"))
            return self.build()
        finally:
            for original, data in self.originals.items():
                if original != "mkdocs.yml":
                    (self.root / original).write_bytes(data)
            self.write_options(OPTIONS)

    def build(self) -> Outcome:
        start = time.perf_counter()
        with _errors_logged() as errors, _alarm(HANG_SECONDS):
            try:
                build(self.root / "mkdocs.yml", in_process=True, cache=self.cache, cwd=ROOT)
            except _Hang:
                return Outcome("hang", "", time.perf_counter() - start)
            except Exception as error:  # sorted below: an author error or a bug
                return _classify(error, errors, time.perf_counter() - start)
        return Outcome("built", "", time.perf_counter() - start)


def _classify(error: Exception, errors: list[str], seconds: float) -> Outcome:
    from mkdocs.exceptions import Abort, ConfigurationError

    # MkDocs' own check of mkdocs.yml: it names the setting (`Config value 'plugins': …`).
    if isinstance(error, ConfigurationError) or any(e.startswith("Config value") for e in errors):
        return Outcome("author error", f"mkdocs.yml: {error} {errors}", seconds)
    if not isinstance(error, Abort):
        return Outcome(f"traceback: {type(error).__name__}", f"{error}"[:2000], seconds)
    text = "\n".join(errors)
    if "internal error in llmbook" in text:
        return Outcome("internal error", text[:2000], seconds)
    if not errors or not all(
        _NAMES_A_FILE.search(e) for e in errors if not e.startswith("Error reading page")
    ):
        return Outcome("unnamed error", text[:2000] or str(error), seconds)
    return Outcome("author error", text[:2000], seconds)


class _Hang(BaseException):  # not an Exception: no guard of ours may catch it
    pass


@contextlib.contextmanager
def _alarm(seconds: int) -> Iterator[None]:
    def ring(signum: int, frame: object) -> None:
        raise _Hang

    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _errors_logged() -> Iterator[list[str]]:
    """The messages MkDocs and its plugins log at ERROR while the block runs."""
    found: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.ERROR:
                found.append(record.getMessage())

    handler = Keep()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(handler)
    try:
        yield found
    finally:
        logger.removeHandler(handler)

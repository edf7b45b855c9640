"""The last resort: an exception that is no author error (a bug of llmbook's, planted here) is
that page's one error, naming the stage, with its traceback in a file to report. The build
fails without a Python traceback, and the other pages still report."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sites import build, write_config, write_pages

CONFIG = {
    "site_name": "Internal",
    "theme": {"name": "material", "font": False},
    "plugins": [{"llmbook": {"offline_check": False}}],
    "markdown_extensions": ["pymdownx.superfences", "llmbook.extension"],
}
PAGES = {
    "index.md": "# Home\n\n```python\nx = 2\n```\n\nx is [[x = 3]].\n",
    "b.md": "# B\n\n```python\ny = 1\n```\n\ny is [[y = 1]].\n",
}
# Runs MkDocs with a bug planted in one llmbook stage, for page docs/b.md only.
PLANT = """\
import sys
import {module} as stage
real = stage.{name}
def planted(*args, **kwargs):
    if "b.md" in repr(args) + repr(kwargs):
        raise RuntimeError("planted bug\\nsecond line")
    return real(*args, **kwargs)
stage.{name} = planted
from mkdocs.__main__ import cli
cli(["build", "--strict", "-f", sys.argv[1], "-d", sys.argv[2]])
"""
CRASH = re.compile(
    r"\(traceback written to (\.llmbook-cache/crash-[0-9a-f]{12}\.txt); please report it\)"
)


@pytest.mark.parametrize(
    ("module", "name", "stage"),
    [
        ("llmbook.execute.stages.executor", "plan_page", "checking the page"),
        ("llmbook.site.site", "render_math", "rendering the page"),
    ],
)
def test_a_bug_of_ours_is_one_error_of_its_page(
    module: str, name: str, stage: str, tmp_path: Path
) -> None:
    # A drift on the other page stops the build before any render: only where the bug comes first.
    drift = stage == "checking the page"
    write_pages(
        tmp_path / "docs",
        {**PAGES, "index.md": PAGES["index.md"].replace("3", "3" if drift else "2")},
    )
    config = write_config(tmp_path, CONFIG)
    built = build(
        config, site=tmp_path / "site", cache=False, script=PLANT.format(module=module, name=name)
    )
    assert built.returncode != 0
    assert "Traceback" not in built.stderr
    shown = [line.removeprefix("ERROR   -  ") for line in built.stderr.splitlines()]
    lines = [line for line in shown if line.startswith("docs/b.md")]
    assert len(lines) == 1, built.stderr[-3000:]
    head = f"docs/b.md: internal error in llmbook while {stage}: RuntimeError: planted bug "
    assert lines[0].split(head)[-1] != lines[0], lines[0]
    found = CRASH.search(lines[0])
    assert found is not None, lines[0]
    crash = (tmp_path / found.group(1)).read_text(encoding="utf-8")
    assert crash.startswith(f"docs/b.md: while {stage}\n") and "Traceback" in crash
    assert "RuntimeError: planted bug\nsecond line" in crash
    if drift:  # the other page's error is still reported, once
        assert built.stderr.count("docs/index.md:7: written 3, computed 2") == 1

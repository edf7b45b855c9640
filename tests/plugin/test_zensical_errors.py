"""Under Zensical a failing build reads as under MkDocs (adapters/zensical/errors.py): the report's
text once on stderr, exactly MkDocs' (after its `ERROR   -  `), no Python traceback, no "No issues
found", exit status 1. A bug of llmbook's keeps its internal-error form, its traceback in a file."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from sites import ROOT, Built, build

pytestmark = pytest.mark.slow
pytest.importorskip("zensical")

DRIFT = """\
# Small

```python hidden
x = 32
```

There are [[x = 33]] heads.
"""
# A misspelt citation and a raising block: one report of both, as MkDocs prints it.
FAULTS = """\
# Small

There are two faults, as [@vaswani2017] wrote.

```python
y = 1 / 0
```
"""
BIB = "@article{vaswani2017attention,\n  title = {Attention},\n  author = {Vaswani, A.},\n  year = {2017},\n}\n"
# Runs Zensical's own command line with a bug planted in one llmbook function.
PLANT = """\
import sys
import {module} as stage
real = stage.{name}
def planted(*args, **kwargs):
    raise RuntimeError("planted bug\\nsecond line")
stage.{name} = planted
sys.argv = ["zensical", "build", "--clean"]
from zensical.main import cli
cli()
"""
CRASH = re.compile(
    r"\(traceback written to (\.llmbook-cache/crash-[0-9a-f]{12}\.txt); please report it\)"
)


def _book(root: Path, page: str) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "index.md").write_text(page, encoding="utf-8")
    (docs / "two.md").write_text("# Two\n\nProse.\n", encoding="utf-8")
    (docs / "references.bib").write_text(BIB, encoding="utf-8")
    config = {"INHERIT": str(ROOT / "mkdocs.yml"), "nav": ["index.md", "two.md"]}
    (root / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    (root / "locales").symlink_to(ROOT / "locales", target_is_directory=True)
    return root / "mkdocs.yml"


def _zensical(config: Path, script: str | None = None) -> Built:
    return build(config, engine="zensical", cache=False, args=["--clean"], script=script)


def _mkdocs_report(config: Path) -> str:
    """The error MkDocs prints: its text after `ERROR   -  ` (its `Aborted` line goes to stdout)."""
    done = build(config, cache=False)
    assert done.returncode == 1 and "Aborted with a BuildError!" in done.stdout
    return done.stderr.split("ERROR   -  ", 1)[1].rstrip("\n") + "\n"


def test_a_drifted_number_ends_the_build_with_its_report_alone(tmp_path: Path) -> None:
    done = _zensical(_book(tmp_path, DRIFT))
    assert done.returncode == 1
    assert done.stdout == "Build started\n"  # no "Build finished"
    assert done.stderr == (
        "1 written number differs from the computation:\n"
        "docs/index.md:7: written 33, computed 32\n"
        "Fix: correct the written values, or run `python -m llmbook update-numbers` to rewrite "
        "them to the computed ones and review the diff.\n"
    )


def test_a_citation_and_a_raising_block_read_as_under_mkdocs(tmp_path: Path) -> None:
    config = _book(tmp_path, FAULTS)
    done = _zensical(config)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "No issues found" not in done.stderr
    assert done.stderr.startswith(
        "1 page failed with 2 errors:\n"
        "docs/index.md:3: [@vaswani2017] cites vaswani2017, which is no entry of "
        "docs/references.bib Fix: cite one of @vaswani2017attention, or add the entry "
        "vaswani2017 to docs/references.bib\n"
        "docs/index.md:6: ZeroDivisionError: division by zero (python block at line 5)\n"
    )
    assert done.stderr == _mkdocs_report(config)


@pytest.mark.parametrize(
    ("module", "name", "src", "stage"),
    [
        # inside the page pipeline, guarded by the core (core/crash.py)
        ("llmbook.site.site", "render_math", "docs/index.md", "rendering the page"),
        # in the adapter itself, or in the extension: the Zensical entry's own last resort
        (
            "llmbook.adapters.zensical.adapter",
            "_site_index",
            "docs/index.md",
            "building the site with Zensical",
        ),
        (
            "llmbook.site.core_extension",
            "with_download",
            "docs/index.md",
            "building the site with Zensical",
        ),
    ],
)
def test_a_bug_of_ours_is_an_internal_error_with_its_traceback_in_a_file(
    module: str, name: str, src: str, stage: str, tmp_path: Path
) -> None:
    config = _book(tmp_path, DRIFT.replace("33", "32"))
    done = _zensical(config, script=PLANT.format(module=module, name=name))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "No issues found" not in done.stderr
    head = f"{src}: internal error in llmbook while {stage}: RuntimeError: planted bug "
    assert done.stderr.startswith(head) and done.stderr.count("\n") == 1, done.stderr
    found = CRASH.search(done.stderr)
    assert found is not None, done.stderr
    crash = (tmp_path / found.group(1)).read_text(encoding="utf-8")
    assert crash.startswith(f"{src}: while {stage}\n") and "Traceback" in crash
    assert "RuntimeError: planted bug\nsecond line" in crash


STOP_FROM_THREADS = """\
import threading
from llmbook.adapters.zensical.errors import stopped
from llmbook.core.errors import LLMBookError

ready = threading.Barrier(8)
def fail(n):
    ready.wait()
    stopped(LLMBookError(f"docs/p{n}.md:1: the report"))
threads = [threading.Thread(target=fail, args=(n,)) for n in range(8)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print("not reached")
"""


def test_pages_failing_on_several_threads_print_one_report() -> None:
    """Zensical may render pages on several threads: the first error ends the process, alone."""
    done = subprocess.run(
        [sys.executable, "-c", STOP_FROM_THREADS], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1 and done.stdout == ""
    assert re.fullmatch(r"docs/p\d\.md:1: the report\n", done.stderr), done.stderr

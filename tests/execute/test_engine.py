"""The execution engine: isolation, hard limits that hold for native code, crashes, output caps,
undecodable pages and one complete report. Each page runs in its own worker process."""

from __future__ import annotations

import re
import time

import pytest
from llmbook.core.errors import AuthorError
from mkdocs.exceptions import Abort

_FIX_DIED = (
    "Fix: a page must not end or crash its own process (os._exit, a segfault); if it ran out of "
    "memory, make it smaller or raise `execute_memory_mb` in mkdocs.yml"
)


@pytest.fixture(scope="module")
def started_workers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Page processes fork from one server per test process, started (torch imported) by the
    first page it runs: started here, so a test that times a page times the page alone."""
    from llmbook.core.project import Project
    from llmbook.execute import Executor

    from .conftest import make_config

    root = tmp_path_factory.mktemp("started")
    executor = Executor(make_config(cache=False), Project.at(root))
    executor.run_page("```python\nx = 1\n```\n", src="docs/warm.md")


def _fails(run_md, page: str, **options: object) -> tuple[str, float]:
    start = time.monotonic()
    with pytest.raises(AuthorError) as error:
        run_md(page, **options)
    return str(error.value), time.monotonic() - start


def test_os_exit_fails_the_page_and_names_the_block(run_md) -> None:
    text, _ = _fails(
        run_md, "# 页\n\n```python\nx = 1\n```\n\n```python\nimport os\nos._exit(0)\n```\n"
    )
    assert text == (
        "docs/page.md:7: the page's worker process exited with code 0 without finishing "
        "(os._exit or a native exit) while running the python block at line 7 " + _FIX_DIED
    )


def test_a_segfault_fails_the_page(run_md) -> None:
    text, _ = _fails(run_md, "```python\nimport ctypes\nctypes.string_at(0)\n```\n")
    assert text.startswith(
        "docs/page.md:1: the page's worker process was killed by SIGSEGV while running "
        "the python block at line 1 "
    )


def test_sys_exit_is_an_error_of_its_block(run_md) -> None:
    text, _ = _fails(run_md, "```python\nimport sys\nsys.exit(3)\n```\n")
    assert text.startswith("docs/page.md:3: SystemExit: 3 (python block at line 1)")


@pytest.mark.timing
@pytest.mark.usefixtures("started_workers")
def test_a_loop_inside_native_code_is_killed_in_time(run_md) -> None:
    # sum(iter(int, 1)) never returns to the interpreter: only killing the process stops it.
    text, seconds = _fails(run_md, "```python\nsum(iter(int, 1))\n```\n", execute_timeout=1)
    assert text == (
        "docs/page.md:1: block timed out after 1 s "
        "Fix: make it faster, or raise `execute_timeout` (seconds) in mkdocs.yml"
    )
    assert seconds < 1 + 2


@pytest.mark.timing
@pytest.mark.usefixtures("started_workers")
def test_a_long_sleep_is_cut_at_the_timeout(run_md) -> None:
    page = "```python\nx = 1\n```\n\n```python\nimport time\ntime.sleep(30)\n```\n"
    text, seconds = _fails(run_md, page, execute_timeout=1)
    assert text.startswith("docs/page.md:5: block timed out after 1 s ")
    assert seconds < 1 + 2


@pytest.mark.timing
@pytest.mark.usefixtures("started_workers")
def test_a_bound_expression_has_the_same_limit(run_md) -> None:
    page = "```python\nimport time\n```\n\n慢 [[time.sleep(30) or 1 = 1]]。\n"
    text, seconds = _fails(run_md, page, execute_timeout=1)
    assert text.startswith("docs/page.md:5: [[time.sleep(30) or 1 = 1]] timed out after 1 s ")
    assert seconds < 1 + 2


@pytest.mark.timing
@pytest.mark.usefixtures("started_workers")
def test_the_page_limit_counts_every_block(run_md) -> None:
    # Blocks at lines 1, 6, 11, 16, two seconds each: the third runs from 4 s to 6 s, so the
    # 5 s limit falls inside it with a second to spare either way (a slow CI start counts too).
    block = "```python\nimport time\ntime.sleep(2)\n```\n\n"
    text, seconds = _fails(run_md, block * 4, execute_timeout=5, execute_page_timeout=5)
    assert text == (
        "docs/page.md:11: page timed out after 5 s while running the python block at line 11 "
        "Fix: make the page faster, or raise `execute_page_timeout` (seconds) in mkdocs.yml"
    )
    assert seconds < 5 + 2


def test_memory_is_capped_for_native_allocations(run_md) -> None:
    page = "```python\nimport torch\nx = torch.empty(2**30, dtype=torch.float64)\n```\n"
    text, _ = _fails(run_md, page, execute_memory_mb=4096)
    assert "docs/page.md:3: " in text and "memory" in text.lower()
    assert text.endswith("raise `execute_memory_mb` (the page process's cap) in mkdocs.yml") or (
        "RuntimeError" in text and "allocate" in text
    )


def test_printed_output_is_capped_and_the_cut_is_said(run_md, caplog) -> None:
    import logging

    page = "```python\nprint('x' * 5000)\nprint('end')\n```\n"
    with caplog.at_level(logging.INFO):
        plan = run_md(page, execute_output_limit=1000)
    block = plan.result.blocks[0]
    assert block.output == "x" * 1000 and block.cut == 5005 - 1000
    assert "docs/page.md:1: output cut after 1000 characters (4005 more not shown; " in caplog.text
    from .conftest import render

    html, _ = render(plan, page)
    assert "输出过长，后面的 4,005 个字符未显示" in html


def test_an_undecodable_page_names_the_byte_and_line(run_md) -> None:
    with pytest.raises(AuthorError) as error:
        run_md(b"# \xe6\xa0\x87\xe9\xa2\x98\n\nok\n\xff here\n")
    assert str(error.value) == (
        "docs/page.md:4: the file is not valid UTF-8: byte 13 (0xff) cannot be decoded "
        "(invalid start byte) Fix: save the file as UTF-8"
    )


def test_nothing_leaks_from_one_page_to_the_next(make_executor) -> None:
    polluter = (
        "```python\nimport os, torch, llmkit\ntorch.set_default_dtype(torch.float64)\n"
        "torch.manual_seed(123)\nos.environ['LLMBOOK_LEAK'] = '1'\nos.chdir('/')\n"
        "llmkit.kv_cache_bytes = lambda *a, **k: 0\n```\n"
    )
    checker = (
        "```python\nimport os, torch\n```\n\n"
        "[[torch.ones(1).element_size() = 4]] [[torch.rand(1).item() = 0.4963]] "
        "[[int('LLMBOOK_LEAK' in os.environ) = 0]] [[kv_cache_bytes(1, 1, 1, 1) = 4]] "
        "[[int(os.path.basename(os.getcwd()).startswith('llmbook-page-')) = 1]]\n"
    )
    pages = [("docs/a.md", polluter), ("docs/b.md", checker)]
    for options in ({"cache": False}, {"cache": True}, {"cache": True}):
        for workers in (1, 2):
            report = make_executor(execute_workers=workers, **options).run_pages(pages)
            assert report.failures == [] and report.mismatches == []
            assert report.plans["docs/b.md"].count == 5


def test_one_report_lists_every_failing_page_and_every_drifted_number(make_executor) -> None:
    from llmbook.execute import BuildFailed

    pages = [
        ("docs/a.md", "```python\nx = 1 / 0\n```\n"),
        ("docs/b.md", "```python\nimport os\nos._exit(1)\n```\n"),
        ("docs/c.md", "```python\nx = 0.5\n```\n\n一半 [[x = 0.6]]，还是 [[x = 50%]]。\n"),
        ("docs/d.md", b"\xff\n"),
        ("docs/e.md", "```python\nwhile True: pass\n```\n"),
        ("docs/f.md", "```python\nx = 2\n```\n\n[[x = 3]]\n"),
    ]
    report = make_executor(cache=False, execute_timeout=1).run_pages(pages)
    with pytest.raises(BuildFailed) as error:
        report.raise_if_failed()
    lines = str(error.value).split("\n")
    assert lines[0] == "4 pages failed:"
    assert lines[1].startswith("docs/a.md:2: ZeroDivisionError: division by zero")
    heads = [line.split(" ")[0] for line in lines if line.startswith("docs/")]
    assert heads == ["docs/a.md:2:", "docs/b.md:1:", "docs/d.md:1:", "docs/e.md:1:"] + [
        "docs/c.md:5:",
        "docs/f.md:5:",
    ]
    assert "2 written numbers differ from the computation:" in lines
    assert "docs/c.md:5: written 0.6, computed 0.5" in lines
    assert "docs/f.md:5: written 3, computed 2" in lines


def test_the_build_reports_everything_then_fails(build_site, monkeypatch, caplog) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    pages = {
        "a.md": "```python\nimport os\nos._exit(0)\n```\n",
        "b.md": b"ok\n\xc3\x28\n",
        "c.md": "```python\nx = 2\n```\n\n[[x = 3]]\n",
        "d.md": "```python\nx = 2\n```\n\n[[x = 2]]\n",
    }
    with pytest.raises(Abort):
        build_site(pages)
    text = caplog.text
    assert "docs/a.md:1: the page's worker process exited with code 0 " in text
    assert "docs/b.md:2: the file is not valid UTF-8: byte 3 (0xc3)" in text
    assert "docs/c.md:5: written 3, computed 2" in text


def test_parallel_and_serial_builds_are_byte_identical(build_site, caplog) -> None:
    import logging

    from .test_site import PAGES, _files

    pages = dict(PAGES)
    pages["more.md"] = "```python\nimport torch\nprint(torch.arange(3))\n```\n\n[[2 * 3 = 6]]\n"

    def build(site: str, workers: int) -> tuple[dict[str, bytes], list[str]]:
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="mkdocs.plugins.llmbook"):
            files = _files(build_site(pages, site=site, cache=False, execute_workers=workers))
        return files, [
            r.getMessage() for r in caplog.records if r.name.startswith("mkdocs.plugins.llmbook")
        ]

    serial, serial_log = build("one", 1)
    parallel, parallel_log = build("two", 2)
    assert serial == parallel and serial_log == parallel_log
    assert (
        "llmbook: docs/more.md: ran in a worker process; numbers: 1 checked, 0 cited, "
        "0 illustrative, 0 structural, 0 unaccounted"
    ) in serial_log


@pytest.mark.slow
def test_concurrent_exits_each_report_their_own_status(tmp_path) -> None:
    """A forkserver child's status can be read once: a start in one thread used to poll (and
    consume) another thread's child, which then read EOF and reported 255. Many pages exiting
    at once, several threads: each reports exactly its own code."""
    from llmbook.core.lexer import lex
    from llmbook.execute.stages.collect import collect_page
    from llmbook.execute.stages.engine import Engine, Limits

    pages = [
        collect_page(
            lex(f"```python\nimport os\nos._exit({n % 3})\n```\n"),
            src=f"docs/p{n}.md",
            meta={},
        )
        for n in range(90)
    ]
    engine = Engine(workers=4, limits=Limits(block_timeout=60), seed=0, root=str(tmp_path))
    outcomes = engine.run(pages)
    codes = [re.search(r"exited with code (\d+)", str(o.error)).group(1) for o in outcomes]
    assert codes == [str(n % 3) for n in range(90)]


def test_a_page_killed_by_sigkill_is_named_so(run_md) -> None:
    # what the OOM killer sends: the page's process dies of it, and so does its watcher
    text, _ = _fails(
        run_md, "```python\nimport os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n```\n"
    )
    assert text.startswith(
        "docs/page.md:1: the page's worker process was killed by SIGKILL (out of memory?) while "
        "running the python block at line 1 "
    )

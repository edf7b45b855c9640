"""Page code cannot harm the project: writes confined to the page's scratch, temp and cache
directories (Landlock), file sizes capped, every process the page started ended with the page."""

from __future__ import annotations

import logging
import os
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.core.lexer import lex
from llmbook.execute.sandbox.landlock import confine, landlock_abi
from llmbook.execute.sandbox.sandbox import scratch_plan

needs_landlock = pytest.mark.skipif(landlock_abi() == 0, reason="this kernel has no Landlock")

_FIX_WRITE = (
    "Fix: a page may write only in its working directory (a fresh folder, removed after the "
    "page), the temp directory and the user's cache directory, never in the project or the site"
)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# 别的页\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n", encoding="utf-8")
    return tmp_path


def _page(code: str) -> str:
    return "# 页\n\n```python\n" + textwrap.dedent(code).strip() + "\n```\n"


def _refused(make_executor, code: str, **options: object) -> str:
    with pytest.raises(AuthorError) as error:
        make_executor(cache=False, **options).run_page(_page(code), src="docs/page.md")
    return str(error.value)


@needs_landlock
def test_appending_to_another_page_fails_at_its_line(make_executor, project: Path) -> None:
    target = project / "docs" / "other.md"
    text = _refused(make_executor, f"x = 1\nopen({str(target)!r}, 'a').write('坏')\n")
    assert text.startswith(
        f"docs/page.md:5: PermissionError: [Errno 13] Permission denied: '{target}' "
        "(python block at line 3)\n"
    )
    assert text.endswith(_FIX_WRITE)
    assert target.read_text(encoding="utf-8") == "# 别的页\n"


@needs_landlock
def test_removing_the_config_fails(make_executor, project: Path) -> None:
    code = f"import os\nos.chdir({str(project)!r})\nos.remove('mkdocs.yml')\n"
    text = _refused(make_executor, code)
    assert text.startswith("docs/page.md:6: PermissionError: [Errno 13] Permission denied: ")
    assert (project / "mkdocs.yml").read_text(encoding="utf-8") == "site_name: t\n"


@needs_landlock
@pytest.mark.parametrize("how", ["open(path, 'w')", "os.truncate(path, 0)"])
def test_truncating_a_project_file_by_absolute_path_fails(
    make_executor, project: Path, how: str
) -> None:
    config = project / "mkdocs.yml"
    text = _refused(make_executor, f"import os\npath = {str(config)!r}\n{how}\n")
    assert text.startswith("docs/page.md:6: PermissionError: [Errno 13] Permission denied: ")
    assert config.read_text(encoding="utf-8") == "site_name: t\n"


@needs_landlock
def test_the_site_directory_outside_the_project_is_protected(tmp_path: Path) -> None:
    from llmbook.execute.stages.collect import collect_page
    from llmbook.execute.stages.engine import Engine, Limits

    site = tmp_path / "elsewhere" / "site"
    site.mkdir(parents=True)
    code = f"open({str(site / 'index.html')!r}, 'w')"
    page = collect_page(lex(_page(code)), src="docs/page.md", meta={})
    engine = Engine(
        workers=1, limits=Limits(), seed=0, root=str(tmp_path / "project"), site_dir=str(site)
    )
    (outcome,) = engine.run([page])
    (raised,) = outcome.result.raised
    assert str(raised.error(page)).startswith("docs/page.md:4: PermissionError: [Errno 13] ")
    assert not (site / "index.html").exists()


def test_scratch_temp_cache_and_devices_stay_writable(make_executor, project, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(project.parent / f"{project.name}-cache"))
    code = """
        import os, subprocess, tempfile
        here = os.getcwd()
        open('notes.txt', 'w').write('scratch')
        os.makedirs('out/deep')
        with tempfile.NamedTemporaryFile('w', delete=False) as handle:
            handle.write('temp')
        cache = os.path.join(os.environ['XDG_CACHE_HOME'], 'llmbook-test')
        os.makedirs(cache, exist_ok=True)
        open(os.path.join(cache, 'c.txt'), 'w').write('cache')
        subprocess.run(['true'], stdout=subprocess.DEVNULL, check=True)
        open('/dev/zero', 'wb').write(b'x')  # a device (a GPU driver's) opened for writing
        print(sorted(os.listdir(here)))
    """
    plan = make_executor(cache=False).run_page(_page(code), src="docs/page.md")
    assert "'notes.txt', 'out'" in plan.result.blocks[0].output
    cache = project.parent / f"{project.name}-cache" / "llmbook-test" / "c.txt"
    assert cache.read_text(encoding="utf-8") == "cache"


def test_each_page_gets_a_fresh_scratch_directory_removed_after_it(make_executor) -> None:
    code = "import os\nopen('left.txt', 'w').write('x')\nprint(os.getcwd())\n"
    report = make_executor(cache=False, execute_workers=2).run_pages(
        [("docs/a.md", _page(code)), ("docs/b.md", _page(code))]
    )
    cwds = [report.plans[src].result.blocks[0].output.strip() for src in ("docs/a.md", "docs/b.md")]
    assert cwds[0] != cwds[1]
    assert all(os.path.basename(cwd).startswith("llmbook-page-") for cwd in cwds)
    assert not any(os.path.exists(cwd) for cwd in cwds)


def test_the_project_temp_dir_is_left_out_when_it_holds_the_project(tmp_path: Path) -> None:
    """A project under /tmp: writing /tmp would write the project, so the page's temp directory
    is a folder of its own scratch instead."""
    import tempfile

    scratch = str(tmp_path / "scratch")
    temp = os.path.realpath(tempfile.gettempdir())
    writable, page_temp = scratch_plan(scratch, (temp + "/x/project",))
    assert temp not in writable and page_temp == os.path.join(scratch, "tmp")
    writable, page_temp = scratch_plan(scratch, ("/nowhere/project",))
    assert temp in writable and page_temp == temp
    assert {scratch, "/dev/shm"} <= set(writable)


def test_a_too_large_file_fails_the_page(make_executor) -> None:
    code = "data = b'x' * (3 * 2**20)\nopen('big.bin', 'wb').write(data)\n"
    text = _refused(make_executor, code, execute_file_size_mb=2)
    assert text.startswith("docs/page.md:5: OSError: [Errno 27] File too large (python block at")
    assert text.endswith("Fix: write a smaller file, or raise `execute_file_size_mb` in mkdocs.yml")


_DETACHED = """
    import os, subprocess, sys
    late = "import time; time.sleep(1.5); open({late!r}, 'w').write('late')"
    child = subprocess.Popen([sys.executable, '-c', late], start_new_session=True)
    print(child.pid)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            return handle.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except FileNotFoundError:
        return False


@pytest.mark.timing
@pytest.mark.parametrize("end", ["finishes", "exits", "times out"])
def test_a_detached_process_ends_with_its_page(make_executor, project, monkeypatch, end) -> None:
    """Without Landlock (so only the ending is tested), a detached child that would write into
    docs/ later is killed when its page ends, however the page ends."""
    monkeypatch.setattr("llmbook.execute.sandbox.guards.landlock_abi", lambda: 0)
    late = project / "docs" / "late.md"
    pid_file = project / "pid"
    code = textwrap.dedent(_DETACHED).format(late=str(late))
    code += f"open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
    code += {
        "finishes": "",
        "exits": "os._exit(0)\n",
        "times out": "import time\ntime.sleep(60)\n",
    }[end]
    executor = make_executor(cache=False, execute_timeout=1)
    report = executor.run_pages([("docs/page.md", _page(code))])
    assert (report.failures == []) == (end == "finishes")
    pid = int(pid_file.read_text(encoding="utf-8"))
    deadline = time.monotonic() + 1  # killed; the kernel may still be tearing it down
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not _alive(pid)
    time.sleep(2)
    assert not late.exists()


def test_without_landlock_the_log_says_so_and_pages_run(make_executor, monkeypatch, caplog) -> None:
    monkeypatch.setattr("llmbook.execute.sandbox.guards.landlock_abi", lambda: 0)
    pages = [("docs/a.md", _page("print(1)")), ("docs/b.md", _page("print(2)"))]
    with caplog.at_level(logging.INFO):
        report = make_executor(cache=False).run_pages(pages)
    assert report.plans["docs/b.md"].result.blocks[0].output == "2\n"
    said = [r.getMessage() for r in caplog.records if "Landlock" in r.getMessage()]
    assert said[0] == (  # once for the build, not once per page
        "llmbook: page code runs with a guard less: this kernel has no Landlock (Linux 5.13 or "
        "later), so pages could write and read anywhere the build can"
    )
    assert len(said) == 1 or "seccomp" in said[1]


def test_a_required_sandbox_without_landlock_stops_the_build(make_executor, monkeypatch) -> None:
    monkeypatch.setattr("llmbook.execute.sandbox.guards.landlock_abi", lambda: 0)
    with pytest.raises(LLMBookError) as error:
        make_executor(execute_sandbox="required")
    assert str(error.value) == (
        "mkdocs.yml: `execute_sandbox: required`, but this machine cannot guard page code: this "
        "kernel has no Landlock (Linux 5.13 or later), so pages could write and read anywhere "
        "the build can. Fix: build on Linux 5.13 or later with Landlock and seccomp enabled "
        "(`landlock` in /sys/kernel/security/lsm), or set `execute_sandbox: auto`"
    )


@needs_landlock
def test_the_sandbox_can_be_switched_off(make_executor, project: Path) -> None:
    target = project / "docs" / "generated.md"
    code = f"open({str(target)!r}, 'w').write('生成')\n"
    make_executor(cache=False, execute_sandbox="off").run_page(_page(code), src="docs/page.md")
    assert target.read_text(encoding="utf-8") == "生成"


def _confined_child(writable: list[str], attempt: Callable[[], bool]) -> bool:
    """`attempt()` in a child of the test confined to `writable` (a restriction is for good)."""
    pid = os.fork()
    if pid == 0:
        code = 3
        try:
            confine(writable)
            code = 0 if attempt() else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def _refused_write(path: Path | str) -> bool:
    try:
        open(path, "w").close()
    except PermissionError:
        return True
    return False


@needs_landlock
def test_confine_confines_the_process_and_its_children(tmp_path: Path) -> None:
    allowed, denied = tmp_path / "allowed", tmp_path / "denied"
    allowed.mkdir()
    denied.mkdir()

    def attempt() -> bool:
        (allowed / "x.txt").write_text("ok", encoding="utf-8")
        return _refused_write(denied / "x.txt")

    assert _confined_child([str(allowed)], attempt)
    assert (allowed / "x.txt").exists() and not (denied / "x.txt").exists()


@needs_landlock
def test_no_file_can_be_made_among_the_devices(tmp_path: Path) -> None:
    def attempt() -> bool:
        with open("/dev/null", "w") as handle:
            handle.write("x")
        return _refused_write("/dev/llmbook-test")

    assert _confined_child([str(tmp_path)], attempt)
    assert not os.path.exists("/dev/llmbook-test")


def test_confine_refuses_without_landlock(monkeypatch) -> None:
    monkeypatch.setattr("llmbook.execute.sandbox.landlock.landlock_abi", lambda: 0)
    with pytest.raises(OSError, match="^this kernel has no Landlock$"):
        confine([])

"""Pages on a Dask cluster (`execute_cluster`): a LocalCluster of two worker processes, one
declaring GPU=1 (no real GPU: the test shows where the page was placed). The site is the local
build's, byte for byte; refusals, a killed worker, a gone scheduler and timeouts end in named
failures of the page, never a hang or a stored result."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from llmbook.core.lexer import lex
from llmbook.execute.cluster import cluster as cluster_module
from llmbook.execute.cluster.remote import (
    ClusterTask,
    _refusal,
    environment_versions,
    project_files,
)
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.engine import EngineSpec, Limits

from .conftest import make_config
from .test_site import PAGES, _files

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")

pytestmark = pytest.mark.slow

GPU_PAGE = """\
---
execute_resources: {GPU: 1}
---
```python
import torch
x = torch.arange(4.0)
```

和是 [[x.sum().item() = 6.0]]。
"""
SLOW_PAGE = "```python\nimport time\ntime.sleep({seconds})\nprint('slept')\n```\n"


def _cluster(**config: object) -> distributed.LocalCluster:
    """Two worker processes of one thread each, the second declaring GPU=1. Their processes are
    not daemonic (a daemonic process may not start the page's process)."""
    with dask.config.set({"distributed.worker.daemon": False, **config}):
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=":0"
        )
        options = {**cluster.worker_spec[0]["options"], "resources": {"GPU": 1}}
        cluster.worker_spec["gpu"] = {"cls": distributed.Nanny, "options": options}
        cluster.sync(cluster._correct_state)
    with distributed.Client(cluster, set_as_default=False) as client:
        client.wait_for_workers(2)
    return cluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    made = _cluster()
    yield made
    made.close()


def _gpu_worker(cluster: distributed.LocalCluster) -> str:
    return cluster.workers["gpu"].worker_address


def test_the_site_is_byte_identical_to_a_local_build(build_site, cluster, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    local = _files(build_site(PAGES, site="site1"))
    remote = _files(build_site(PAGES, site="site2", execute_cluster=cluster.scheduler_address))
    assert local.keys() == remote.keys() and "index.html" in local
    assert [name for name in local if local[name] != remote[name]] == []


def test_a_gpu_page_runs_on_the_gpu_worker(make_executor, cluster, caplog) -> None:
    executor = make_executor(cache=False, execute_cluster=cluster.scheduler_address)
    with caplog.at_level(logging.INFO):
        for _ in range(3):  # never on the other worker
            plan = executor.run_page(GPU_PAGE, src="docs/gpu.md")
            assert plan.count == 1
            assert executor.placed == {"docs/gpu.md": _gpu_worker(cluster)}
    messages = [r.getMessage() for r in caplog.records]
    ran = f"docs/gpu.md: ran on the cluster's worker {_gpu_worker(cluster)}; numbers: 1 checked"
    assert any(ran in m for m in messages)


def test_llmbook_cluster_overrides_the_option(make_executor, cluster, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CLUSTER", cluster.scheduler_address)
    executor = make_executor(cache=False)
    executor.run_page(GPU_PAGE, src="docs/gpu.md")
    assert executor.placed == {"docs/gpu.md": _gpu_worker(cluster)}


def test_a_result_from_the_cluster_is_cached_whole(make_executor, cluster, tmp_path) -> None:
    executor = make_executor(execute_cluster=cluster.scheduler_address)
    executor.run_page(GPU_PAGE, src="docs/gpu.md")
    again = make_executor(execute_cluster="tcp://127.0.0.1:9")  # nothing listens: not asked
    assert again.run_page(GPU_PAGE, src="docs/gpu.md").count == 1
    assert again.executed == []


def test_no_worker_with_the_resources_fails_after_the_wait(make_executor, cluster) -> None:
    executor = make_executor(
        cache=False, execute_cluster=cluster.scheduler_address, execute_cluster_wait=1
    )
    page = GPU_PAGE.replace("{GPU: 1}", "{TPU: 2}")
    start = time.monotonic()
    with pytest.raises(Exception) as error:
        executor.run_page(page, src="docs/tpu.md")
    assert time.monotonic() - start < 20
    text = str(error.value)
    assert text.startswith(
        f"docs/tpu.md:4: no worker of the cluster at {cluster.scheduler_address} has TPU=2 "
        "(waited 1 s; its workers: "
    )
    assert f"{_gpu_worker(cluster)} (GPU=1)" in text and "(no resources)" in text
    assert text.endswith(
        'Fix: start a worker that has them (`dask worker ADDRESS --resources "GPU=1"`), or '
        "raise `execute_cluster_wait` (seconds) in mkdocs.yml"
    )


def test_a_remote_block_timeout_is_the_local_message(make_executor, cluster) -> None:
    texts = []
    for where in ("", cluster.scheduler_address):
        executor = make_executor(cache=False, execute_cluster=where, execute_timeout=1)
        with pytest.raises(Exception) as error:
            executor.run_page(SLOW_PAGE.format(seconds=30), src="docs/slow.md")
        texts.append(str(error.value))
    local_text, cluster_text = texts
    assert (
        cluster_text
        == local_text
        == (
            "docs/slow.md:1: block timed out after 1 s Fix: make it faster, or raise "
            "`execute_timeout` (seconds) in mkdocs.yml"
        )
    )


def test_a_worker_that_keeps_a_page_too_long_loses_it(make_executor, cluster, monkeypatch):
    # A wedged worker never answers: its page fails past the page timeout and the margin.
    monkeypatch.setattr(cluster_module, "MARGIN_S", -28.0)
    executor = make_executor(
        cache=False, execute_cluster=cluster.scheduler_address, execute_page_timeout=30
    )
    start = time.monotonic()
    with pytest.raises(Exception) as error:
        executor.run_page(SLOW_PAGE.format(seconds=15), src="docs/slow.md")
    assert time.monotonic() - start < 12
    assert "docs/slow.md:1: the cluster's worker tcp://" in str(error.value)
    assert "kept the page past 2 s (its page timeout and -28 s) without an answer" in str(
        error.value
    )


def test_a_worker_with_another_torch_refuses_the_page(make_executor, cluster) -> None:
    def other_torch(on: bool) -> None:  # local: sent to the workers by value
        from llmbook.execute.cluster import remote

        original = remote.__dict__.setdefault("_original", remote.environment_versions)
        remote.environment_versions = (lambda: {**original(), "torch": "0.1"}) if on else original

    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        client.run(other_torch, True)
        try:
            executor = make_executor(cache=False, execute_cluster=cluster.scheduler_address)
            with pytest.raises(Exception) as error:
                executor.run_page(GPU_PAGE, src="docs/gpu.md")
        finally:
            client.run(other_torch, False)
    assert str(error.value) == (
        f"docs/gpu.md:4: the cluster's worker {_gpu_worker(cluster)} has torch 0.1 where this "
        f"build has torch {environment_versions()['torch']}: its numbers would come from other "
        "code Fix: run every worker from the build's image (the same Python, torch, matplotlib, "
        "IPython and llmbook) with a checkout of the same commit at the same path "
        "(docs/guide/executable.md)"
    )


def test_a_killed_worker_fails_the_page_by_name_and_stores_nothing(make_executor, tmp_path):
    made = _cluster(**{"distributed.scheduler.allowed-failures": 0})
    try:
        executor = make_executor(execute_cluster=made.scheduler_address)
        left: list = []
        killer = threading.Thread(target=_kill_the_busy_worker, args=(made, left), daemon=True)
        killer.start()
        report = executor.run_pages([("docs/slow.md", SLOW_PAGE.format(seconds=60))])
        killer.join()
    finally:
        made.close()
    assert [str(e) for e in report.failures] == [
        "docs/slow.md:1: the cluster's workers died while running the page, as often as the "
        f"scheduler at {made.scheduler_address} allows (KilledWorker) Fix: a page must not "
        "crash its worker; if it ran out of memory, give it `execute_resources: "
        "{memory_gb: …}` so it runs where there is enough"
    ]
    assert not list((tmp_path / ".llmbook-cache").rglob("*.json"))
    # the page's processes (its server, its watcher, the page) went with the worker
    gone, alive = psutil.wait_procs(left, timeout=10)
    assert alive == [] and len(gone) >= 3


def test_a_killed_worker_is_retried_within_the_schedulers_bound(make_executor) -> None:
    made = _cluster(**{"distributed.scheduler.allowed-failures": 1})
    try:
        executor = make_executor(cache=False, execute_cluster=made.scheduler_address)
        killer = threading.Thread(target=_kill_the_busy_worker, args=(made,), daemon=True)
        killer.start()
        plan = executor.run_page(SLOW_PAGE.format(seconds=3), src="docs/slow.md")
        killer.join()
    finally:
        made.close()
    assert plan.result.blocks[0].output == "slept\n"


def _kill_the_busy_worker(cluster: distributed.LocalCluster, left: list | None = None) -> None:
    """SIGKILL the worker process that runs a page, a second into it; `left`: its descendants."""
    with distributed.Client(cluster.scheduler_address, set_as_default=False) as client:
        while not any(client.processing().values()):
            time.sleep(0.1)
        time.sleep(1)
        busy = next(worker for worker, keys in client.processing().items() if keys)
        pid = client.run(os.getpid, workers=[busy])[busy]
        if left is not None:  # once the page runs: its server, its watcher, the page itself
            deadline = time.monotonic() + 60
            while len(psutil.Process(pid).children(recursive=True)) < 3:
                assert time.monotonic() < deadline, "the page never started"
                time.sleep(0.2)
            left.extend(psutil.Process(pid).children(recursive=True))
        os.kill(pid, signal.SIGKILL)


def test_a_gone_scheduler_fails_every_page_out(make_executor, tmp_path) -> None:
    # The scheduler and its worker in processes of their own, as `dask scheduler` and
    # `dask worker` run them; the scheduler's is killed while the page runs.
    file = tmp_path / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    cli = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
    cli += ["--port", "0", "--no-dashboard", "--scheduler-file", str(file)]
    scheduler = subprocess.Popen(cli, env=env, stderr=subprocess.DEVNULL)
    worker = None
    try:
        while not file.exists():
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        cli = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1"]
        worker = subprocess.Popen([*cli, "--no-dashboard"], env=env, stderr=subprocess.DEVNULL)
        executor = make_executor(cache=False, execute_cluster=address)

        def kill_the_scheduler() -> None:
            with distributed.Client(address, set_as_default=False) as client:
                while not any(client.processing().values()):
                    time.sleep(0.1)
            scheduler.kill()

        threading.Thread(target=kill_the_scheduler, daemon=True).start()
        start = time.monotonic()
        report = executor.run_pages([("docs/slow.md", SLOW_PAGE.format(seconds=30))])
        assert time.monotonic() - start < 25
    finally:
        for process in (worker, scheduler):
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
    assert [str(e) for e in report.failures] == [
        "docs/slow.md:1: the page's task was cancelled (scheduler-connection-lost): the "
        f"cluster's scheduler at {address} went away or lost it Fix: restart "
        "the scheduler and its workers, then build again"
    ]


def test_no_scheduler_at_the_address_stops_the_build(make_executor) -> None:
    executor = make_executor(cache=False, execute_cluster="tcp://127.0.0.1:9")
    monkey = pytest.MonkeyPatch()
    monkey.setattr(cluster_module, "CONNECT_S", 1.0)
    try:
        with pytest.raises(Exception) as error:
            executor.run_page(GPU_PAGE, src="docs/gpu.md")
    finally:
        monkey.undo()
    text = str(error.value)
    assert text.startswith(
        "mkdocs.yml: `execute_cluster` (or LLMBOOK_CLUSTER) is tcp://127.0.0.1:9, where no Dask "
        "scheduler answered within 1 s ("
    )
    assert text.endswith(
        "Fix: start the scheduler and its workers (`dask scheduler`, `dask worker ADDRESS`), "
        "or unset the option to run the pages on this machine"
    )


# -- the worker's refusals, without a cluster ------------------------------------------------


def _task(root: Path, **changes: object) -> ClusterTask:
    spec = EngineSpec(workers=1, limits=Limits(), seed=0, root=str(root))
    task = ClusterTask(spec, environment_versions(), project_files(str(root)))
    return ClusterTask(**{**vars(task), **changes})


def _page() -> PageSource:
    return PageSource("docs/p.md", lex("x\n", 1), True)


def test_a_worker_with_other_project_files_refuses(tmp_path: Path) -> None:
    (tmp_path / "helper.py").write_text("X = 1\n", encoding="utf-8")
    task = _task(tmp_path)
    assert _refusal(_page(), task, "tcp://w:1") is None
    (tmp_path / "helper.py").write_text("X = 2\n", encoding="utf-8")
    problem, _ = _refusal(_page(), task, "tcp://w:1")
    ours, theirs = project_files(str(tmp_path))["helper.py"], task.project["helper.py"]
    assert problem == (
        f"the cluster's worker tcp://w:1 has another helper.py (in {tmp_path}) than this build: "
        f"content {ours[:12]} where this build has {theirs[:12]}; the page may import it"
    )
    (tmp_path / "helper.py").unlink()
    assert _refusal(_page(), task, "tcp://w:1")[0] == (
        f"the cluster's worker tcp://w:1 lacks helper.py (in {tmp_path}), which this build "
        "has; the page may import it"
    )
    gone = _task(tmp_path / "nowhere")
    assert _refusal(_page(), gone, "tcp://w:1")[0] == (
        f"the cluster's worker tcp://w:1 has no project at {tmp_path / 'nowhere'}"
    )


def test_a_daemonic_worker_refuses(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(multiprocessing.current_process()._config, "daemon", True)
    assert _refusal(_page(), _task(tmp_path), "tcp://w:1") == (
        "the cluster's worker tcp://w:1 runs as a daemonic process, which may not start the "
        "page's process",
        "start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False in their environment",
    )


def test_the_option_is_validated() -> None:
    assert make_config(execute_cluster="tcp://h:8786")["execute_cluster"] == "tcp://h:8786"
    assert make_config()["execute_cluster_wait"] == 300


def test_a_result_that_read_other_project_files_is_refused(tmp_path: Path) -> None:
    from llmbook.core.store import file_digest
    from llmbook.execute.cluster.cluster import ClusterEngine
    from llmbook.execute.stages.cache import FileHashes
    from llmbook.execute.stages.engine import PageOutcome
    from llmbook.execute.stages.run import RunResult

    (tmp_path / "data.csv").write_text("1,2\n", encoding="utf-8")
    spec = EngineSpec(workers=1, limits=Limits(), seed=0, root=str(tmp_path))
    engine = ClusterEngine("tcp://s:1", spec, spec.engine(), FileHashes(tmp_path), wait=1)
    same = RunResult(used={"data.csv": file_digest(tmp_path / "data.csv")})
    kept = PageOutcome(result=same, where="tcp://w:1")
    assert engine._checked(_page(), kept) is kept
    other = PageOutcome(result=RunResult(used={"data.csv": "0" * 64}), where="tcp://w:1")
    assert str(engine._checked(_page(), other).error) == (
        "docs/p.md:1: the cluster's worker tcp://w:1 read data.csv with other content than this "
        "build's copy: its numbers would come from other files Fix: run the workers on a "
        "checkout of the same commit as the build, at the same path"
    )

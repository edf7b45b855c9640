"""Pages as tasks on a Dask cluster (`execute_cluster`, LLMBOOK_CLUSTER): the build's side.

Each page that must run is one task, placed by the scheduler on a worker that declared the page's
`execute_resources`; the worker runs it as a local build would (remote.py) and sends back the
PageOutcome. Faults end in a named failure of the page, never a hang or a partial result: a page
waits `execute_cluster_wait` seconds at most for a worker that can take it; a worker that dies
mid-page is replaced by the scheduler up to its `allowed-failures` (then KilledWorker); a
scheduler that goes away fails every page still out; a worker that keeps a page past its page
timeout and a margin, timed from the moment the task began there, loses it. `distributed` is
imported here only (and in remote.py, on the workers), when the option is set.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from concurrent.futures import CancelledError
from typing import Any

from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.execute.cluster.remote import (
    STARTED,
    ClusterTask,
    environment_versions,
    project_files,
    run_task,
)
from llmbook.execute.cluster.resources import describe, lacking
from llmbook.execute.stages.cache import FileHashes
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.engine import Engine, EngineSpec, PageOutcome

__all__ = ["ClusterEngine", "cluster_address"]

CONNECT_S = 20.0  # to reach the scheduler at the start
POLL_S = 1.0  # between looks at the cluster's workers while pages are out
MARGIN_S = 60.0  # past a page's own timeout, for its transfer and its process's start


def cluster_address(option: str) -> str:
    """The scheduler's address: LLMBOOK_CLUSTER, else the `execute_cluster` option."""
    return os.environ.get("LLMBOOK_CLUSTER", "").strip() or option.strip()


def _first_line(page: PageSource) -> int:
    return page.blocks[0].line if page.blocks else 1


class ClusterEngine:
    """Runs pages on the cluster; the Engine's interface (`run`, `passed_env`)."""

    def __init__(
        self, address: str, spec: EngineSpec, local: Engine, hashes: FileHashes, *, wait: float
    ) -> None:
        self.address = address
        self.spec = spec
        self.local = local  # the build's environment: what a page is passed by name
        self.hashes = hashes
        self.wait = wait

    def passed_env(self, page: PageSource) -> dict[str, str]:
        return self.local.passed_env(page)

    def run(self, pages: list[PageSource]) -> list[PageOutcome]:
        if not pages:
            return []
        client = self._connect()
        try:
            # In every task, not scattered once: scattered data dies with the worker holding it,
            # and with it every page's task still waiting.
            task = ClusterTask(self.spec, environment_versions(), project_files(self.spec.root))
            token = uuid.uuid4().hex[:8]
            futures = [
                client.submit(
                    run_task,
                    page,
                    self.passed_env(page),
                    task,
                    key=f"llmbook-page-{token}-{n}",
                    resources=page.resources or None,
                    pure=False,
                )
                for n, page in enumerate(pages)
            ]
            outcomes = _Watch(self, client, pages, futures).outcomes()
        finally:
            client.close()
        return [self._checked(page, outcome) for page, outcome in zip(pages, outcomes, strict=True)]

    def _connect(self) -> Any:  # noqa: ANN401 (a distributed.Client)
        from distributed import Client

        try:
            return Client(self.address, timeout=CONNECT_S, set_as_default=False)
        except (OSError, TimeoutError) as error:
            raise LLMBookError(
                f"mkdocs.yml: `execute_cluster` (or LLMBOOK_CLUSTER) is {self.address}, where no "
                f"Dask scheduler answered within {CONNECT_S:g} s ({error}). Fix: start the "
                "scheduler and its workers (`dask scheduler`, `dask worker ADDRESS`), or unset "
                "the option to run the pages on this machine"
            ) from None

    def _checked(self, page: PageSource, outcome: PageOutcome) -> PageOutcome:
        """The outcome, unless the worker's page read project files other than this build's."""
        if outcome.result is None:
            return outcome
        changed = self.hashes.changed(outcome.result.used)
        if not changed:
            return outcome
        problem = (
            f"the cluster's worker {outcome.where} read {', '.join(changed)} with other content "
            "than this build's copy: its numbers would come from other files"
        )
        fix = "run the workers on a checkout of the same commit as the build, at the same path"
        error = AuthorError(page.src, _first_line(page), problem, fix)
        return PageOutcome(error=error, where=outcome.where)


class _Watch:
    """Waits for the pages' tasks, each ending in an outcome within its bounds."""

    def __init__(self, engine: ClusterEngine, client: Any, pages: list, futures: list) -> None:  # noqa: ANN401
        self.engine = engine
        self.client = client
        self.pages = pages
        self.futures = futures
        self.done: dict[int, PageOutcome] = {}
        self.homeless: dict[int, float] = {}  # page → since when no worker could take it
        self.started: dict[str, tuple[float, str]] = {}  # task → (when it began, its worker)
        client.subscribe_topic(STARTED, self._began)

    def _began(self, event: tuple[float, dict]) -> None:
        """A task began on a worker (again, after a worker died: its clock starts over)."""
        _, message = event
        self.started[message["key"]] = (time.monotonic(), message["worker"])

    def outcomes(self) -> list[PageOutcome]:
        finished = threading.Event()
        for future in self.futures:
            future.add_done_callback(lambda _: finished.set())
        while len(self.done) < len(self.pages):
            finished.wait(POLL_S)
            finished.clear()
            for n, future in enumerate(self.futures):
                if n not in self.done and future.done():
                    self.done[n] = self._finished(self.pages[n], future)
            if len(self.done) < len(self.pages):
                self._look()
        return [self.done[n] for n in range(len(self.pages))]

    def _fail(self, n: int, problem: str, fix: str, *, cancel: bool = True) -> None:
        page = self.pages[n]
        if cancel:  # not with the scheduler gone: there is nobody to tell
            self.futures[n].cancel()
        self.done[n] = PageOutcome(error=AuthorError(page.src, _first_line(page), problem, fix))

    def _finished(self, page: PageSource, future: Any) -> PageOutcome:  # noqa: ANN401
        from distributed import KilledWorker

        address = self.engine.address
        try:
            return future.result()
        except CancelledError as error:
            problem = (
                f"the page's task was cancelled ({getattr(error, 'reason', 'unknown')}): the "
                f"cluster's scheduler at {address} went away or lost it"
            )
            fix = "restart the scheduler and its workers, then build again"
        except KilledWorker:
            problem = (
                "the cluster's workers died while running the page, as often as the scheduler "
                f"at {address} allows (KilledWorker)"
            )
            fix = (
                "a page must not crash its worker; if it ran out of memory, give it "
                "`execute_resources: {memory_gb: …}` so it runs where there is enough"
            )
        except Exception as error:  # noqa: BLE001 - the cluster's fault, reported for the page
            problem = f"the page's task on the cluster at {address} failed: {error!r}"
            fix = "see the scheduler's and the workers' logs; build again once it is fixed"
        return PageOutcome(error=AuthorError(page.src, _first_line(page), problem, fix))

    def _look(self) -> None:
        """Fail the pages no worker can take any more, and those kept past their timeout."""
        if self.client.status != "running":
            for n in range(len(self.pages)):
                if n not in self.done:
                    self._fail(
                        n,
                        f"the cluster's scheduler at {self.engine.address} went away "
                        f"({self.client.status}) before the page's result came back",
                        "restart the scheduler and its workers, then build again",
                        cancel=False,
                    )
            return
        try:
            workers = self.client.scheduler_info(n_workers=-1)["workers"]
        except (OSError, TimeoutError):
            return  # the status says so on the next look
        self._homeless(workers)
        self._overdue()

    def _homeless(self, workers: dict) -> None:
        now = time.monotonic()
        have = [(address, w.get("resources") or {}) for address, w in workers.items()]
        for n, page in enumerate(self.pages):
            if n in self.done or any(not lacking(page.resources, r) for _, r in have):
                self.homeless.pop(n, None)
                continue
            since = self.homeless.setdefault(n, now)
            if now - since < self.engine.wait:
                continue
            needs = describe(page.resources) if page.resources else "a worker"
            listed = "; ".join(f"{a} ({describe(r) or 'no resources'})" for a, r in have)
            self._fail(
                n,
                f"no worker of the cluster at {self.engine.address} has {needs} (waited "
                f"{self.engine.wait:g} s; its workers: {listed or 'none'})",
                'start a worker that has them (`dask worker ADDRESS --resources "GPU=1"`), or '
                "raise `execute_cluster_wait` (seconds) in mkdocs.yml",
            )

    def _overdue(self) -> None:
        now = time.monotonic()
        bound = self.engine.spec.limits.page_timeout + MARGIN_S
        for n, future in enumerate(self.futures):
            began, worker = self.started.get(future.key, (now, ""))
            if n not in self.done and now - began > bound:
                self._fail(
                    n,
                    f"the cluster's worker {worker} kept the page past {bound:g} s (its page "
                    f"timeout and {MARGIN_S:g} s) without an answer",
                    "see that worker's log; raise `execute_page_timeout` in mkdocs.yml if the "
                    "page needs longer",
                )

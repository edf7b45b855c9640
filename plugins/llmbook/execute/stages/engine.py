"""The execution engine: every page in its own worker process, several at once, under hard limits.

A page's process is forked from a server that preloaded torch (`worker.py`), so a fresh process
costs milliseconds. The parent watches each one through a pipe: the worker names each step before
it runs it, so when the worker is killed (a step past `execute_timeout`, the page past
`execute_page_timeout`) or dies (os._exit, a segfault, the OOM killer) the error names the page and
the block that was running. A thread pool of `workers` threads, one per running page, is the whole
scheduler; results come back in the order of the pages given, whatever finished first. What a
page's process may write, and the end of every process it started, are `sandbox.py`'s.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
import threading
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import wait

from llmbook.core.errors import AuthorError
from llmbook.execute.sandbox.environment import page_environment
from llmbook.execute.sandbox.guards import Guards
from llmbook.execute.sandbox.reads import python_folders, read_plan
from llmbook.execute.sandbox.sandbox import (
    Confinement,
    end_descendants,
    link_beside,
    scratch_plan,
    user_cache_dir,
)
from llmbook.execute.sandbox.server import page_context
from llmbook.execute.stages.block_errors import Raised
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.run import RunResult

__all__ = ["Engine", "EngineSpec", "Limits", "PageOutcome"]

# A forkserver child's exit status is 8 bytes on a pipe that only one read can get: a second
# reader meets EOF and multiprocessing reports 255. Process.start() polls every live child of
# this process (multiprocessing.process._cleanup), so a start in one thread races the
# join/is_alive/exitcode of another thread's process. Every start and every poll holds this lock.
_POLL_LOCK = threading.Lock()


@dataclass(frozen=True)
class Limits:
    block_timeout: float = 120.0  # seconds per block or bound expression
    page_timeout: float = 600.0  # seconds for the whole page
    output_limit: int = 100_000  # characters of printed output kept per block
    memory_mb: int = 0  # address-space cap per page process; 0 = none
    file_size_mb: int = 0  # largest file a page may write; 0 = none


@dataclass
class PageOutcome:
    result: RunResult | None = None
    error: AuthorError | None = None
    where: str = ""  # the cluster worker that ran the page (cluster.py); "" for this machine
    # with `error` (a crash, a timeout): what raised before it, each reported with it
    raised: list[Raised] = field(default_factory=list)


@dataclass(frozen=True)
class EngineSpec:
    """What an Engine is made from, as plain data: the build makes its own from it, and a
    cluster worker (remote.py) makes the same one, with the guards its own machine offers."""

    workers: int
    limits: Limits
    seed: int
    root: str
    preamble: str = ""
    site_dir: str | None = None
    sandbox: str = "auto"  # `execute_sandbox`: auto, required or off (guards.machine_guards)
    env_names: tuple[str, ...] = ()
    network: str = "none"
    read: tuple[str, ...] = ()
    show_last: bool = False
    ipython: bool = True
    threads: int = 1  # `execute_threads`: a page's torch and BLAS threads (run.py)

    def engine(self) -> Engine:
        from llmbook.execute.sandbox.guards import machine_guards

        return Engine(
            workers=self.workers,
            limits=self.limits,
            seed=self.seed,
            root=self.root,
            preamble=self.preamble,
            site_dir=self.site_dir,
            guards=machine_guards(self.sandbox, self.network),
            env_names=self.env_names,
            network=self.network,
            read=self.read,
            show_last=self.show_last,
            ipython=self.ipython,
            threads=self.threads,
        )


def _child(conn, page, options) -> None:  # noqa: ANN001
    from llmbook.execute.stages.worker import main

    main(conn, page, options)


def _step_name(page: PageSource, line: int | None, kind: int, pos: int) -> str:
    if line is None:
        return "setting up the page"
    if kind == 0:
        return f"the python block at line {line}"
    return f"[[{page.bound[pos].body}]] at line {line}"


def _how_it_died(exitcode: int | None) -> str:
    if exitcode is None:
        return "vanished"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        if -exitcode == signal.SIGKILL:
            return f"was killed by {name} (out of memory?)"
        return f"was killed by {name}"
    return f"exited with code {exitcode} without finishing (os._exit or a native exit)"


class Engine:
    """Runs pages; `run` returns one PageOutcome per page, in the pages' order."""

    def __init__(
        self,
        *,
        workers: int,
        limits: Limits,
        seed: int,
        root: str,
        preamble: str = "",
        site_dir: str | None = None,
        guards: Guards | None = None,
        env_names: tuple[str, ...] = (),
        network: str = "none",
        read: tuple[str, ...] = (),
        show_last: bool = False,
        ipython: bool = True,
        threads: int = 1,
    ) -> None:
        self.workers = max(1, workers)
        self.limits = limits
        self.seed = seed
        self.root = root  # the project: pages read it, never write it; paths are relative to it
        self.preamble = preamble
        self.show_last = show_last  # a block's last expression shown (notebooks: always)
        self.ipython = ipython  # blocks run in IPython's shell (display.py), or as plain Python
        self.threads = threads  # `execute_threads`; a page's `execute_threads` comes first
        protected = (root,) if site_dir is None else (root, site_dir)
        guards = guards or Guards.available()
        # `read`: `execute_read`, what the author lets pages read in the home folders
        plan = read_plan(os.path.expanduser("~"), [root, *python_folders(), user_cache_dir()], read)
        self.confinement = Confinement(
            guards.landlock,
            protected,
            limits.file_size_mb,
            readable=plan.readable if plan and guards.landlock else None,
            hidden=plan.hidden if plan and guards.landlock else (),
            sockets=guards.sockets,
        )
        self.env_names = env_names  # `execute_env`: passed to every page beyond the allowlist
        self.network = network  # `execute_network`: none, pages (that ask) or all

    def environment(
        self, page: PageSource, given: Mapping[str, str] | None = None
    ) -> dict[str, str]:
        """What the page's code finds in `os.environ` (execute/sandbox/environment.py). Triton's kernels
        and CUDA's compute cache go to the cache folder, which a page may write, unless the build
        says where (their defaults, `~/.triton` and `~/.nv`, are read-only to pages); cuBLAS gets
        the workspace that deterministic algorithms require on CUDA."""
        env = page_environment(os.environ, self.env_names + page.env)
        env.update(given or {})  # the build's values of the passed names (a cluster task)
        cache = user_cache_dir()
        env.setdefault("TRITON_CACHE_DIR", os.path.join(cache, "triton"))
        env.setdefault("CUDA_CACHE_PATH", os.path.join(cache, "nv", "ComputeCache"))
        env.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # deterministic cuBLAS (worker.py)
        return env

    def threads_of(self, page: PageSource) -> int:
        """The threads the page's code computes with: its front matter's, else the book's."""
        return page.threads or self.threads

    def passed_env(self, page: PageSource) -> dict[str, str]:
        """The variables passed by name (`execute_env`): their values key the page's results."""
        named = set(self.env_names + page.env)
        return {k: v for k, v in self.environment(page).items() if k in named}

    def run(self, pages: list[PageSource]) -> list[PageOutcome]:
        if not pages:
            return []
        context = page_context()
        if len(pages) == 1 or self.workers == 1:
            return [self._run_one(context, page) for page in pages]
        with ThreadPoolExecutor(max_workers=min(self.workers, len(pages))) as pool:
            return list(pool.map(lambda page: self._run_one(context, page), pages))

    def run_page(self, page: PageSource, given: Mapping[str, str] | None = None) -> PageOutcome:
        """One page, as `run` runs each (a cluster worker's task); `given`: the values of the
        variables the build passes by name (`passed_env`), used instead of this machine's."""
        return self._run_one(page_context(), page, given)

    def _run_one(self, context, page: PageSource, given=None) -> PageOutcome:  # noqa: ANN001
        if page.network and self.network == "none":
            problem = (
                "the page asks for the network (`execute_network: true`), but mkdocs.yml allows "
                "it to no page"
            )
            fix = "set the llmbook option `execute_network: pages` in mkdocs.yml"
            return PageOutcome(error=page.error(1, problem, fix))
        scratch = tempfile.mkdtemp(prefix="llmbook-page-")
        confinement = self.confinement
        workdir = scratch
        if page.cells is not None and confinement.landlock:  # a notebook reads what is beside it
            workdir = link_beside(scratch, self.root, os.path.dirname(page.src))
        writable, temp = scratch_plan(scratch, confinement.protected, confinement.hidden)
        options = {
            "env": {**self.environment(page, given), "TMPDIR": temp},
            "root": self.root,
            "path": os.path.join(self.root, page.src),
            "scratch": scratch,
            "workdir": workdir,
            "writable": writable,
            "confinement": self.confinement,
            "network": self.network == "all" or page.network,
            "preamble": self.preamble,
            "seed": self.seed,
            "output_limit": self.limits.output_limit,
            "show_last": self.show_last,
            "ipython": self.ipython,
            "threads": self.threads_of(page),
            # CUDA reserves address space far past any cap: a page that asks for a GPU has none
            "memory_mb": 0 if page.resources.get("GPU") else self.limits.memory_mb,
        }
        receiver, sender = context.Pipe(duplex=False)
        process = context.Process(target=_child, args=(sender, page, options), daemon=True)
        with _POLL_LOCK:
            process.start()
        sender.close()
        try:
            return self._watch(page, process, receiver)
        finally:
            # Whatever the page started ends with it: below the process, a subreaper, then itself.
            end_descendants(process.pid)
            with _POLL_LOCK:
                if process.is_alive():
                    process.kill()
            wait([process.sentinel])  # not under the lock: waiting reads nothing
            with _POLL_LOCK:
                process.join()
            receiver.close()
            shutil.rmtree(scratch, ignore_errors=True)

    def _watch(self, page: PageSource, process, receiver) -> PageOutcome:  # noqa: ANN001
        limits = self.limits
        start = step_start = time.monotonic()
        step: tuple[int | None, int, int] = (None, 0, 0)
        raised: list[Raised] = []  # what raised so far, kept if the page is killed later
        first_line = page.blocks[0].line if page.blocks else 1
        watched = [receiver, process.sentinel]
        while True:
            now = time.monotonic()
            # The block clock starts with the first step: setting up (imports) counts for the page.
            block_left = step_start + limits.block_timeout - now if step[0] is not None else 1e9
            page_left = start + limits.page_timeout - now
            ready = wait(watched, timeout=max(0.0, min(block_left, page_left)))
            if receiver in ready:
                try:
                    message = receiver.recv()
                except EOFError:
                    watched = [process.sentinel]  # it closed the pipe: only its end is left
                    continue
                if message[0] == "step":
                    step, step_start = message[1:], time.monotonic()
                    continue
                if message[0] == "raised":
                    raised.append(message[1])
                    continue
                if message[0] == "done":
                    return PageOutcome(result=message[1])
                _, line, problem, fix = message  # no line: where the page had got to
                where = line or step[0] or first_line
                return PageOutcome(error=page.error(where, problem, fix), raised=raised)
            line, kind, pos = step
            if process.sentinel in ready:
                if receiver in watched and receiver.poll(0):
                    continue  # read what it sent before it ended
                with _POLL_LOCK:  # the sentinel is ready: join does not block
                    process.join()
                    exitcode = process.exitcode
                return PageOutcome(
                    error=page.error(
                        line or first_line,
                        f"the page's worker process {_how_it_died(exitcode)} while "
                        f"running {_step_name(page, line, kind, pos)}",
                        "a page must not end or crash its own process (os._exit, a segfault); "
                        "if it ran out of memory, make it smaller or raise `execute_memory_mb` "
                        "in mkdocs.yml",
                    ),
                    raised=raised,
                )
            end_descendants(process.pid)  # first: killed, it would leave them to init
            process.kill()
            why, fix = self._timed_out(page, step, whole_page=page_left <= block_left)
            return PageOutcome(error=page.error(line or first_line, why, fix), raised=raised)

    def _timed_out(
        self, page: PageSource, step: tuple[int | None, int, int], *, whole_page: bool
    ) -> tuple[str, str]:
        """(why, fix) of a page killed at `step` for its time."""
        line, kind, pos = step
        if whole_page:
            why = (
                f"page timed out after {self.limits.page_timeout:g} s while running "
                f"{_step_name(page, line, kind, pos)}"
            )
            return (
                why,
                "make the page faster, or raise `execute_page_timeout` (seconds) in mkdocs.yml",
            )
        what = "block" if kind == 0 or line is None else f"[[{page.bound[pos].body}]]"
        why = f"{what} timed out after {self.limits.block_timeout:g} s"
        return why, "make it faster, or raise `execute_timeout` (seconds) in mkdocs.yml"


def default_workers() -> int:
    """The CPU count this process may use."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1

"""A cluster worker's side of `execute_cluster`: a task runs one page with the Engine a local
build uses (its forked, sandboxed page process, limits, scratch folder, used-file tracking) and
returns the PageOutcome as data. The cache, the checks and the rendering stay in the build.

A worker runs only the code the build would: the task carries what keys the build's results
(Python, torch, matplotlib, IPython, llmbook's files) and the content hash of every Python file
of the project (what a page may import); a worker whose own differ refuses the page with both
versions named. Project files reach workers by a shared checkout of the same commit at the same
path (docs/guide/executable.md, 集群): pages read data and models far larger than any task.
"""

from __future__ import annotations

import functools
import multiprocessing
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from llmbook.core.store import file_digest, llmbook_hash, version
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.deps import installed
from llmbook.execute.stages.engine import Engine, EngineSpec, PageOutcome

__all__ = ["STARTED", "ClusterTask", "environment_versions", "project_files", "run_task"]

_SKIPPED_DIRS = frozenset({"__pycache__", "node_modules", "site"})


@dataclass(frozen=True)
class ClusterTask:
    """What every page's task of one build shares (sent to each worker once)."""

    spec: EngineSpec
    versions: dict[str, str]  # environment_versions() of the build
    project: dict[str, str]  # project_files() of the build


def environment_versions() -> dict[str, str]:
    """The versions that key a page's results (cache.page_key), and llmbook's own files."""
    return {
        "Python": sys.version,
        "torch": version("torch"),
        "matplotlib": version("matplotlib"),
        "IPython": version("ipython"),
        "llmbook": f"{version('llmbook')} (files {llmbook_hash()[:12]})",
    }


def project_files(root: str) -> dict[str, str]:
    """{path under `root`: content hash} of every Python file a page may import from the
    project: not in hidden folders (.git, .nox, .llmbook-cache), virtual environments or the
    site."""
    found = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(
            d
            for d in dirs
            if not d.startswith(".")
            and d not in _SKIPPED_DIRS
            and not installed(os.path.join(folder, d, "x"), root)
        )
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                found[Path(os.path.relpath(path, root)).as_posix()] = file_digest(path)
    return dict(sorted(found.items()))


STARTED = "llmbook-page-started"  # the event a task logs as it starts: the build times it


def run_task(page: PageSource, given: dict[str, str], task: ClusterTask) -> PageOutcome:
    """The Dask task: the page's outcome on this worker, or its refusal to run it."""
    from distributed import get_worker

    worker = get_worker()
    where = worker.address
    worker.log_event(STARTED, {"key": worker.get_current_task(), "worker": where})
    refusal = _refusal(page, task, where)
    if refusal is not None:
        return PageOutcome(error=page.error(_first_line(page), *refusal), where=where)
    outcome = _engine(task.spec).run_page(page, given)
    outcome.where = where
    return outcome


@functools.lru_cache(maxsize=4)  # one per build's settings, kept by the worker between tasks
def _engine(spec: EngineSpec) -> Engine:
    return spec.engine()


def _first_line(page: PageSource) -> int:
    return page.blocks[0].line if page.blocks else 1


_FIX_IMAGE = (
    "run every worker from the build's image (the same Python, torch, matplotlib, IPython and "
    "llmbook) with a checkout of the same commit at the same path (docs/guide/executable.md)"
)


def _refusal(page: PageSource, task: ClusterTask, where: str) -> tuple[str, str] | None:
    """(problem, fix) when this worker must not run the page."""
    if multiprocessing.current_process().daemon:
        return (
            f"the cluster's worker {where} runs as a daemonic process, which may not start the "
            "page's process",
            "start the workers with DASK_DISTRIBUTED__WORKER__DAEMON=False in their environment",
        )
    ours = environment_versions()
    for name, theirs in task.versions.items():
        if ours.get(name) != theirs:
            return (
                f"the cluster's worker {where} has {name} {ours.get(name)} where this build has "
                f"{name} {theirs}: its numbers would come from other code",
                _FIX_IMAGE,
            )
    root = task.spec.root
    if not os.path.isdir(root):
        return f"the cluster's worker {where} has no project at {root}", _FIX_IMAGE
    here = project_files(root)
    for name in sorted(set(here) | set(task.project)):
        ours, theirs = here.get(name), task.project.get(name)
        if ours == theirs:
            continue
        if ours is None:
            state = f"lacks {name} (in {root}), which this build has"
        elif theirs is None:
            state = f"has {name} (in {root}), which this build lacks"
        else:
            state = (
                f"has another {name} (in {root}) than this build: content {ours[:12]} where "
                f"this build has {theirs[:12]}"
            )
        return f"the cluster's worker {where} {state}; the page may import it", _FIX_IMAGE
    return None

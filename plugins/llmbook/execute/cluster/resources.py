"""What a page needs from the machine that runs it (front matter `execute_resources`), and what
this machine has.

The names are Dask's worker resources (`dask worker --resources "GPU=1,memory_gb=80"`): on a
cluster (`execute_cluster`, cluster.py) the scheduler places the page on a worker that declared
them. A local build checks them here instead, before the page starts, so that a page this machine
cannot run fails at once, naming what it needs, rather than minutes later inside its code.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping

from llmbook.core.errors import AuthorError
from llmbook.execute.stages.collect import PageSource

__all__ = ["describe", "lacking", "local_check", "machine_resources"]


@functools.cache  # the machine does not change while a build runs
def _cuda_devices() -> int:
    # torch only for a page that asks for a GPU: a build without one never imports it
    try:
        import torch
    except ImportError:  # no torch, no GPU it could see
        return 0
    return torch.cuda.device_count()


def _memory_gb() -> float:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30


def machine_resources(names: set[str]) -> dict[str, float]:
    """This machine's amount of each resource named: `GPU` the CUDA devices torch sees,
    `memory_gb` the machine's memory; a name it cannot measure is 0 here."""
    found = {}
    for name in sorted(names):
        if name == "GPU":
            found[name] = float(_cuda_devices())
        elif name == "memory_gb":
            found[name] = _memory_gb()
        else:
            found[name] = 0.0
    return found


def lacking(needs: Mapping[str, float], have: Mapping[str, float]) -> dict[str, float]:
    """The needs that `have` does not meet."""
    return {name: amount for name, amount in needs.items() if have.get(name, 0.0) < amount}


def describe(amounts: Mapping[str, float]) -> str:
    """`GPU=1, memory_gb=40`, as Dask's `--resources` writes them."""
    return ", ".join(f"{name}={amount:g}" for name, amount in sorted(amounts.items()))


def local_check(page: PageSource) -> AuthorError | None:
    """The page's error when this machine lacks what its front matter asks for."""
    if not page.resources:
        return None
    have = machine_resources(set(page.resources))
    missing = lacking(page.resources, have)
    if not missing:
        return None
    shown = {name: round(have[name], 1) for name in missing}
    return AuthorError(
        page.src,
        1,
        f"the page needs {describe(page.resources)} (front matter `execute_resources`), and "
        f"this machine has {describe(shown)}",
        "build it on a machine that has them, or set the llmbook option `execute_cluster` (or "
        "LLMBOOK_CLUSTER) to a Dask scheduler with such workers "
        '(`dask worker ADDRESS --resources "GPU=1"`)',
    )

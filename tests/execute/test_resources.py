"""Front matter `execute_resources`: read and checked, and on a local build (no cluster) the page
fails before it starts when this machine lacks what it asks for."""

from __future__ import annotations

import pytest
import torch
from llmbook.core.errors import AuthorError
from llmbook.execute.cluster import resources
from llmbook.execute.cluster.resources import machine_resources

_FIX = (
    "Fix: build it on a machine that has them, or set the llmbook option `execute_cluster` (or "
    "LLMBOOK_CLUSTER) to a Dask scheduler with such workers "
    '(`dask worker ADDRESS --resources "GPU=1"`)'
)
LIMIT = """\
---
execute_resources: {needs}
---
```python
import resource
print(resource.getrlimit(resource.RLIMIT_AS)[0] == resource.RLIM_INFINITY)
```
"""


def _fails(run_md, page: str) -> str:
    with pytest.raises(AuthorError) as error:
        run_md(page)
    return str(error.value)


def test_a_page_asking_for_a_gpu_fails_at_once_where_there_is_none(run_md, monkeypatch) -> None:
    monkeypatch.setattr(resources, "_cuda_devices", lambda: 0)
    page = LIMIT.format(needs="{GPU: 1, memory_gb: 0.5}")
    assert _fails(run_md, page) == (
        "docs/page.md:1: the page needs GPU=1, memory_gb=0.5 (front matter "
        f"`execute_resources`), and this machine has GPU=0 {_FIX}"
    )


def test_a_gpu_page_runs_where_there_is_one_without_an_address_space_cap(run_md, monkeypatch):
    monkeypatch.setattr(resources, "_cuda_devices", lambda: 1)
    plan = run_md(LIMIT.format(needs="{GPU: 1}"), execute_memory_mb=4096)
    assert plan.result.blocks[0].output == "True\n"  # CUDA reserves more than any cap
    plan = run_md(LIMIT.format(needs="{memory_gb: 0.5}"), execute_memory_mb=4096)
    assert plan.result.blocks[0].output == "False\n"


def test_memory_and_unknown_names_are_this_machines(run_md) -> None:
    text = _fails(run_md, LIMIT.format(needs="{memory_gb: 100000, TPU: 2}"))
    assert text.startswith(
        "docs/page.md:1: the page needs TPU=2, memory_gb=100000 (front matter "
        "`execute_resources`), and this machine has TPU=0, memory_gb="
    )
    assert text.endswith(_FIX)


def test_gpu_counts_the_cuda_devices_torch_sees() -> None:
    have = machine_resources({"GPU", "memory_gb", "TPU"})
    assert have["GPU"] == torch.cuda.device_count()
    assert 0.5 < have["memory_gb"] < 1e5 and have["TPU"] == 0


@pytest.mark.parametrize("value", ["GPU", "{GPU: 0}", "{GPU: -1}", "{GPU: true}", "[GPU]"])
def test_front_matter_that_is_no_mapping_of_amounts_is_an_error(run_md, value: str) -> None:
    page = f"---\nexecute_resources: {value}\n---\n```python\nx = 1\n```\n"
    text = _fails(run_md, page)
    assert text.startswith("docs/page.md:1: front matter `execute_resources: ")
    assert text.endswith(
        "is not a mapping of resource names to positive amounts Fix: write e.g. "
        "`execute_resources: {GPU: 1, memory_gb: 40}` (names as the cluster's Dask workers "
        "declare them; GPU counts CUDA devices, memory_gb the machine's memory)"
    )

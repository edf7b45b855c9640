"""The build's engine, made from the plugin's options: an `EngineSpec` (plain data, the same on a
cluster's workers), the local `Engine` made from it, or a `ClusterEngine` when `execute_cluster`
(or LLMBOOK_CLUSTER) names a Dask scheduler."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from llmbook.core.errors import LLMBookError
from llmbook.core.project import Project
from llmbook.execute.cluster.cluster import ClusterEngine, cluster_address
from llmbook.execute.sandbox.environment import valid_name
from llmbook.execute.sandbox.guards import read_grants
from llmbook.execute.stages.cache import FileHashes
from llmbook.execute.stages.engine import Engine, EngineSpec, Limits, default_workers

__all__ = ["engine_from_options", "env_names", "limits_from_options", "spec_from_options"]


def env_names(names: list[str]) -> tuple[str, ...]:
    """The `execute_env` option's names, checked."""
    wrong = [name for name in names if not valid_name(name)]
    if wrong:
        raise LLMBookError(
            f"mkdocs.yml: `execute_env` holds {', '.join(map(repr, wrong))}, which is no "
            "environment variable name. Fix: list names such as HF_TOKEN (letters, digits, _)"
        )
    return tuple(names)


def limits_from_options(options: Mapping[str, Any]) -> Limits:
    return Limits(
        block_timeout=float(options["execute_timeout"]),
        page_timeout=float(options["execute_page_timeout"]),
        output_limit=int(options["execute_output_limit"]),
        memory_mb=int(options["execute_memory_mb"]),
        file_size_mb=int(options["execute_file_size_mb"]),
    )


def spec_from_options(options: Mapping[str, Any], project: Project) -> EngineSpec:
    """What the build's engine is made from: the llmbook options of mkdocs.yml, read once."""
    root = str(project.root)
    if int(options["execute_threads"]) < 1:
        raise LLMBookError(
            f"mkdocs.yml: `execute_threads: {options['execute_threads']}` is no number of "
            "threads. Fix: write a whole number from 1 (the default: results the same on every "
            "machine) to the machine's cores"
        )
    return EngineSpec(
        workers=int(options["execute_workers"]) or default_workers(),
        limits=limits_from_options(options),
        seed=int(options["execute_seed"]),
        root=root,
        preamble=str(options["execute_preamble"]),
        site_dir=str(project.site_dir),
        sandbox=str(options["execute_sandbox"]),
        env_names=env_names(list(options["execute_env"])),
        network=str(options["execute_network"]),
        read=read_grants(options["execute_read"], root),
        show_last=bool(options["execute_show_last"]),
        ipython=bool(options["execute_ipython"]),
        threads=int(options["execute_threads"]),
    )


def engine_from_options(
    spec: EngineSpec, options: Mapping[str, Any], hashes: FileHashes
) -> Engine | ClusterEngine:
    """The engine that runs the build's pages: made from `spec`, or a Dask cluster's."""
    engine = spec.engine()
    address = cluster_address(str(options["execute_cluster"]))
    if not address:
        return engine
    # pages run as tasks on a Dask cluster (cluster.py); the rest stays here
    wait = float(options["execute_cluster_wait"])
    return ClusterEngine(address, spec, engine, hashes, wait=wait)

"""A notebook the build wrote, executed top to bottom by nbclient with a real ipykernel from its
own folder, and its text outputs compared with the stored ones: per code cell, the stdout and
stderr streams (each joined), the `execute_result`s' text/plain, and the errors' name and value.
Used by the tests (tests/notebooks/test_page_notebook.py) and benchmarks/notebook_rerun.py.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Rerun", "rerun", "text_outputs"]


def text_outputs(cell: dict) -> dict[str, object]:
    """What of a code cell's outputs is text: `stdout`, `stderr`, `results`, `errors`."""
    streams = {"stdout": "", "stderr": ""}
    results, errors = [], []
    for output in cell.get("outputs", []):
        kind = output["output_type"]
        if kind == "stream":
            text = output["text"]
            streams[output["name"]] += "".join(text) if isinstance(text, list) else text
        elif kind == "execute_result":
            plain = output.get("data", {}).get("text/plain", "")
            results.append("".join(plain) if isinstance(plain, list) else plain)
        elif kind == "error":
            errors.append([output["ename"], output["evalue"]])
    return {**streams, "results": results, "errors": errors}


@dataclass
class Rerun:
    """What re-running a notebook gave: its cells, code cells, those whose text outputs equal
    the stored ones, and each difference `(cell index, part, stored, got)`."""

    cells: int
    code_cells: int
    equal: int = 0
    failed: list[int] = field(default_factory=list)  # cells that raised, untagged
    differences: list[tuple[int, str, object, object]] = field(default_factory=list)


def rerun(path: Path, *, timeout: int = 600) -> Rerun:
    """Execute the notebook at `path` in a python3 kernel started in its folder and compare."""
    import nbclient
    import nbformat

    stored = nbformat.read(path, as_version=4)
    notebook = copy.deepcopy(stored)
    client = nbclient.NotebookClient(
        notebook,
        kernel_name="python3",
        timeout=timeout,
        allow_errors=True,  # every cell runs; an untagged error is counted as a failure
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    code = [i for i, cell in enumerate(stored.cells) if cell.cell_type == "code"]
    found = Rerun(len(stored.cells), len(code))
    for index in code:
        before, after = text_outputs(stored.cells[index]), text_outputs(notebook.cells[index])
        tags = stored.cells[index].metadata.get("tags", [])
        if after["errors"] and "raises-exception" not in tags:
            found.failed.append(index)
        parts = [part for part in before if before[part] != after[part]]
        found.differences += [(index, p, before[p], after[p]) for p in parts]
        found.equal += not parts
    return found

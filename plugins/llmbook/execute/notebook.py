"""Notebooks as pages: a `.ipynb` becomes Markdown for the same engine, and comes back executed.

Markdown cells are copied as they are (directives, math and `[[…]]` bindings work as on any page);
code cells become python fences (cell tags `hidden` / `norun` give the fence's mode). A line map
sends every error back to `notebook.ipynb:cell N, line M`. After the build runs the page, the
executed notebook (outputs and figures filled in, nothing else changed) is what readers download.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from llmbook.errors import AuthorError

__all__ = ["Notebook", "cell_line", "executed_notebook", "read_notebook"]

_MODES = ("hidden", "norun")


@dataclass
class Notebook:
    src: str
    data: dict
    markdown: str
    cells: list[
        tuple[int, int]
    ]  # per Markdown line (0-based): (cell number, line in cell; 0 = fence)

    def where(self, line: int) -> str:
        """`cell N, line M` for a 1-based line of the Markdown."""
        return cell_line(self.cells, line)


def cell_line(cells: list[tuple[int, int]], line: int) -> str:
    if not 1 <= line <= len(cells):
        return f"line {line}"
    cell, inner = cells[line - 1]
    return f"cell {cell}" + (f", line {inner}" if inner else "")


def _source(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def read_notebook(text: str, *, src: str) -> Notebook:
    """Parse the notebook JSON and lay its cells out as one Markdown page."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise AuthorError(
            src,
            error.lineno,
            f"the notebook is not valid JSON: {error.msg}",
            "fix the file, or re-save it from Jupyter",
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        raise AuthorError(
            src, 1, "the notebook has no list of cells", "re-save it from Jupyter (nbformat 4)"
        )
    lines: list[str] = []
    cells: list[tuple[int, int]] = []
    for index, cell in enumerate(data["cells"]):
        number = index + 1
        body = _source(cell).rstrip("\n").split("\n")
        kind = cell.get("cell_type")
        if kind == "code":
            tags = [t for t in cell.get("metadata", {}).get("tags", []) if t in _MODES]
            lines.append("```python" + "".join(f" {t}" for t in tags[:1]))
            cells.append((number, 0))
        elif kind != "markdown":
            continue  # raw cells are not part of the page
        for inner, text_line in enumerate(body, start=1):
            lines.append(text_line)
            cells.append((number, inner))
        if kind == "code":
            lines.append("```")
            cells.append((number, len(body) + 1))
        lines.append("")
        cells.append((number, len(body) + 1))
    return Notebook(src, data, "\n".join(lines), cells)


def executed_notebook(
    notebook: Notebook, outputs: dict[int, tuple[str, list[tuple[str, str]]]]
) -> str:
    """The notebook with outputs: `outputs[cell index] = (printed text, [(svg, alt), …])`."""
    data = json.loads(json.dumps(notebook.data))
    count = 0
    for index, cell in enumerate(data["cells"]):
        if cell.get("cell_type") != "code":
            continue
        cell["outputs"], cell["execution_count"] = [], None
        if index not in outputs or cell.get("cell_type") != "code":
            continue
        count += 1
        cell["execution_count"] = count
        text, figures = outputs[index]
        if text:
            cell["outputs"].append(
                {"name": "stdout", "output_type": "stream", "text": text.splitlines(True)}
            )
        for svg, alt in figures:
            cell["outputs"].append(
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {"image/svg+xml": svg.splitlines(True), "text/plain": [alt]},
                }
            )
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"

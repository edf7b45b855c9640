"""A code cell's outputs as Jupyter writes them, made from what a block gave the build: printed
text as `stdout` streams (cut where its displays came), stderr as `stderr` streams, displays and
a last expression's `Out` in their MIME types, figures as SVG with their alt text as
`text/plain`, and a `raises-exception` block's error. Shared by the notebook pages' downloads
(notebook.py) and the notebooks made of Markdown pages (site/page_notebook.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from llmbook.execute.shell.figures import described

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.execute.stages.run import BlockResult

__all__ = ["cell_outputs", "notebook_json", "run_outputs", "written"]


def run_outputs(run: BlockResult, locale: Locale) -> tuple:
    """A block's result as plain data: (printed text, [(svg, alt), …], error or None,
    [[at, data, metadata, kind], …]), each figure described in `locale`."""
    shown = [described(f, locale) for f in run.figures]
    figures = [(f.svg, f.alt) for f in shown]
    displays = [[d.at, d.data, d.metadata, d.kind] for d in run.displays]
    return (run.output, figures, run.error, displays)


def cell_outputs(outputs: tuple, count: int) -> list:
    """The nbformat outputs of a cell run as the `count`th: `outputs` as `run_outputs` makes
    them (error and displays may be absent)."""
    text, figures, *rest = outputs
    error = rest[0] if rest else None
    made = _text_and_displays(text, rest[1] if len(rest) > 1 else [], count)
    for svg, alt in figures:
        shown = {"image/svg+xml": svg, "text/plain": alt}
        made.append(_output("display_data", data=shown, metadata={}))
    if error:
        name, value, lines = error
        made.append(_output("error", ename=name, evalue=value, traceback=list(lines)))
    return made


def _output(output_type: str, **fields: object) -> dict:
    """One output as nbformat writes it, unchecked: `written` checks the whole notebook once
    (nbformat's `new_output` checks each against the schema, most of a notebook's making time)."""
    return {"output_type": output_type, **fields}


def written(notebook: dict) -> str:
    """The notebook's text as nbformat writes it, checked against the schema once: a
    `nbformat.ValidationError` where it breaks it."""
    import nbformat

    found: dict = {}
    text = nbformat.writes(nbformat.from_dict(notebook), capture_validation_error=found)
    if found:
        raise found["ValidationError"]
    return text.rstrip("\n") + "\n"


def _text_and_displays(text: str, displays: list, count: int) -> list:
    """The cell's printed text as stdout streams, cut where its displays came
    (`[at, data, metadata, kind]` each), as `display_data`, `execute_result` or stderr
    `stream` outputs."""
    made, start = [], 0
    for at, data, metadata, kind in [*displays, (len(text), None, None, None)]:
        at = max(start, min(at, len(text)))
        if text[start:at]:
            made.append(_output("stream", name="stdout", text=text[start:at]))
        start = at
        if data is None:
            continue
        if kind == "stream":  # stderr's text (display.py)
            text_out = data.get("text/plain", "")
            made.append(_output("stream", name="stderr", text=text_out))
            continue
        extra = {"execution_count": count} if kind == "execute_result" else {}
        made.append(_output(kind, data=data, metadata=metadata, **extra))
    return made


# Besides text/*, the MIME types whose text nbformat writes as a list of lines.
_SPLIT_MIMES = frozenset({"image/svg+xml", "application/javascript"})


def notebook_json(notebook: dict) -> str:
    """The text `written` gives for a notebook made here, without importing nbformat and
    jsonschema (a tenth of a second an edited page's rebuild would pay): nbformat 4's layout
    (one-space indent, sorted keys, multi-line text as lists of lines). Not checked against the
    schema here: the tests check every notebook the book makes, and that this text is
    nbformat's."""
    cells = [_split_cell(cell) for cell in notebook["cells"]]
    text = json.dumps(
        {**notebook, "cells": cells},
        indent=1,
        sort_keys=True,
        separators=(",", ": "),
        ensure_ascii=False,
    )
    return text + "\n"


def _split_cell(cell: dict) -> dict:
    split = {**cell, "source": _lines(cell["source"])}
    if cell["cell_type"] == "code":
        split["outputs"] = [_split_output(output) for output in cell["outputs"]]
    return split


def _split_output(output: dict) -> dict:
    if output["output_type"] == "stream":
        return {**output, "text": _lines(output["text"])}
    if "data" in output:
        data = {
            mime: _lines(value) if mime.startswith("text/") or mime in _SPLIT_MIMES else value
            for mime, value in output["data"].items()
        }
        return {**output, "data": data}
    return output


def _lines(value: object) -> object:
    return value.splitlines(True) if isinstance(value, str) else value

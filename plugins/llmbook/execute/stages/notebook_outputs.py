"""A code cell's outputs as Jupyter writes them, made from what a block gave the build: printed
text as `stdout` streams (cut where its displays came), stderr as `stderr` streams, displays and
a last expression's `Out` in their MIME types, figures as SVG with their alt text as
`text/plain`, and a `raises-exception` block's error. Shared by the notebook pages' downloads
(notebook.py) and the notebooks made of Markdown pages (site/page_notebook.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from llmbook.execute.shell.figures import described

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.execute.stages.run import BlockResult

__all__ = ["cell_outputs", "run_outputs"]


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
    import nbformat

    text, figures, *rest = outputs
    error = rest[0] if rest else None
    made = _text_and_displays(text, rest[1] if len(rest) > 1 else [], count)
    for svg, alt in figures:
        shown = {"image/svg+xml": svg, "text/plain": alt}
        made.append(nbformat.v4.new_output("display_data", data=shown, metadata={}))
    if error:
        name, value, lines = error
        made.append(
            nbformat.v4.new_output("error", ename=name, evalue=value, traceback=list(lines))
        )
    return made


def _text_and_displays(text: str, displays: list, count: int) -> list:
    """The cell's printed text as stdout streams, cut where its displays came
    (`[at, data, metadata, kind]` each), as `display_data`, `execute_result` or stderr
    `stream` outputs."""
    import nbformat

    made, start = [], 0
    for at, data, metadata, kind in [*displays, (len(text), None, None, None)]:
        at = max(start, min(at, len(text)))
        if text[start:at]:
            made.append(nbformat.v4.new_output("stream", name="stdout", text=text[start:at]))
        start = at
        if data is None:
            continue
        if kind == "stream":  # stderr's text (display.py)
            text_out = data.get("text/plain", "")
            made.append(nbformat.v4.new_output("stream", name="stderr", text=text_out))
            continue
        extra = {"execution_count": count} if kind == "execute_result" else {}
        made.append(nbformat.v4.new_output(kind, data=data, metadata=metadata, **extra))
    return made

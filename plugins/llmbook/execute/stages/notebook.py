"""Notebooks as pages: a `.ipynb` becomes Markdown for the same engine, and comes back executed.

Markdown cells are copied as they are (directives, math and `[[…]]` bindings work as on any page);
code cells become python fences, their known cell tags (`remove-input`, `hide-output`,
`raises-exception`, …: tags.py) and Jupyter's collapsed state (`jupyter.source_hidden`,
`outputs_hidden`) written after the language, as on a Markdown page. A line map
sends every error back to `notebook.ipynb:cell N, line M`. After the build runs the page, the
executed notebook (outputs and figures filled in, nothing else changed) is what readers download.

Read, validated and written with nbformat, the Jupyter project's own library: an older notebook is
converted to version 4, one that breaks the schema is an author error, and the download is checked
against the schema before it is written. What Jupyter itself would mend (a kernelspec without its
name, ids in a notebook that claims an older minor version) is mended with one log line. nbformat is imported only when a notebook is read or
written: a warm build takes both from its caches and spends no time importing it (and jsonschema).
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any

from mkdocs.plugins import get_plugin_logger

from llmbook.core.errors import AuthorError
from llmbook.core.lexer import cell_line, engine_text, fences
from llmbook.core.store import Store, key, version
from llmbook.core.store_namespaces import NOTEBOOKS
from llmbook.execute.stages.notebook_outputs import cell_outputs, written
from llmbook.execute.stages.tags import TAGS, read_tags

__all__ = ["Notebook", "executed_notebook", "read_notebook"]

log = get_plugin_logger(__name__)
# Outputs: per cell index (printed text, [(svg, alt), …], the expected error or None, and
# optionally the displays: [[at, data, metadata, kind], …], see display.py).
Outputs = dict[int, tuple]


@dataclass
class Notebook:
    src: str
    data: dict[str, Any]  # version 4, validated; plain JSON data (kept plans need no nbformat)
    markdown: str
    cells: list[
        tuple[int, int]
    ]  # per Markdown line (0-based): (cell number, line in cell; 0 = fence)

    def prose_lines(self) -> frozenset[int]:
        """0-based lines of the Markdown that come from Markdown cells: prose, whose fences
        Jupyter shows and never runs."""
        kinds = [cell.get("cell_type") for cell in self.data["cells"]]
        return frozenset(
            i for i, (cell, _) in enumerate(self.cells) if kinds[cell - 1] == "markdown"
        )

    def where(self, line: int) -> str:
        """`cell N, line M` for a 1-based line of the Markdown."""
        return cell_line(self.cells, line)

    @property
    def language(self) -> str:
        """The language of its code cells, as its kernel says (Python when it does not say)."""
        return notebook_language(self.data)


def notebook_language(data: dict[str, Any]) -> str:
    metadata = data.get("metadata", {})
    spec, info = metadata.get("kernelspec", {}), metadata.get("language_info", {})
    named = (spec.get("language") if isinstance(spec, dict) else None) or (
        info.get("name") if isinstance(info, dict) else None
    )
    return str(named or "python").lower()


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
    data = _validated(_with_ids(data), src)
    lines: list[str] = []
    cells: list[tuple[int, int]] = []
    language = notebook_language(data)
    for index, cell in enumerate(data["cells"]):
        number = index + 1
        source = _with_attachments(cell, _source(cell)).replace("\r\n", "\n").replace("\r", "\n")
        body = source.rstrip("\n").split("\n")
        kind = cell.get("cell_type")
        closing = None
        if kind == "code":
            # Longer than any backtick run in the cell, so no line of its code closes it.
            closing = "`" * max(3, 1 + max(map(len, re.findall("`+", source)), default=0))
            tags = "".join(f" {t}" for t in _fence_tags(cell))
            lines.append(f"{closing}{'python' if language == 'python' else language}{tags}")
            cells.append((number, 0))
        elif kind == "raw" and _shown_raw(cell):  # as nbconvert's HTML: verbatim
            closing = "</div>"
            lines.append('<div class="llmbook-raw" markdown="0">')
            cells.append((number, 0))
        elif kind == "markdown":
            # Jupyter renders each Markdown cell alone: a fence left open ends with its cell.
            unclosed = [f for f in fences(body) if f.end >= len(body)]
            closing = unclosed[0].prefix + unclosed[0].fence if unclosed else None
        else:
            continue  # a raw cell for another format (LaTeX, reST, …) is not part of the page
        for inner, text_line in enumerate(body, start=1):
            lines.append(text_line)
            cells.append((number, inner))
        if closing is not None:
            lines.append(closing)
            cells.append((number, len(body) + 1))
        lines.append("")
        cells.append((number, len(body) + 1))
    if lines and _read_as_meta(lines[0]):  # MkDocs would take it as metadata and drop it
        lines.insert(0, _HOLDS_FIRST_LINE)
        cells.insert(0, (1, 0))
    return Notebook(src, data, engine_text("\n".join(lines)), cells)


# MkDocs reads a page's first lines as metadata when they are YAML front matter or `key: value`
# lines, and drops the blank lines before its text: a notebook's Markdown must start with none.
_HOLDS_FIRST_LINE = "<!-- notebook -->"
_META_LINE = re.compile(r"^[ ]{0,3}[A-Za-z0-9_-]+:|^-{3}[ \t]*$")


def _read_as_meta(line: str) -> bool:
    return not line.strip() or _META_LINE.match(line) is not None


def _shown_raw(cell: dict) -> bool:
    """nbconvert's HTML shows a raw cell meant for HTML, or for no format in particular."""
    metadata = cell.get("metadata", {})
    wanted = metadata.get("format", metadata.get("raw_mimetype", "")) if metadata else ""
    return str(wanted or "").lower() in ("", "text/html")


def _with_attachments(cell: dict, source: str) -> str:
    """A Markdown cell's `attachment:name` images as `data:` URIs, as nbconvert's HTML has them."""
    attachments = cell.get("attachments") if cell.get("cell_type") == "markdown" else None
    for name, bundle in (attachments or {}).items():
        mime = next((m for m in bundle if m.startswith("image/")), None) if bundle else None
        if mime is not None:
            data = "".join(bundle[mime]) if isinstance(bundle[mime], list) else bundle[mime]
            uri = f"data:{mime};base64,{data.strip()}"
            source = source.replace(f"attachment:{name}", uri)
    return source


def _fence_tags(cell: dict) -> list[str]:
    """The cell's known tags, then `hide-input` / `hide-output` for Jupyter's collapsed source or
    outputs (unless a tag already says what that part does)."""
    metadata = cell.get("metadata", {})
    try:
        shown, tags = read_tags(metadata.get("tags", []))
    except ValueError:  # two tags contradict each other: the collect stage names the cell
        return [t for t in dict.fromkeys(metadata.get("tags", [])) if t in TAGS]
    collapsed = metadata.get("jupyter", {}) if isinstance(metadata.get("jupyter"), dict) else {}
    if collapsed.get("source_hidden") is True and shown.code == "show" and not shown.cell:
        tags.append("hide-input")
    if collapsed.get("outputs_hidden") is True and shown.output == "show" and not shown.cell:
        tags.append("hide-output")
    return tags


def executed_notebook(
    notebook: Notebook,
    outputs: Outputs,
    *,
    store: Store | None = None,
) -> str:
    """The notebook with outputs: `outputs[cell index] = (printed text, [(svg, alt), …], error,
    displays)` (the error, of a `raises-exception` cell, is (name, value, traceback lines) or
    None; error and displays may be absent),
    validated against the notebook schema. With a `store`, the text is kept in its "notebooks"
    namespace under a key of the notebook, the outputs and nbformat's version."""
    if store is None or not store.enabled:
        return _executed(notebook, outputs)
    parts = [notebook.data, sorted(outputs.items()), version("nbformat")]
    memo = store.memo(NOTEBOOKS, key(parts), codec="text")
    text = memo.get()  # verified: a torn or foreign entry is a miss, never a download
    if text is None:
        text = _executed(notebook, outputs)
        memo.put(text)
    return text


def _executed(notebook: Notebook, outputs: Outputs) -> str:
    import nbformat

    data = nbformat.from_dict(copy.deepcopy(notebook.data))
    count = 0
    for index, cell in enumerate(data.cells):
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        if index not in outputs:
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = cell_outputs(outputs[index], count)
    return written(data)


def _with_ids(data: dict) -> dict:
    """Cells of a 4.5+ notebook need ids; one written without (by hand, by a script) gets
    `cell-N` (stable across builds, unlike nbformat's own random repair)."""
    major, minor = data.get("nbformat"), data.get("nbformat_minor", 0)
    if not (isinstance(major, int) and isinstance(minor, int)) or (major, minor) < (4, 5):
        return data
    taken = {c.get("id") for c in data["cells"] if isinstance(c, dict)}
    for number, cell in enumerate(data["cells"], start=1):
        if isinstance(cell, dict) and "id" not in cell and f"cell-{number}" not in taken:
            cell["id"] = f"cell-{number}"
    return data


def _validated(data: dict, src: str) -> dict[str, Any]:
    """The notebook as nbformat reads it (converted to version 4, mended where it can be), as
    plain data; AuthorError naming the cell and the field when it breaks the schema."""
    import nbformat

    try:
        node = nbformat.from_dict(data)
        if node.get("nbformat") != 4:
            node = nbformat.convert(node, 4)
        error = _schema_error(node)
        if error is not None:
            repairs = _repair(node)
            error = _schema_error(node) if repairs else error
            if error is not None:
                raise error
            log.info(f"{src}: repaired {'; '.join(repairs)} (re-save it from Jupyter to keep it)")
    except nbformat.ValidationError as error:
        path = list(error.absolute_path)
        if path[:1] == ["cells"] and len(path) > 1:
            path[:2] = [f"cell {path[1] + 1}"]
        where = "".join(f"{part}: " for part in path)
        raise AuthorError(
            src,
            1,
            f"the notebook does not follow the nbformat 4 schema: {where}{error.message}",
            "re-save it from Jupyter, or fix that field",
        ) from None
    except (ValueError, KeyError, TypeError, AttributeError) as error:  # versions nbformat lacks
        raise AuthorError(
            src,
            1,
            f"nbformat cannot read the notebook: {error}",
            "re-save it from Jupyter (nbformat 4)",
        ) from None
    return json.loads(json.dumps(node))


def _schema_error(node: Any) -> Exception | None:
    import nbformat

    try:
        nbformat.validate(node)
    except nbformat.ValidationError as error:
        return error
    return None


def _repair(node: Any) -> list[str]:
    """Mend, in place, what Jupyter itself fills in or upgrades; what was mended, in words."""
    done = []
    metadata = node.get("metadata", {})
    needed = (("kernelspec", "name", "python3"), ("kernelspec", "display_name", "Python 3"))
    for part, field, value in (*needed, ("language_info", "name", "python")):
        if isinstance(metadata.get(part), dict) and field not in metadata[part]:
            metadata[part][field] = value
            done.append(f"the missing metadata.{part}.{field} (set to {value})")
    minor = node.get("nbformat_minor")
    cells = node.get("cells", [])
    if (
        isinstance(minor, int)
        and minor < 5
        and any(isinstance(c, dict) and "id" in c for c in cells)
    ):
        node["nbformat_minor"] = 5
        _with_ids(node)
        done.append(f"nbformat 4.{minor} with cell ids (now marked 4.5, the version that has them)")
    return done

"""Every Markdown page that ran code, as the Jupyter notebook readers download beside it.

The notebook is the page in order (its prose as Markdown cells: notebook_prose.py; each block
that ran as a code cell, with the outputs the build produced and Jupyter Book's tags for what
the page hides), after a first cell that does what the build did before the page's first block:
`__file__`, the `execute_preamble`, the seeds and torch's threads. Re-run in Jupyter from its own
folder, it gives the same text outputs: a block whose last bare expression the build did not
show (`execute_show_last` off) ends it with `;`, Jupyter's way of showing nothing.

`x.md`'s notebook is `x.ipynb` beside the page in the site. Where a notebook page `x.ipynb` is
beside it, that page's executed notebook keeps the name: `x.md` gets none, and the build warns.
Kept in the store's "notebooks" namespace under a key of everything it is made from, so a warm
build neither imports nbformat nor makes a cell; written in nbformat's layout by the standard
library (`notebook_json`), so an edited page's rebuild imports neither nbformat nor jsonschema.
The tests check every notebook the book makes against the schema and nbformat's own writer.
"""

from __future__ import annotations

import ast
import platform
import posixpath
from importlib.util import find_spec
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote

from mkdocs.plugins import get_plugin_logger
from mkdocs.utils import get_relative_url

from llmbook.core.store import bytes_digest, key, llmbook_hash, version
from llmbook.core.store_namespaces import NOTEBOOKS
from llmbook.execute.stages.notebook_outputs import cell_outputs, notebook_json, run_outputs
from llmbook.execute.stages.tags import Display
from llmbook.site.notebook_setup import setup_code
from llmbook.site.notebook_prose import CodeCell, page_cells, prose_context
from llmbook.site.render_cache import result_digest
from llmbook.site.site import after_title

if TYPE_CHECKING:
    from llmbook.core.i18n import Locale
    from llmbook.core.page_ref import PageRef
    from llmbook.execute.stages.plan import Plan
    from llmbook.site.site import Site

__all__ = [
    "block_tags",
    "download_html",
    "notebook_of",
    "notebook_uri",
    "page_notebook",
    "quiet_last",
    "with_download",
    "write_page_notebooks",
]

log = get_plugin_logger(__name__)

KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


def notebook_uri(uri: str) -> str:
    """Where a page's notebook lies in the site: `chapters/x.md` → `chapters/x.ipynb`."""
    return posixpath.splitext(uri)[0] + ".ipynb"


def _runs_code(plan: Plan | None) -> bool:
    """A Markdown page whose build ran at least one block and checked its tree (a notebook
    page has its own download: the executed notebook; a page the live preview shows with its
    errors has no tree to make prose of)."""
    return (
        plan is not None
        and plan.page.cells is None
        and plan.result is not None
        and bool(plan.result.blocks)
        and plan.doc is not None
    )


def notebook_of(site: Site, src: str) -> str | None:
    """The site path of page `src`'s notebook (relative to the site folder); None for a page
    that ran no code, or whose notebook a notebook page beside it already is."""
    if not _runs_code(site.report.plans.get(src)):
        return None
    uri = notebook_uri(site.project.uri(src))
    taken = {site.project.uri(other) for other in site.report.notebooks}
    return None if uri in taken else uri


def download_html(locale: Locale, href: str) -> str:
    """The link to a page's notebook, in the page's words (`href`: relative to the page)."""
    text = locale.ui("notebook_download")
    return f'<p class="llmbook-download"><a href="{quote(href)}" download>{text}</a></p>'


def with_download(site: Site, page: PageRef, markdown: str, put: Callable[[str], str]) -> str:
    """For an engine without an end-of-build hook (Zensical): the page's notebook written into
    the site now, and its link (stashed by `put`) after the page's title in `markdown`. A
    notebook page's notebook is the executed notebook, where it is in docs/."""
    if page.src in site.report.notebooks:
        path: str | None = site.outputs.write_notebook(site.report, page.src)
    else:
        path = notebook_of(site, page.src)
        if path is None:
            return markdown
        target = site.project.site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page_notebook(site, page.src), encoding="utf-8")
    link = download_html(site.locale, get_relative_url(path, page.url))
    return after_title(markdown, put(link))


def write_page_notebooks(site: Site) -> int:
    """Write every executed Markdown page's notebook into the site; how many were written. A
    page whose notebook a notebook page beside it already is gets a warning instead."""
    written = 0
    for src in sorted(site.report.plans):
        path = notebook_of(site, src)
        if path is None:
            if _runs_code(site.report.plans[src]):
                uri = notebook_uri(site.project.uri(src))
                log.warning(
                    f"{src}:1: the page's notebook would be {uri}, which the notebook page "
                    f"beside it already is; it is left out. Fix: rename one of the two pages"
                )
            continue
        target = site.project.site_dir / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page_notebook(site, src), encoding="utf-8")
        written += 1
    return written


def _links_key(site: Site, src: str) -> object:
    """What the page's prose took from the rest of the book: the parts, terms and citations its
    render looked up (`page_deps`, the render cache's record), so an edit of another page
    remakes only the notebooks that show what changed; without that record (a page another
    shard rendered), every page of the book."""
    deps = site.page_deps.get(src)
    if deps is not None:
        return vars(deps)
    return sorted((name, bytes_digest(raw)) for name, raw in site.sources.items())


def page_notebook(site: Site, src: str) -> str:
    """The notebook of page `src` (one `notebook_of` names), as nbformat writes it."""
    plan = site.report.plans[src]
    uri = site.project.uri(src)
    if not site.store.enabled:
        return _made(site, src, plan, posixpath.basename(uri))
    parts = [
        src,
        uri,
        plan.text,
        plan.result_digest or result_digest(plan.result),
        _run_options(site, plan),
        site.render_cache_key() or site.locale.digest,
        _links_key(site, src),
        [version(name) for name in ("torch", "noto-cjk-sans-otc")],  # the setup cell's
        platform.python_version(),
        llmbook_hash(),
    ]
    memo = site.store.memo(NOTEBOOKS, key(parts), codec="text")
    text = memo.get()
    if text is None:
        text = _made(site, src, plan, posixpath.basename(uri))
        memo.put(text)
    return text


def _run_options(site: Site, plan: Plan) -> dict:
    options = site.options
    return {
        "preamble": str(options["execute_preamble"]),
        "seed": int(options["execute_seed"]),
        "threads": plan.page.threads or int(options["execute_threads"]),
        "show_last": bool(options["execute_show_last"]),
    }


def _made(site: Site, src: str, plan: Plan, name: str) -> str:
    run = _run_options(site, plan)
    torch = find_spec("torch") is not None  # the build seeds torch where it is installed
    options = {k: run[k] for k in ("preamble", "seed", "threads")}
    options["figures"] = _draws(plan)
    setup = setup_code(site.locale, name=name, torch=torch, **options)
    cells = [_cell("code", setup, execution_count=1, metadata={"tags": ["llmbook-setup"]})]
    blocks = {block.line: (pos, block) for pos, block in enumerate(plan.page.blocks)}
    results = plan.result.blocks if plan.result is not None else {}
    for item in page_cells(prose_context(site, src)):
        if not isinstance(item, CodeCell):
            cells.append(_cell("markdown", item.markdown))
            continue
        pos, block = blocks[item.line]
        count = 1 + sum(c["cell_type"] == "code" for c in cells)
        code = block.code if run["show_last"] else quiet_last(block.code)
        done = results.get(pos)
        outputs = cell_outputs(run_outputs(done, site.locale), count) if done else []
        metadata = _cell_metadata(block.display)
        cells.append(_cell("code", code, execution_count=count, outputs=outputs, metadata=metadata))
    for number, cell in enumerate(cells, start=1):
        cell["id"] = f"cell-{number}"  # stable from build to build (nbformat's own are random)
    metadata = {"kernelspec": dict(KERNELSPEC), "language_info": _language_info()}
    return notebook_json({"nbformat": 4, "nbformat_minor": 5, "metadata": metadata, "cells": cells})


def _cell(kind: str, source: str, **fields: object) -> dict:
    """A cell as nbformat writes it (`notebook_json`: the tests check it against the schema)."""
    code = {"execution_count": None, "outputs": []} if kind == "code" else {}
    return {"cell_type": kind, "metadata": {}, "source": source, **code, **fields}


def _draws(plan: Plan) -> str:
    """How the page's figures were drawn: "cjk" with the CJK font installed, "plain" without
    it, "" for a page that drew none."""
    results = plan.result.blocks.values() if plan.result is not None else ()
    if not any(run.figures for run in results):
        return ""
    return "cjk" if find_spec("noto_cjk_sans_otc") is not None else "plain"


def _language_info() -> dict:
    return {
        "name": "python",
        "version": platform.python_version(),
        "mimetype": "text/x-python",
        "file_extension": ".py",
        "pygments_lexer": "ipython3",
        "codemirror_mode": {"name": "ipython", "version": 3},
        "nbconvert_exporter": "python",
    }


def block_tags(shown: Display) -> list[str]:
    """Jupyter Book's tags for what a block's tags or mode (`python hidden`) ask of the page."""
    if shown.code == "remove" and shown.output == "remove":
        tags = ["remove-cell"]
    elif shown.cell:
        tags = ["hide-cell"]
    else:
        words = {"remove": "remove-{}", "hide": "hide-{}"}
        tags = [words[v].format(part) for part, v in (("input", shown.code),
                ("output", shown.output)) if v in words]  # fmt: skip
    return [*tags, *(["raises-exception"] if shown.run == "raises" else [])]


def _cell_metadata(shown: Display) -> dict:
    """The cell's tags, and Jupyter's own folding for what the page shows collapsed."""
    metadata: dict = {}
    tags = block_tags(shown)
    if tags:
        metadata["tags"] = tags
    folded = {"source_hidden": shown.code == "hide", "outputs_hidden": shown.output == "hide"}
    if any(folded.values()):
        metadata["jupyter"] = {k: True for k, v in folded.items() if v}
    return metadata


def quiet_last(code: str) -> str:
    """`code` with `;` after its last statement when that is a bare expression (not a call of
    `print` or `display`, which show nothing): Jupyter then shows no `Out`, as the build did
    not. Inserted where the expression ends, so a comment after it does not hide it."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):  # magics, or a block meant to raise: left as it is
        return code
    last = tree.body[-1] if tree.body else None
    if not isinstance(last, ast.Expr) or _shows_nothing(last.value):
        return code
    lines = code.split("\n")
    row = last.end_lineno - 1
    line = lines[row]
    at = len(line.encode("utf-8")[: last.end_col_offset].decode("utf-8"))  # offsets are bytes
    if line[at:].lstrip().startswith(";"):
        return code
    lines[row] = line[:at] + ";" + line[at:]
    return "\n".join(lines)


def _shows_nothing(value: ast.expr) -> bool:
    func = value.func if isinstance(value, ast.Call) else None
    return isinstance(func, ast.Name) and func.id in ("print", "display")

"""Jupyter's own test notebooks (nbclient's and nbconvert's, fetched by jupyter_corpus.py), each
built as the only page of a small site: the page and its executed download must show, mime type
by mime type, the outputs Jupyter's reference run stored in the notebook.

A notebook that waits for a feature llmbook lacks is an expected failure naming that feature
(strict: the day it passes, the mark must go). A notebook that cannot apply to a build without a
kernel is left out in LEFT_OUT with the reason. One that must fail the build says where.
"""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, Tag
from sites import build, write_config

from .jupyter_corpus import corpus
from .outputs import differences, outputs, page_misses

pytestmark = pytest.mark.slow

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
IPYWIDGETS_7 = "ipywidgets 7, which the reference run had (display_data, not execute_result)"
# Kept as a difference: a figure is the book's SVG whatever `%config InlineBackend` asks.
FIGURE_FORMATS = "figures in the format `%config InlineBackend.figure_formats` asks (PNG here)"


@dataclass(frozen=True)
class Case:
    path: str  # in the corpus
    waits_for: tuple[str, ...] = ()  # the llmbook features it needs: an expected failure
    varies: tuple[tuple[int, str], ...] = ()  # (cell, mime or "text"): values that differ per run
    optional: tuple[str, ...] = ()  # mime types the reference machine made with a tool we lack

    @property
    def id(self) -> str:
        return self.path.split("/", 1)[0] + ":" + Path(self.path).stem


NBCLIENT = "nbclient/tests/files/"
NBCONVERT = "nbconvert/tests/files/"
EXPORTERS = "nbconvert/tests/exporters/files/"
COMPARED = [
    Case(NBCLIENT + "HelloWorld.ipynb"),
    Case(NBCLIENT + "Factorials.ipynb"),
    Case(NBCLIENT + "Unicode.ipynb"),
    Case(NBCLIENT + "UnicodePy3.ipynb"),
    Case(NBCLIENT + "Empty Cell.ipynb"),
    Case(NBCLIENT + "SVG.ipynb"),
    Case(NBCLIENT + "Skip Execution with Cell Tag.ipynb"),
    Case(NBCLIENT + "Other Comms.ipynb"),
    Case(NBCLIENT + "Skip Exceptions with Cell Tags.ipynb"),
    Case(NBCLIENT + "Check History in Memory.ipynb"),
    Case(NBCLIENT + "Clear Output.ipynb"),
    Case(NBCLIENT + "Inline Image.ipynb"),
    # A widget's model id is a fresh UUID every run, in Jupyter too.
    Case(NBCLIENT + "JupyterWidgets.ipynb", varies=((1, WIDGET_VIEW),)),
    Case(NBCONVERT + "notebook_tags.ipynb"),
    # SymPy's LaTeX has changed since; its PNG needs a LaTeX install the reference machine had.
    Case(
        NBCONVERT + "notebook1.ipynb",
        varies=((7, "text/latex"), (8, "text/latex"), (9, "text/latex")),
        optional=("image/png",),
    ),
    Case(NBCONVERT + "notebook4_jpeg.ipynb"),
    # Its reference ran ipywidgets 7, which showed a widget with display(); ipywidgets 8 (what
    # installs now) makes it the cell's result: every output's kind differs, in Jupyter too.
    Case(NBCONVERT + "Widget_List.ipynb", waits_for=(IPYWIDGETS_7,)),
    Case(EXPORTERS + "prompt_numbers.ipynb"),
    Case(EXPORTERS + "rst_output.ipynb"),
    # The figure: Jupyter's inline backend shows it as the format %config asks (retina PNG).
    Case(EXPORTERS + "pngmetadata.ipynb", waits_for=(FIGURE_FORMATS,)),
    # The figure is the book's SVG (its fonts as paths, its alt text): compared by presence.
    Case(EXPORTERS + "svg.ipynb", varies=((1, "image/svg+xml"), (1, "text/plain"))),
]
# The build must stop at the cell that raises, as nbconvert does without --allow-errors.
FAILING = {
    NBCLIENT + "Error.ipynb": "cell 1, line 1: ZeroDivisionError: division by zero",
    NBCLIENT + "Skip Exceptions.ipynb": "cell 1, line 2: Exception: message",
    NBCONVERT + "notebook3_with_errors.ipynb": (
        "cell 4, line 2: RuntimeError: This is a deliberate exception"
    ),
    NBCLIENT + "Autokill.ipynb": "cell 1: the page's worker process was killed by SIGTERM",
    # Its Markdown tests a parser with a `$$` never closed: the book's math step calls that an
    # author's error (MathJax shows the `$$` as text).
    EXPORTERS + "notebook2.ipynb": "cell 13, line 4: display math `$$` is never closed",
}
LEFT_OUT = {
    NBCLIENT + "Disable Stdin.ipynb": "reads stdin (input()): a build has no one to type",
    EXPORTERS + "notebook3.ipynb": "reads stdin (input()): a build has no one to type",
    NBCLIENT + "Interrupt.ipynb": "loops until the kernel is interrupted: a build times it out",
    NBCLIENT + "Parallel Execute A.ipynb": "two kernels at once, told a folder by nbclient's test",
    NBCLIENT + "Parallel Execute B.ipynb": "two kernels at once, told a folder by nbclient's test",
    NBCLIENT + "Sleep1s.ipynb": "its reference stored no outputs (it prints the clock)",
    NBCLIENT + "update-display-id.ipynb": "sends messages on the kernel's own iopub socket",
    NBCLIENT + "Output.ipynb": "the Output widget captures through kernel messages (comms)",
    NBCONVERT + "Unexecuted_widget.ipynb": "stores no outputs (Widget_List covers widgets)",
    NBCONVERT + "Unexecuted_widget_2.ipynb": "stores no outputs (Widget_List covers widgets)",
    NBCONVERT + "markdown_display_priority.ipynb": (
        "imports IPython.display.set_matplotlib_formats, which IPython 9 removed: Jupyter fails it"
    ),
    NBCONVERT + "notebook2.ipynb": (
        "imports set_matplotlib_formats (removed in IPython 9) and reads `ip`, a name no current"
        " kernel defines: Jupyter fails it"
    ),
    EXPORTERS + "notebook_inject.ipynb": "its outputs are planted payloads: see the test below",
    EXPORTERS + "rawtest.ipynb": "raw cells only: see the test below",
    EXPORTERS + "attachment.ipynb": "Markdown only: see the image test below",
    NBCONVERT + "latex-linked-image.ipynb": "Markdown only: see the image test below",
    NBCONVERT + "notebook5_embed_images.ipynb": "Markdown only: see the image test below",
    NBCONVERT + "notebook_jl.ipynb": "a Julia notebook: see the test below",
}
CONFIG = {
    "site_name": "Jupyter corpus",
    "use_directory_urls": False,
    "theme": {"name": "material"},
    "plugins": [{"llmbook": {"offline_check": False}}],
    "markdown_extensions": [
        "llmbook.extension",
        "pymdownx.superfences",
        "pymdownx.details",
        "tables",
    ],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus(tmp_path_factory)


def slug(path: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", Path(path).stem.lower()).strip("-")


def lay_out(folder: Path, path: str, root: Path) -> Path:
    """A site whose only page is the notebook, the files beside it (what it opens) beside it
    still; returns the config file."""
    source = folder / path
    docs = root / "docs"
    docs.mkdir(parents=True)
    for beside in source.parent.iterdir():
        if beside.is_file() and beside.suffix != ".ipynb":
            shutil.copy(beside, docs / beside.name)
    shutil.copy(source, docs / f"{slug(path)}.ipynb")
    return write_config(root, CONFIG)


def _marks(case: Case) -> list[pytest.MarkDecorator]:
    if not case.waits_for:
        return []
    return [pytest.mark.xfail(strict=True, reason="needs " + "; ".join(case.waits_for))]


def test_every_notebook_of_the_corpus_is_compared_failed_or_left_out(folder: Path) -> None:
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*.ipynb")}
    listed = [c.path for c in COMPARED] + list(FAILING) + list(LEFT_OUT)
    assert sorted(listed) == sorted(found)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=_marks(c)) for c in COMPARED])
def test_the_page_shows_the_outputs_jupyter_stored(
    case: Case, folder: Path, tmp_path: Path
) -> None:
    site = build(
        lay_out(folder, case.path, tmp_path), site=tmp_path / "site", in_process=True, cache=False
    ).site
    reference = outputs(json.loads((folder / case.path).read_text(encoding="utf-8")))
    download = json.loads((site / f"{slug(case.path)}.ipynb").read_text(encoding="utf-8"))
    found = differences(reference, outputs(download), varies=case.varies, optional=case.optional)
    page = (site / f"{slug(case.path)}.html").read_text(encoding="utf-8")
    assert found + page_misses(page, reference) == []


@pytest.mark.parametrize("path", list(FAILING), ids=lambda p: Path(p).stem)
def test_a_notebook_that_raises_fails_the_build_at_its_cell(
    path: str, folder: Path, tmp_path: Path
) -> None:
    done = build(lay_out(folder, path, tmp_path), site=tmp_path / "site", cache=False)
    assert done.returncode == 1
    assert f"docs/{slug(path)}.ipynb:{FAILING[path]}" in done.stderr


def _article(folder: Path, path: str, root: Path) -> tuple[Tag, Path]:
    site = build(lay_out(folder, path, root), site=root / "site", in_process=True, cache=False).site
    page = (site / f"{slug(path)}.html").read_text(encoding="utf-8")
    return BeautifulSoup(page, "html.parser").find("article"), site


@pytest.mark.parametrize(
    "path",
    [
        NBCONVERT + "latex-linked-image.ipynb",
        NBCONVERT + "notebook5_embed_images.ipynb",
        EXPORTERS + "attachment.ipynb",
    ],
    ids=lambda p: Path(p).stem,
)
def test_every_image_a_markdown_cell_shows_is_in_the_site(
    path: str, folder: Path, tmp_path: Path
) -> None:
    article, site = _article(folder, path, tmp_path)
    sources = [img["src"] for img in article.find_all("img")]
    assert sources
    # a cell's attachment is inlined as a `data:` URI, as nbconvert's HTML has it
    assert [s for s in sources if not (s.startswith("data:image/") or (site / s).is_file())] == []


def test_raw_cells_for_html_or_for_no_format_are_shown(folder: Path, tmp_path: Path) -> None:
    article, _ = _article(folder, EXPORTERS + "rawtest.ipynb", tmp_path)
    assert article.find("b", string="raw html") is not None
    text = article.get_text()
    assert "no raw_mimetype metadata, should be included by default" in text
    assert "garbage format" not in text and "raw rst" not in text and "raw python" not in text


def test_outputs_stored_in_a_notebook_never_reach_the_page(folder: Path, tmp_path: Path) -> None:
    """nbconvert's injection notebook stores payloads in outputs and their metadata: a build
    shows what it ran, never what the file claims to have printed."""
    article, _ = _article(folder, EXPORTERS + "notebook_inject.ipynb", tmp_path)
    planted = re.findall(
        r"alert\('([^']+)'\)", (folder / EXPORTERS / "notebook_inject.ipynb").read_text()
    )
    # The Markdown cell's script is the author's own Markdown, shown as a Markdown page's is; a
    # raw cell for no format is the author's HTML, shown verbatim as nbconvert's HTML shows it.
    own = {"markdown cell", "raw cell"}
    assert sorted(set(planted) - own)[:3] == [
        "application/javascript output",
        "cell_tag",
        "image/jpeg output",
    ]
    reached = [p for p in set(planted) - own if p in str(article)]
    assert reached == []


def test_a_julia_notebook_is_refused_naming_its_language(folder: Path, tmp_path: Path) -> None:
    path = NBCONVERT + "notebook_jl.ipynb"
    done = build(lay_out(folder, path, tmp_path), site=tmp_path / "site", cache=False)
    assert done.returncode == 1
    said = [x for x in done.stderr.splitlines() if x.startswith(f"docs/{slug(path)}.ipynb")]
    assert said and "julia" in said[0].lower()

"""Three public tutorial collections (nbsphinx's documentation, emcee's tutorials, markdown-exec's
usage pages; fetched by tutorial_corpus.py) built as pages of a plain Material site with
llmbook's default options: content no one on the team wrote.

Every page is either built (its notebook's stored outputs shown, mime type by mime type, as
Jupyter's reference run stored them, except values listed as varying per run), or refused by the
build at the cell or line, and for the reason, written in its Case. Three builds in all: one site
of the pages that build, one of the pages whose code must fail (the build reports every failing
page at once), one of the pages that load from the internet (their images are fetched into the
site, through a proxy that refuses, so the suite never reaches the internet; the offline check
names the rest). A page that cannot run in a build at all is in LEFT_OUT with the reason.
"""

from __future__ import annotations

import json
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

import pytest
from sites import Built, build, write_config

from .jupyter_corpus import corpus
from .outputs import Output, differences, outputs, page_misses
from .tutorial_corpus import PINS

pytestmark = pytest.mark.slow

# Each collection's pages, laid out under docs/<collection>/ as they lie in its sdist.
COLLECTIONS = {
    "nbsphinx": "nbsphinx/doc",
    "emcee": "emcee/docs/tutorials",
    "markdown-exec": "markdown_exec/docs/usage",
}
# The reference run drew figures as PNG (`%config InlineBackend.figure_format = "retina"`); the
# book draws every figure as SVG, and its text/plain is the figure's alt text (as in
# test_jupyter_corpus.py's svg.ipynb): a figure is compared by presence, as an SVG.
FIGURE = "image/png"
NEEDS_NETWORK = "URLError: <urlopen error [Errno -3] Temporary failure in name resolution>"


@dataclass(frozen=True)
class Case:
    page: str  # under docs/: "<collection>/<path in the collection's folder>"
    refused: str = ""  # the build's report after `docs/<page>:`; empty: the page builds
    why: str = ""  # why a refusal is the right answer
    varies: tuple[tuple[int, str], ...] = ()  # (cell, mime or "text"): values that differ per run
    figures: int = 0  # a notebook that stores no outputs: the figures Jupyter would show

    @property
    def source(self) -> str:
        collection, rest = self.page.split("/", 1)
        return f"{COLLECTIONS[collection]}/{rest}"


BUILT = [
    # nbsphinx's documentation: notebooks executed by nbsphinx, so they store no outputs.
    Case("nbsphinx/a-markdown-file.md"),
    Case("nbsphinx/allow-errors-per-cell.ipynb"),  # the `raises-exception` tag, as Jupyter Book's
    Case("nbsphinx/custom-css.ipynb"),
    Case("nbsphinx/executing-notebooks.ipynb"),
    Case("nbsphinx/hidden-cells.ipynb"),
    Case("nbsphinx/links.ipynb"),
    Case("nbsphinx/never-execute.ipynb"),  # `nbsphinx: {execute: never}` is nbsphinx's: it runs
    Case("nbsphinx/orphan.ipynb"),
    Case("nbsphinx/prolog-and-epilog.ipynb"),
    Case("nbsphinx/raw-cells.ipynb"),
    Case("nbsphinx/timeout.ipynb"),
    Case("nbsphinx/usage.ipynb"),
    Case("nbsphinx/yet-another.ipynb"),
    Case("nbsphinx/gallery/cell-metadata.ipynb", figures=1),
    Case("nbsphinx/gallery/cell-tag.ipynb", figures=2),
    Case("nbsphinx/gallery/cinque-rst.ipynb"),
    Case(
        "nbsphinx/gallery/default-thumbnail.ipynb", figures=3
    ),  # cell 7 shows cell 5's again: display(fig)
    Case("nbsphinx/gallery/gallery-with-links.ipynb"),
    Case("nbsphinx/gallery/gallery-with-nested-documents.ipynb"),
    Case("nbsphinx/gallery/no-thumbnail.ipynb"),
    Case("nbsphinx/gallery/uno-rst.ipynb"),
    Case("nbsphinx/subdir/a-notebook-in-a-subdir.ipynb"),  # opens ../images/notebook_icon.png
    Case("nbsphinx/subdir/gallery.ipynb"),
    Case("nbsphinx/subdir/toctree.ipynb"),
    # emcee's tutorials, with the outputs of the reference run.
    # Seeded, so every run prints the same; the reference's emcee drew DEMove's steps otherwise
    # (6.49 there, 6.37 with emcee 3.1.6, in Jupyter too).
    Case("emcee/moves.ipynb", varies=((9, "text"),)),
    # NumPy 2 writes a scalar as `np.float64(-2.59…)`; the reference ran NumPy 1 (`-2.59…`).
    Case("emcee/quickstart.ipynb", varies=((15, "text/plain"),)),
    # markdown-exec's usage pages whose python fences all lie inside ````md examples (shown).
    Case("markdown-exec/python.md"),
    Case("markdown-exec/shell.md"),
    Case("markdown-exec/tree.md"),
]
REFUSED = [
    Case(
        "nbsphinx/allow-errors.ipynb",
        "cell 3, line 1: NameError: name 'nonsense' is not defined",
        "its errors are allowed by nbsphinx's own metadata (`nbsphinx: {allow_errors: true}`);"
        " llmbook reads Jupyter Book's `raises-exception` tag, per cell",
    ),
    Case(
        "nbsphinx/code-cells.ipynb",
        "cell 25, line 1: " + NEEDS_NETWORK,
        "needs the network (`Image(url=…, embed=True)` downloads python.org's logo)",
    ),
    Case(
        "nbsphinx/configuring-kernels.ipynb",
        "cell 6, line 2: KeyError: 'MY_DUMMY_VARIABLE'",
        "reads a variable that nbsphinx's conf.py sets in the kernel's environment",
    ),
    Case(
        "nbsphinx/gallery/multiple-outputs.ipynb",
        "cell 3, line 6: " + NEEDS_NETWORK,
        "needs the network (`Image(url=…, embed=True)`); line 5, `../images/…`, opens",
    ),
    Case(
        "emcee/line.ipynb",
        "cell 11, line 1: ModuleNotFoundError: No module named 'scipy'",
        "needs scipy and corner, packages we do not install",
    ),
    Case(
        "emcee/monitor.ipynb",
        "cell 4, line 22: ImportError: you must install 'h5py' to use the HDFBackend",
        "needs h5py, a package we do not install",
    ),
    Case(
        "markdown-exec/index.md",
        "231: TypeError: bad operand type for unary -: 'str'",
        'its fence holds `--8<-- "usage/hide.py"`, a pymdownx.snippets include, which a plain'
        " site does not enable: the line runs as Python",
    ),
    Case(
        "markdown-exec/pyodide.md",
        "174: FileNotFoundError: [Errno 2] No such file or directory: 'gh'",
        "runs the GitHub CLI (`gh api …`), a program we do not install, over the network",
    ),
]
# Pages that run, but show images, audio or video by URL: the build fetches the images into the
# site (`remote_images: fetch`, the default) and fails at each it cannot fetch; the offline check
# (on by default) names the audio and video, and links to files the site does not have; each at
# the cell and line that wrote the URL.
NOT_FETCHED = ": no connection: "
OFFLINE = [
    Case(
        "nbsphinx/installation.ipynb",
        "cell 2, line 9: https://anaconda.org/conda-forge/nbsphinx/badges/version.svg"
        + NOT_FETCHED,
        "shows its version badges from anaconda.org and badge.fury.io",
    ),
    Case(
        "nbsphinx/markdown-cells.ipynb",
        "cell 14, line 7: https://www.python.org/static/img/python-logo-large.png" + NOT_FETCHED,
        "shows images, audio and video from python.org, jupyter.org and wikimedia.org",
    ),
    Case(
        "nbsphinx/gallery/thumbnail-from-conf-py.ipynb",
        "cell 6, line 5: <a href> a-local-file.png (nbsphinx/gallery/thumbnail-from-conf-py.html)",
        "links the figure its code saves (`fig.savefig('a-local-file.png')`): a file no build "
        "ships, so a 404 for the reader",
    ),
    Case(
        "nbsphinx/configuration.ipynb",
        "cell 16, line 3: <a href> custom-formats.ipynb (nbsphinx/configuration.html)",
        "links the notebook nbsphinx makes of `custom-formats.pct.py` (with jupytext), which a "
        "MkDocs site does not have: a 404 for the reader",
    ),
]
LEFT_OUT = {
    "nbsphinx/pre-executed.ipynb": (
        "sleeps an hour (`%time time.sleep(60 * 60)`) and imports a library that does not exist:"
        " nbsphinx shows its stored outputs without running it; a build would time out after"
        " `execute_timeout` (120 s), too long for this suite"
    ),
    "emcee/autocorr.ipynb": (
        "needs celerite (cell 6), a package we do not install, and past it, as a page runs on"
        " past a raising cell, samples 500 000 steps: minutes, too long for this suite"
    ),
    "emcee/parallel.ipynb": (
        "busy-waits about a minute to time serial against multiprocessing sampling (its outputs"
        " are those timings), then runs MPI (`!mpiexec`, schwimmbad), which we do not install"
    ),
}
STUBS = {
    ".md": "# Left out\n",
    ".ipynb": json.dumps(
        {
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": ["# Left out\n"]}],
            "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    ),
}
CONFIG = {
    "site_name": "Tutorial corpus",
    "use_directory_urls": False,
    "theme": {"name": "material", "font": False},
    "plugins": ["llmbook"],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus(tmp_path_factory, PINS)


def lay_out(folder: Path, cases: list[Case], root: Path) -> Path:
    """A site of the folders of the cases' collections (with the images and files the pages
    open), of whose pages only those of `cases` are kept, the others a stub of one heading (the
    pages link each other: a link to a page of the collection reaches one); returns the config
    file."""
    docs = root / "docs"
    for collection in sorted({c.page.split("/", 1)[0] for c in cases}):
        shutil.copytree(folder / COLLECTIONS[collection], docs / collection)
    keep = {c.page for c in cases}
    for page in [*docs.rglob("*.ipynb"), *docs.rglob("*.md")]:
        if page.relative_to(docs).as_posix() not in keep:
            page.write_text(STUBS[page.suffix], encoding="utf-8")
    (docs / "index.md").write_text("# Tutorial corpus\n", encoding="utf-8")
    return write_config(root, CONFIG)


@pytest.fixture(scope="module")
def built(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("built")
    return build(lay_out(folder, BUILT, root), in_process=True, cache=False).site


@pytest.fixture(scope="module")
def refused(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("refused")
    return build(lay_out(folder, REFUSED, root), cache=False)


@pytest.fixture(scope="module")
def offline(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("offline")
    return build(lay_out(folder, OFFLINE, root), cache=False, env=refusing_proxy())


def refusing_proxy() -> dict[str, str]:
    """Proxy variables naming a local port nothing listens on: each download is refused at once
    (no name lookup, no internet), as on a machine offline."""
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        proxy = f"http://127.0.0.1:{closed.getsockname()[1]}"
    names = ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY")
    return {**dict.fromkeys(names, proxy), "no_proxy": "", "NO_PROXY": ""}


def test_every_page_of_the_corpus_is_built_refused_or_left_out(folder: Path) -> None:
    found = set()
    for collection, source in COLLECTIONS.items():
        for page in (folder / source).rglob("*"):
            if page.suffix in (".ipynb", ".md"):
                found.add(f"{collection}/{page.relative_to(folder / source).as_posix()}")
    listed = [c.page for c in BUILT + REFUSED + OFFLINE] + list(LEFT_OUT)
    assert sorted(listed) == sorted(found)


def as_the_book_draws(reference: list[Output]) -> tuple[list[Output], set[tuple[int, str]]]:
    """The reference with each figure's PNG as the SVG the book draws, and those (cell, mime)
    pairs, whose values differ by format."""
    drawn, figures = [], set()
    for output in reference:
        if FIGURE in output.data and output.data.get("text/plain", "").startswith("<Figure"):
            data = {k: v for k, v in output.data.items() if k != FIGURE}
            output = Output(output.cell, output.kind, {**data, "image/svg+xml": "<svg/>"})
            figures |= {(output.cell, "image/svg+xml"), (output.cell, "text/plain")}
        drawn.append(output)
    return drawn, figures


@pytest.mark.parametrize("case", BUILT, ids=lambda c: c.page)
def test_the_page_shows_the_outputs_its_notebook_stored(
    case: Case, folder: Path, built: Path
) -> None:
    html = built / Path(case.page).with_suffix(".html")
    assert html.is_file()
    if not case.page.endswith(".ipynb"):
        return
    stored = json.loads((folder / case.source).read_text(encoding="utf-8"))
    reference, figures = as_the_book_draws(outputs(stored))
    ours = outputs(json.loads((built / case.page).read_text(encoding="utf-8")))
    if not reference:  # nbsphinx runs its notebooks when it builds: they store no outputs
        assert len([o for o in ours if "image/svg+xml" in o.data]) == case.figures
        return
    found = differences(reference, ours, varies={*case.varies, *figures})
    # the page must show every reference text but those that vary (figures: by count)
    steady = [
        o for o in reference if not {(o.cell, "text"), (o.cell, "text/plain")} & {*case.varies}
    ]
    assert found + page_misses(html.read_text(encoding="utf-8"), steady) == []


def reported(built: Built, cases: list[Case]) -> tuple[list[str], list[str]]:
    """(the report's lines about a page no case refuses, the cases' reports it lacks)."""
    said = [x.strip() for x in built.stderr.splitlines() if x.strip().startswith("docs/")]
    expected = [f"docs/{c.page}:{c.refused}" for c in cases]
    pages = tuple(f"docs/{c.page}:" for c in cases)
    return [x for x in said if not x.startswith(pages)], [
        e for e in expected if not any(x.startswith(e) for x in said)
    ]


def test_the_refused_pages_fail_the_build_each_at_its_cell_and_reason(refused: Built) -> None:
    assert refused.returncode == 1
    assert reported(refused, REFUSED) == ([], [])
    assert f"ERROR   -  {len(REFUSED)} pages failed with " in refused.stderr  # every raising cell
    assert "Traceback (most recent call last)" not in refused.stderr


def test_pages_that_load_from_the_internet_fail_the_build_at_their_cells(
    offline: Built,
) -> None:
    assert offline.returncode == 1
    assert reported(offline, OFFLINE) == ([], [])
    assert "The pages show 4 image(s) by URL that could not be fetched" in offline.stderr
    assert "The site loads 2 resource(s) from outside site/" in offline.stderr  # audio, video

"""IPython's example notebooks (fetched by errors_corpus.py), as IPython 8.39 published them,
built as a plain Material site: a public collection whose cells raise today.

- With `execute_allow_errors: true` every notebook is a page, each raising cell shows its error
  as Jupyter shows it, and the page shows the stored outputs of at least as many cells as
  mkdocs-jupyter's page of the same notebook (`execute: true, allow_errors: true`; measured by
  benchmarks/notebook_corpus_compare.py, pinned in each Case).
- With llmbook's defaults the build fails, naming every raising cell.

A Case's raising cells are those that raise in Jupyter: found with nbclient (IPython 9.18,
ipykernel 7.4, the packages of this suite, no network, no scipy, PyQt4, vincent or python2).
Where llmbook's run differs by design (its guards, no kernel, no stdin) the Case says so; where it
waits for a feature llmbook lacks, the notebook's tests are expected failures naming it (strict:
the day one passes, the mark must go). A notebook that cannot run in a build is in LEFT_OUT.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from sites import Built, build, write_config

from .errors_corpus import PINS
from .jupyter_corpus import corpus
from .outputs import Output, cells_shown, outputs, page_misses

pytestmark = pytest.mark.slow

EXAMPLES = "ipython/examples"  # the collection's folder in the corpus: docs/ of the site
PROMPTS = "IPython's input transformers: `>>>` and `In [1]:` prompts stripped from pasted code"
AUTOMAGIC = "automagic: a line magic without its `%` (`ls nbpackage`)"
FUTURE = "IPython's statement-by-statement run: `from __future__` after other statements"
HISTORY = "IPython's input history variables (`_i`, `_ii`, `In[11]`)"
CWD_IMPORT = "the working folder on sys.path: `import mod` of a module %%writefile wrote"


@dataclass(frozen=True)
class Case:
    page: str  # under docs/, as under the sdist's examples/
    raises: tuple[tuple[int, str], ...] = ()  # (cell, exception name): raising in Jupyter
    mkdocs_jupyter: int = 0  # cells whose stored outputs mkdocs-jupyter's page shows whole
    waits_for: tuple[str, ...] = ()  # llmbook features its cells need to raise as in Jupyter
    shows_fewer: bool = False  # without them, the page shows fewer than mkdocs-jupyter's

    @property
    def cells(self) -> list[str]:
        """How a build's report names each raising cell."""
        return [f"docs/{self.page}:cell {cell}" for cell, _ in self.raises]


KERNEL = "IPython Kernel/"
NO_STDIN = "EOFError"  # input(): Jupyter's kernel raises StdinNotImplementedError
CASES = [
    Case("Index.ipynb"),
    Case("Embedding/Index.ipynb"),
    Case(
        KERNEL + "Animations Using clear_output.ipynb",
        ((9, "ImportError"), (13, "ModuleNotFoundError")),  # IPython.parallel; scipy
        mkdocs_jupyter=1,
    ),
    Case(KERNEL + "Background Jobs.ipynb"),
    Case(
        KERNEL + "Beyond Plain Python.ipynb",
        (
            (16, "SyntaxError"),  # `collections.`: a completion shown, not code
            (24, "NameError"),  # `_10 == Out[10]`: a fresh run numbers its results anew
            (62, "ZeroDivisionError"),  # the error %debug and %xmode then show
            (63, "ZeroDivisionError"),
            (64, "ZeroDivisionError"),
            (72, "ZeroDivisionError"),
            # 73 `%debug`: Jupyter's debugger asks the kernel's stdin and raises; a build has no
            # stdin and keeps no traceback to debug, so IPython says so
            (75, NO_STDIN),
            (82, "UsageError"),  # %connect_info and %qtconsole are the kernel's magics
            (84, "UsageError"),
        ),
        mkdocs_jupyter=19,
        waits_for=(PROMPTS, HISTORY, CWD_IMPORT),
        shows_fewer=True,
    ),
    Case(KERNEL + "Capturing Output.ipynb", mkdocs_jupyter=8),
    # `%%ruby` and `%%script python2` print "Couldn't find program" where the program is not
    # on PATH (the builds' PATH: the interpreter's folder, /usr/bin, /bin); 35 reads what
    # `%%ruby --bg` left as a file, which it is not (where ruby is installed: a StreamReader)
    Case(KERNEL + "Cell Magics.ipynb", ((35, "AttributeError"),), mkdocs_jupyter=6),
    Case(KERNEL + "Custom Display Logic.ipynb", mkdocs_jupyter=15),
    Case(
        KERNEL + "Importing Notebooks.ipynb",
        # 36 copies a notebook into IPython's installed package, which the guards forbid
        # (Jupyter writes it there); 38 imports it
        ((36, "PermissionError"), (38, "ImportError")),
        mkdocs_jupyter=4,
        waits_for=(AUTOMAGIC,),
    ),
    Case(KERNEL + "Index.ipynb", mkdocs_jupyter=1),
    Case(KERNEL + "Plotting in the Notebook.ipynb", mkdocs_jupyter=2),
    Case(
        KERNEL + "Raw Input in the Notebook.ipynb",
        ((4, NO_STDIN), (5, "ZeroDivisionError")),  # 6 `%debug`: as in Beyond Plain Python
        mkdocs_jupyter=1,
    ),
    Case(
        KERNEL + "Rich Output.ipynb",
        # 22 Image(url=…, embed=True), offline; 24 and 26 use what it was to define; 60 a
        # float where an int must be
        ((22, "URLError"), (24, "NameError"), (26, "NameError"), (60, "TypeError")),
        mkdocs_jupyter=17,
    ),
    Case(
        KERNEL + "SymPy.ipynb",
        ((28, "AttributeError"), (29, "AttributeError"), (31, "AttributeError")),  # sympy.numbers
        mkdocs_jupyter=19,
        waits_for=(FUTURE,),
        shows_fewer=True,
    ),
    Case(
        KERNEL + "Terminal Usage.ipynb",
        ((10, "ModuleNotFoundError"), (12, "NameError")),  # PyQt4
        mkdocs_jupyter=5,
    ),
    Case(
        KERNEL + "Third Party Rich Output.ipynb",
        # vincent; pandas.io.data, moved to pandas-datareader in 2015
        (
            (22, "ModuleNotFoundError"),
            (23, "ModuleNotFoundError"),
            (24, "NameError"),
            (25, "NameError"),
        ),
        mkdocs_jupyter=7,
    ),
    Case(
        KERNEL + "Trapezoid Rule.ipynb", ((10, "ModuleNotFoundError"),), mkdocs_jupyter=1
    ),  # scipy
    Case(KERNEL + "Updating Displays.ipynb", mkdocs_jupyter=7),
    Case(
        KERNEL + "Working With External Code.ipynb",
        ((10, "URLError"),),  # %load of a URL, offline
        mkdocs_jupyter=2,
        waits_for=(PROMPTS,),
    ),
    Case(KERNEL + "nbpackage/mynotebook.ipynb"),
    Case(KERNEL + "nbpackage/nbs/other.ipynb"),
]
LEFT_OUT = {
    KERNEL + "Script Magics.ipynb": (
        "cell 28 reads `bashout`, which `%%script --bg --out` makes an asyncio StreamReader since"
        " IPython 8: `readline()` is a coroutine, never empty, and the loop writes forever (in"
        " Jupyter too: nbclient's cell timeout stops it), until `execute_timeout` (120 s)"
    ),
}
ALLOWING = {
    "site_name": "IPython examples",
    "use_directory_urls": False,
    "theme": {"name": "material", "font": False},
    # Rich Output shows an image, a sound and two frames by URL: fetching the image (offline, it
    # fails) and the offline check (both on by default, tested by test_remote_images.py and
    # test_tutorial_corpus.py) would fail the build after every page ran.
    "plugins": [
        {
            "llmbook": {
                "execute_allow_errors": True,
                "remote_images": "keep",
                "offline_check": False,
            }
        }
    ],
}
STRICT = {**ALLOWING, "plugins": ["llmbook"]}
# The programs a page finds: the interpreter's folder, /usr/bin and /bin, so every machine runs
# the notebooks alike (a pyenv shim for `python2` in ~/.pyenv fails where none is found passes).
PATH = os.pathsep.join((str(Path(sys.executable).parent), "/usr/bin", "/bin"))
# A report's line for a raising cell: `docs/x.ipynb:cell 9, line 1: ImportError: …`.
CELL = re.compile(r"(docs/.+?\.ipynb):cell (\d+), line ")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return corpus(tmp_path_factory, PINS)


def lay_out(folder: Path, config: dict, root: Path) -> Path:
    """The collection's folder as docs/ (with the images, data and modules its notebooks open),
    less LEFT_OUT, and a nav of its notebooks; returns the config file."""
    docs = root / "docs"
    shutil.copytree(folder / EXAMPLES, docs)
    for page in LEFT_OUT:
        (docs / page).unlink()
    nav = sorted((p.relative_to(docs).as_posix() for p in docs.rglob("*.ipynb")), key=_nav_order)
    return write_config(root, {**config, "nav": nav})


def _nav_order(page: str) -> tuple[int, str]:
    return page.count("/"), page  # the collection's index first, then each folder's


@pytest.fixture(scope="module")
def allowing(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("allowing")
    return build(lay_out(folder, ALLOWING, root), cache=False, env={"PATH": PATH})


@pytest.fixture(scope="module")
def strict(folder: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    root = tmp_path_factory.mktemp("strict")
    return build(lay_out(folder, STRICT, root), cache=False, env={"PATH": PATH})


def waiting(case: Case, *, wait: bool) -> list[pytest.MarkDecorator]:
    if not wait:
        return []
    return [pytest.mark.xfail(strict=True, reason="needs " + "; ".join(case.waits_for))]


def each(cases: list[Case], *, shown: bool = False) -> list:
    """The cases as parameters, those waiting for a feature marked (for the outputs: those
    whose page shows fewer for it)."""
    return [
        pytest.param(
            c, id=c.page, marks=waiting(c, wait=c.shows_fewer if shown else bool(c.waits_for))
        )
        for c in cases
    ]


def named(built: Built) -> dict[str, list[str]]:
    """The cells a build's report names, by page: `docs/<page>:cell N` for each line."""
    found: dict[str, list[str]] = {}
    for line in built.stderr.splitlines():
        if match := CELL.search(line):
            found.setdefault(match[1], []).append(f"{match[1]}:cell {match[2]}")
    return found


def test_every_notebook_of_the_collection_is_a_case_or_left_out(folder: Path) -> None:
    found = [p.relative_to(folder / EXAMPLES).as_posix() for p in (folder / EXAMPLES).rglob("*")]
    listed = [c.page for c in CASES] + list(LEFT_OUT)
    assert sorted(listed) == sorted(p for p in found if p.endswith(".ipynb"))


def test_allowing_errors_every_notebook_is_a_page(allowing: Built) -> None:
    allowing.ok()
    for case in CASES:
        assert (allowing.site / case.page).with_suffix(".html").is_file(), case.page


@pytest.mark.parametrize("case", each(CASES))
def test_each_raising_cell_shows_its_error_and_is_named_in_a_warning(
    case: Case, allowing: Built
) -> None:
    download = json.loads((allowing.site / case.page).read_text(encoding="utf-8"))
    found = raised(download)
    assert [(cell, name) for cell, name, _ in found] == list(case.raises)
    page = (allowing.site / case.page).with_suffix(".html").read_text(encoding="utf-8")
    assert (
        page_misses(page, [Output(cell, "stderr", {"text": end}) for cell, _, end in found]) == []
    )
    assert named(allowing).get(f"docs/{case.page}", []) == case.cells


def raised(notebook: dict) -> list[tuple[int, str, str]]:
    """(cell, exception name, the line its traceback ends with) of each error output of a
    notebook llmbook ran: the line Jupyter shows too (`SyntaxError: invalid syntax`, without the
    place the exception's value adds)."""
    return [
        (number, raw["ename"], raw["traceback"][-1])
        for number, cell in enumerate(notebook["cells"], start=1)
        for raw in cell.get("outputs", [])
        if raw["output_type"] == "error"
    ]


@pytest.mark.parametrize("case", each(CASES))
def test_the_strict_build_names_every_raising_cell(case: Case, strict: Built) -> None:
    assert strict.returncode == 1
    assert named(strict).get(f"docs/{case.page}", []) == case.cells


@pytest.mark.parametrize("case", each(CASES, shown=True))
def test_the_page_shows_stored_outputs_as_often_as_mkdocs_jupyter(
    case: Case, folder: Path, allowing: Built
) -> None:
    stored = stored_outputs(folder, case)
    page = (allowing.site / case.page).with_suffix(".html").read_text(encoding="utf-8")
    assert len(cells_shown(page, stored)) >= case.mkdocs_jupyter


def stored_outputs(folder: Path, case: Case) -> list[Output]:
    """The outputs the notebook stored, as IPython 8.39's sdist ships it."""
    return outputs(json.loads((folder / EXAMPLES / case.page).read_text(encoding="utf-8")))

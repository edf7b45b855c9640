"""IPython's example notebooks, fetched from PyPI when a test needs them (never committed), as
jupyter_corpus.py fetches Jupyter's test notebooks: a public collection whose cells raise today.

IPython's sdists up to 8.39 ship `examples/`: 22 notebooks written for IPython 1 to 4 (its
display system, magics, plotting, SymPy, importing notebooks), with the outputs their reference
runs stored and the files they open (`images/`, `IPython Kernel/data/`, `nbpackage/`). Run with
IPython 9 they raise where they teach an error (`div(1, 0)`), where an API they call is gone
(`from IPython import parallel`, `pandas.io.data`, `sympy.numbers`), where a package or program
is missing (PyQt4, vincent, scipy, python2) and where they read the network or stdin.

    folder = corpus(tmp_path_factory, PINS)   # once per test run, or in $LLMBOOK_ERRORS_CORPUS
    path = folder / "ipython/examples/IPython Kernel/Rich Output.ipynb"
"""

from __future__ import annotations

from .jupyter_corpus import Pins

__all__ = ["ENV", "PINS"]

# A folder that keeps the corpus between runs (nox passes one in); else one per test run.
ENV = "LLMBOOK_ERRORS_CORPUS"
# The one place the version is pinned: (version, SHA-256 of the sdist PyPI serves). 8.39.0 is
# the last release whose sdist ships examples/ (9.0 dropped it).
PINS = Pins(
    sdists={
        "ipython": ("8.39.0", "4110ae96012c379b8b6db898a07e186c40a2a1ef5d57a7fa83166047d9da7624"),
    },
    folders={"ipython": ("examples",)},
    env=ENV,
    pinned_in="tests/notebooks/errors_corpus.py",
    label="errors-corpus",
)

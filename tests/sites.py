"""Build a site for a test: the one helper every test that builds a site goes through.

    built = build(root / "mkdocs.yml", site=root / "site", engine="mkdocs", in_process=False,
                  cache=False, strict=True)

A build runs in a subprocess (a fresh interpreter: what a reader's `mkdocs build` does, and the
only way to see its imports or a cold cache) or in this process (no interpreter, MkDocs or torch
start-up to pay: a few seconds less per build; exceptions reach the test as they are raised).
`write_pages` and `project_config` lay out the project folder; the `make_site` fixture in
tests/conftest.py does all three in the test's tmp_path.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from filelock import FileLock

__all__ = [
    "ROOT",
    "Built",
    "build",
    "build_project_site",
    "masked_panel",
    "masked_provenance",
    "once_per_run",
    "project_config",
    "project_site",
    "write_config",
    "write_pages",
]

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("mkdocs", "zensical")
# MkDocs 1.6 and Material print a notice about MkDocs 2.0 on every run; no test reads it.
QUIET = {"NO_MKDOCS_2_WARNING": "1"}


@dataclass(frozen=True)
class Built:
    """What a build left: its site folder, exit status and output (subprocess builds), and the
    loaded MkDocs config (in-process builds: its plugins hold what the build observed)."""

    site: Path
    returncode: int = 0
    stdout: str = ""
    stderr: str = ""
    config: Any = None

    def ok(self) -> Built:
        assert self.returncode == 0, self.stderr[-4000:]
        return self

    def page(self, rel: str = "index.html") -> str:
        return (self.site / rel).read_text(encoding="utf-8")


def write_pages(docs: Path, pages: Mapping[str, str | bytes], *, dedent: bool = False) -> None:
    """Write `{"a/b.md": text}` under `docs` (bytes as they are, text dedented if asked)."""
    for rel, text in pages.items():
        path = docs / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(textwrap.dedent(text) if dedent else text, encoding="utf-8")


def project_config(docs: Path | None = None, nav: list | None = None, **keys: Any) -> dict:
    """A config on the project's mkdocs.yml: INHERIT merges mappings and replaces lists, so only
    the keys given here change."""
    config: dict[str, Any] = {"INHERIT": str(ROOT / "mkdocs.yml")}
    if docs is not None:
        config["docs_dir"] = str(docs)
    if nav is not None:
        config["nav"] = nav
    return {**config, **keys}


def write_config(root: Path, config: Mapping[str, Any] | str) -> Path:
    """`root/mkdocs.yml` from a mapping (as YAML, Chinese kept readable) or from YAML text."""
    text = config if isinstance(config, str) else yaml.safe_dump(dict(config), allow_unicode=True)
    path = root / "mkdocs.yml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if str(ROOT / "mkdocs.yml") in text and not (root / "locales").exists():
        # the project's options name its own words' folder relative to mkdocs.yml
        (root / "locales").symlink_to(ROOT / "locales", target_is_directory=True)
    return path


def build(
    config_file: Path,
    *,
    site: Path | None = None,
    engine: str = "mkdocs",
    in_process: bool = False,
    strict: bool = False,
    cache: bool | Path | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
    script: str | None = None,
    command: str | None = None,
    python: Path | None = None,
) -> Built:
    """Build `config_file` into `site` (None: the config's own site_dir).

    cache: False = off (LLMBOOK_CACHE=0); True = on in its default folder (`.llmbook-cache` beside
    the config); a Path = on in that folder; None = as the environment says. cwd: where the build
    runs (default: the config's folder). env: more environment variables. Subprocess only: `args`
    after the engine's command, or `script` run by Python with argv [config_file, site] instead
    of the engine's CLI.
    In process only: `command` ("serve", default "build") is passed to the plugins' on_startup.
    python: the interpreter of a subprocess build (default: this one), e.g. a fresh venv's.
    """
    if engine not in ENGINES:
        raise ValueError(f"engine {engine!r} is not one of {ENGINES}")
    variables = {**QUIET, **_cache_env(cache), **(env or {})}
    cwd = cwd or config_file.parent
    if in_process:
        if engine != "mkdocs" or script is not None or args or python is not None:
            raise ValueError(
                "in-process builds run MkDocs' own build: no engine, script, args or python"
            )
        return _build_in_process(config_file, site, strict, cache, cwd, variables, command)
    if command is not None:
        raise ValueError("`command` (the on_startup event) applies to in-process builds only")
    if script is not None:
        argv = ["-c", script, str(config_file), str(site)]
    else:
        argv = _cli(engine, config_file, site, strict, args)
    environ = {**os.environ, **variables}
    for name in _removed(cache):
        environ.pop(name, None)
    done = subprocess.run(
        [str(python or sys.executable), *argv],
        cwd=cwd,
        env=environ,
        capture_output=True,
        text=True,
        timeout=900,
    )
    return Built(site or config_file.parent / "site", done.returncode, done.stdout, done.stderr)


def _cache_env(cache: bool | Path | None) -> dict[str, str]:
    if cache is False:
        return {"LLMBOOK_CACHE": "0"}
    if isinstance(cache, Path):
        return {"LLMBOOK_CACHE_DIR": str(cache)}
    return {}


def _removed(cache: bool | Path | None) -> tuple[str, ...]:
    """Variables a build must not inherit: a cache switched on ignores a caller's LLMBOOK_CACHE=0,
    and one in its default folder a caller's LLMBOOK_CACHE_DIR."""
    if cache is True:
        return ("LLMBOOK_CACHE", "LLMBOOK_CACHE_DIR")
    return ("LLMBOOK_CACHE",) if isinstance(cache, Path) else ()


def _cli(engine: str, config_file: Path, site: Path | None, strict: bool, args: Sequence[str]):
    if engine == "zensical":
        # Zensical reads mkdocs.yml from its working directory and has no --strict or -d.
        return ["-m", "zensical", "build", *args]
    argv = ["-m", "mkdocs", "build", "-f", str(config_file), *(["--strict"] if strict else [])]
    return [*argv, *(["-d", str(site)] if site is not None else []), *args]


def _build_in_process(
    config_file: Path,
    site: Path | None,
    strict: bool,
    cache: bool | Path | None,
    cwd: Path,
    variables: Mapping[str, str],
    command: str | None,
) -> Built:
    """MkDocs' build called here, the environment and working directory restored afterwards."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    with pytest.MonkeyPatch.context() as patch, warnings.catch_warnings():
        # jieba leaves the user dictionary it reads open (the project's search): an error under
        # pytest's warning filter, ignored as Python ignores it in a build in its own process.
        warnings.filterwarnings("ignore", "unclosed file .*jieba_userdict", ResourceWarning)
        for name, value in variables.items():
            patch.setenv(name, value)
        for name in _removed(cache):
            patch.delenv(name, raising=False)
        patch.chdir(cwd)
        overrides: dict[str, Any] = {"strict": True} if strict else {}
        if site is not None:
            overrides["site_dir"] = str(site)
        config = load_config(str(config_file), **overrides)
        # Always: MkDocs keeps plugin objects between loads in one process, so a build after an
        # in-process `serve` would otherwise run as the live preview.
        config.plugins.on_startup(command=command or "build", dirty=False)
        mkdocs_build(config)
    return Built(Path(config.site_dir), config=config)


def build_project_site(site_dir: Path) -> Path:
    """The project's site (mkdocs.yml as is) built into `site_dir` and its English edition
    (mkdocs.en.yml) into `site_dir/en`, with their PDF and EPUB editions in `site_dir`'s sibling
    `dist/` (and copied into the sites); a fresh execution cache of their own, which the English
    build reads (its pages run once, as the Chinese build ran them), and one thread per build
    (two test workers share two cores). The builds' logs: `build.zh.log`, `build.en.log` beside."""
    env = {
        "OMP_NUM_THREADS": "1",
        "LLMBOOK_EDITIONS": "pdf,epub",
        "LLMBOOK_EDITIONS_DIR": str(site_dir.parent / "dist"),
    }
    cache = site_dir.parent / "cache"
    for language, config, site in (
        ("zh", "mkdocs.yml", site_dir),
        ("en", "mkdocs.en.yml", site_dir / "en"),
    ):
        built = build(ROOT / config, site=site, strict=True, cache=cache, cwd=ROOT, env=env).ok()
        (site_dir.parent / f"build.{language}.log").write_text(built.stderr, encoding="utf-8")
    return site_dir


def project_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's site, built once per test run and shared by every worker and folder."""
    return once_per_run(
        tmp_path_factory, "project", lambda folder: build_project_site(folder / "site")
    )


def once_per_run(
    tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Path]
) -> Path:
    """`make(folder)` run once per test run, its result shared by every pytest-xdist worker.

    Workers of one run share the parent of their temporary folders: the first to take the lock
    builds there, the others wait and read what it wrote. Without xdist this is one mktemp.
    """
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return make(tmp_path_factory.mktemp(name))
    folder = tmp_path_factory.getbasetemp().parent / name
    done = folder.with_name(f"{name}.done")  # holds make's result, written once make returned
    with FileLock(folder.with_name(f"{name}.lock")):
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a worker that failed halfway
            folder.mkdir()
            done.write_text(str(make(folder)), encoding="utf-8")
    return Path(done.read_text(encoding="utf-8"))


# The record of what computed a page (llmbook/site/provenance.py): when, how long and whether from
# the cache differ between two builds of the same book; everything else must not.
_PANEL = re.compile(r'<details class="[^"]*\bllmbook-provenance\b[^"]*".*?</details>', re.S)
_VARYING = ("computed", "seconds", "cached")


def masked_panel(html: str) -> str:
    """A built page with its provenance panel replaced by a mark."""
    return _PANEL.sub("<details llmbook-provenance/>", html)


def masked_provenance(files: Mapping[str, bytes]) -> dict[str, bytes]:
    """A built site's files with the provenance panels replaced by a mark, and the times and
    cache flags left out of each `provenance.json`: what two builds may differ in."""
    masked = {}
    for name, data in files.items():
        if name.endswith(".html"):
            data = masked_panel(data.decode("utf-8")).encode("utf-8")
        elif name.rsplit("/", 1)[-1] == "provenance.json":
            pages = json.loads(data)
            for record in pages.values():
                for key in _VARYING:
                    record.pop(key, None)
            data = json.dumps(pages, sort_keys=True).encode()
        masked[name] = data
    return masked

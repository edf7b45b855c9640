"""Zensical hosts the core too: it runs `llmbook.extension` (listed in mkdocs.yml's
`markdown_extensions`) and ignores MkDocs plugins, so the extension makes the build's `Site` itself
on the first page: it reads the llmbook options from the config Zensical builds (mkdocs.yml, or
the one `-f` names), runs every page's code (one complete report, as under MkDocs), and ships
the assets into the site. Under `zensical serve` a
page whose file changed is run again before it is rendered, and errors show on their pages.
Under `zensical build` an error ends the build as under MkDocs, its report alone (errors.py).

Translations (the `languages` option): Zensical renders the files it finds, so mkdocs.yml leaves
them out (`exclude_docs: *.en.md`) and they are never pages of their own; the pages the build runs
leave them out too. A translating build (its config's `theme.language` is not the book's own:
mkdocs.en.yml, written out whole by `python -m llmbook zensical-config`, as Zensical appends an
INHERITed config's lists) renders page `x.md` from `x.en.md`: the extension is handed the
translation's text (its front matter removed, its lines numbered as in its file) in place of the
file Zensical read, and the page's metadata becomes the translation's. Zensical knows nothing of
that: its own page cache and `serve` follow `x.md` only (build with `--clean`; under `serve`, an
edit of the translation alone shows once `x.md` changes or the server restarts).

Notebooks (twins.py): Zensical renders only Markdown files, so each notebook page `x.ipynb` has a
twin `x.md` that `python -m llmbook zensical-config` writes; handed the twin, the extension
renders the notebook's page (its translation's, in a translating build) in its place. A book
with notebooks or translations builds from that written config, which leaves the translations
and notebooks out of what Zensical renders or copies (written.py).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import threading
import weakref
from pathlib import Path
from typing import Any

from markdown import Markdown

from llmbook.adapters.config import load_options
from llmbook.adapters.zensical.config import appended_lists, flat_path, nav_items
from llmbook.adapters.zensical.twins import DocsFiles
from llmbook.adapters.zensical.written import build_files
from llmbook.core.assets import asset_files
from llmbook.core.errors import LLMBookError
from llmbook.core.nav import NavPage
from llmbook.core.page_ref import PageRef
from llmbook.core.project import Project
from llmbook.core.site_index import SiteIndex
from llmbook.execute.stages.front_matter import split_front_matter
from llmbook.site.annotations import annotated
from llmbook.site.core_extension import OUTSIDE_A_BUILD
from llmbook.site.preview import Preview
from llmbook.site.site import Build, Site

__all__ = ["page_context", "site_for"]

_SITES: dict[str, Site | LLMBookError] = {}  # one per build (Zensical builds once per process)
_LOCK = threading.Lock()
# Each page's own Markdown instance (the first made for it): another tool's inside the page
# (mkdocstrings' docstrings) is never handed the page's translation.
_OWN: weakref.WeakKeyDictionary[Any, Markdown] = weakref.WeakKeyDictionary()
_SERVED_SOURCES: dict[Path, bytes] = {}  # `zensical serve`: a translation's source as last run
_TWINS: dict[str, dict[str, str]] = {}  # per build (docs folder): each twin → its notebook


def page_context(md: Markdown) -> Any:
    """Zensical's record of the page `md` renders and the build's config (None: no Zensical)."""
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    return ContextPreprocessor.from_markdown(md)


def _serving() -> bool:
    """`zensical serve`: the live preview shows a page's errors on it; `build` stops at the report."""
    return sys.argv[1:2] == ["serve"]


def site_for(md: Markdown) -> tuple[Site, PageRef, str | None]:
    """The Site of this Zensical build (made, and every page run, on the first page), the page,
    and the Markdown to render in place of the file Zensical read (a translation's), or None."""
    context = page_context(md)
    if context is None:
        raise LLMBookError(OUTSIDE_A_BUILD)  # a Markdown instance outside any engine
    config = context.config
    root = Path(config.get("root_dir") or Path.cwd()).resolve()
    project = Project.at(root, config["docs_dir"], config["site_dir"])
    with _LOCK:  # pages may render in parallel: one Site, made once
        site = _SITES.get(str(project.docs_dir))
        if site is None:
            try:
                site = _new_site(config, project)
            except LLMBookError as error:
                site = error  # every later page fails with the same report, without re-running
            _SITES[str(project.docs_dir)] = site
    if isinstance(site, LLMBookError):
        raise site
    page = context.page
    source = _src(project.docs_dir / page.path, root)
    source = _TWINS.get(str(project.docs_dir), {}).get(source, source)  # a twin: its notebook
    # `docs/x.en.md` for the page `x.md` in a translating build
    src = site.translations.built_from(source) if site.translations is not None else source
    if _serving():  # `zensical serve` renders an edited page again here: run it again
        with _LOCK:
            raw = (root / src).read_bytes()
            changed = src in site.sources and site.sources[src] != raw
            if src != source:  # a translation runs as its source: an edited source runs again
                now = (root / source).read_bytes()
                changed |= _SERVED_SOURCES.setdefault(root / source, now) != now
                _SERVED_SOURCES[root / source] = now
            if changed:
                site.refresh(src, raw)
    text = None
    if src != source or src.endswith(".ipynb"):
        with _LOCK:
            own = _OWN.setdefault(page, md) is md
        text = _translation_text(site, src, root, page) if own else None
    uri = os.path.relpath(root / source, project.docs_dir).replace(os.sep, "/")
    return site, PageRef(src, page.url.lstrip("/") or "index.html", uri), text


def _src(path: Path, root: Path) -> str:
    """A page as errors name it: `docs/chapters/x.md`, relative to the config's folder."""
    return os.path.relpath(path, root).replace(os.sep, "/")


def _translation_text(site: Site, src: str, root: Path, page: Any) -> str:
    """The translation `src`'s Markdown as the executor read it (front matter removed: its lines
    keep their numbers in its file); the page's metadata becomes the translation's. A notebook's
    (a twin's page): the Markdown the executor made of it."""
    if src.endswith(".ipynb"):
        page.meta.clear()  # the twin's
        return site.report.notebooks[src].markdown
    raw = site.sources.get(src) or (root / src).read_bytes()
    meta, body, _ = split_front_matter(raw.decode("utf-8-sig"), src=src)
    page.meta.clear()  # Zensical's page object: the source's front matter, read by Rust
    page.meta.update(meta)
    plan = site.report.plans.get(src)
    return plan.text if plan is not None else body


def _new_site(config: dict, project: Project) -> Site:
    config_file = _config_file(project.root)
    project = dataclasses.replace(project, config_file=config_file)
    options = load_options(config_file)
    site = Site.create(options, project, Preview() if _serving() else Build())
    translations = site.translations
    if translations is not None and translations.languages.translating:
        _check_flat(config_file)
    files = build_files(project, site.translations, config, config_file)
    _TWINS[str(project.docs_dir)] = files.twins
    pages = []
    for src in files.pages:  # a translating build runs a page's translation in its place
        built = translations.built_from(src) if translations is not None else src
        pages.append((built, (project.root / built).read_bytes()))
    strict = bool(options["numbers_strict"])
    with annotated(lambda: site.report, strict=strict, root=project.root):
        site.start(pages, _site_index(config, project, site, files))
    site.outputs.figures_dir = project.site_dir
    for uri, path in asset_files(site.asset_folders()):
        destination = project.site_dir / uri
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, destination)
    return site


def _config_file(root: Path) -> Path:
    """The config Zensical builds (`-f`/`--config-file`, else the first of its defaults in the
    working folder, as Zensical finds it); mkdocs.yml in `root` when that cannot be told."""
    found: str | None = None
    args = sys.argv[1:]
    try:
        from zensical.main import cli

        command = cli.commands.get(args[0]) if args else None
        if command is not None:
            with command.make_context(args[0], args[1:], resilient_parsing=True) as ctx:
                found = ctx.params.get("config_file")
    except Exception:  # noqa: BLE001 (another Zensical's command line: its defaults below)
        found = None
    if found is None:
        found = next((f for f in ("mkdocs.yml", "mkdocs.yaml") if os.path.exists(f)), None)
    path = Path(found).resolve() if found is not None else root / "mkdocs.yml"
    return path if path.parent == root and path.suffix in (".yml", ".yaml") else root / "mkdocs.yml"


def _check_flat(config_file: Path) -> None:
    """A translating build's config must not INHERIT lists it replaces: Zensical would append
    them (the book's nav and the edition's, both)."""
    lists = appended_lists(config_file)
    if lists:
        name = config_file.name
        raise LLMBookError(
            f"{name}: Zensical appends the lists of a config it INHERITs ({', '.join(lists)}) "
            "where MkDocs replaces them, so this edition would get both. Fix: build it from the "
            f"config written out whole: `python -m llmbook zensical-config {name}`, then "
            f"`zensical build --clean -f {flat_path(name).name}`"
        )


def _site_index(config: dict, project: Project, site: Site, files: DocsFiles) -> SiteIndex:
    """Pages and headings for `:::related`, from the docs folder (Zensical has no file list); a
    translating build reads a page's headings from its translation."""
    titles = {page.uri: page.title for page in _nav(config.get("nav") or [])}
    translations = site.translations
    pages = []
    for src in files.pages:
        if not src.endswith(".md"):
            continue  # notebooks have no Markdown headings to read (as under MkDocs)
        path = project.root / src
        rel = path.relative_to(project.docs_dir).as_posix()
        if translations is not None:
            path = project.root / translations.built_from(src)
        stem = rel[: -len(".md")]
        if config.get("use_directory_urls", True) and not stem.endswith("index"):
            url = stem + "/"
        else:
            url = stem + ".html"
        pages.append((url, str(path), titles.get(rel, "")))
    extensions = [e for e in config.get("markdown_extensions") or [] if isinstance(e, str)]
    nav = _nav(config.get("nav") or [])
    return SiteIndex(pages, extensions, dict(config.get("mdx_configs") or {}), nav)


def _nav(nav: list) -> list[NavPage]:
    """The pages of Zensical's resolved nav, in order."""
    return [NavPage(url, title) for url, title in nav_items(nav)]

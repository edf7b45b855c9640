"""Zensical hosts the core too: it runs `llmbook.extension` (listed in mkdocs.yml's
`markdown_extensions`) and ignores MkDocs plugins, so the extension makes the build's `Site` itself
on the first page: it reads the llmbook options from mkdocs.yml, runs every page's code (one
complete report, as under MkDocs), and ships the assets into the site. Under `zensical serve` a
page whose file changed is run again before it is rendered, and errors show on their pages.
Zensical prints any exception an extension raises, so the core's own errors pass through as
they are.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path
from typing import Any

from markdown import Markdown

from llmbook.annotations import annotated
from llmbook.assets import ASSETS_DIR, SITE_PREFIX, asset_paths
from llmbook.config import load_options
from llmbook.core_extension import OUTSIDE_A_BUILD
from llmbook.errors import LLMBookError
from llmbook.nav import NavPage
from llmbook.page_ref import PageRef
from llmbook.preview import Preview
from llmbook.project import Project
from llmbook.site import Build, Site
from llmbook.site_index import SiteIndex

__all__ = ["site_for"]

_SITES: dict[str, Site | LLMBookError] = {}  # one per build (Zensical builds once per process)
_LOCK = threading.Lock()


def _context(md: Markdown) -> Any:
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    return ContextPreprocessor.from_markdown(md)


def _serving() -> bool:
    """`zensical serve`: the live preview shows a page's errors on it; `build` stops at the report."""
    return sys.argv[1:2] == ["serve"]


def site_for(md: Markdown) -> tuple[Site, PageRef]:
    """The Site of this Zensical build (made, and every page run, on the first page) and the page."""
    context = _context(md)
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
    src = os.path.relpath(project.docs_dir / page.path, root).replace(os.sep, "/")
    if _serving():  # `zensical serve` renders an edited page again here: run it again
        with _LOCK:
            raw = (project.docs_dir / page.path).read_bytes()
            if src in site.sources and site.sources[src] != raw:
                site.refresh(src, raw)
    return site, PageRef(src, page.url.lstrip("/") or "index.html", page.path)


def _new_site(config: dict, project: Project) -> Site:
    options = load_options(project.root / "mkdocs.yml")
    site = Site.create(options, project, Preview() if _serving() else Build())
    pages = [
        (os.path.relpath(path, project.root).replace(os.sep, "/"), path.read_bytes())
        for path in sorted(project.docs_dir.rglob("*.md"))
    ]
    strict = bool(options["numbers_strict"])
    with annotated(lambda: site.report, strict=strict, root=project.root):
        site.start(pages, _site_index(config, project.docs_dir))
    site.outputs.figures_dir = project.site_dir
    for rel in asset_paths():
        destination = project.site_dir / SITE_PREFIX / rel
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ASSETS_DIR / rel, destination)
    return site


def _site_index(config: dict, docs_dir: Path) -> SiteIndex:
    """Pages and headings for `:::related`, from the docs folder (Zensical has no file list)."""
    titles = {page.uri: page.title for page in _nav(config.get("nav") or [])}
    pages = []
    for path in sorted(docs_dir.rglob("*.md")):
        rel = path.relative_to(docs_dir).as_posix()
        stem = rel[: -len(".md")]
        if config.get("use_directory_urls", True) and not stem.endswith("index"):
            url = stem + "/"
        else:
            url = stem + ".html"
        pages.append((url, str(path), titles.get(rel, "")))
    extensions = [e for e in config.get("markdown_extensions") or [] if isinstance(e, str)]
    nav = _nav(config.get("nav") or [])
    return SiteIndex(pages, extensions, dict(config.get("mdx_configs") or {}), nav)


def _nav(nav: list[dict]) -> list[NavPage]:
    """The pages of Zensical's resolved nav (items with title, url, children), in order."""
    found: list[NavPage] = []
    for item in nav:
        if item.get("url"):
            found.append(NavPage(str(item["url"]), str(item.get("title") or "")))
        found += _nav(item.get("children") or [])
    return found

"""Zensical hosts the core too: it runs `llmbook.extension` (listed in mkdocs.yml's
`markdown_extensions`) and ignores MkDocs plugins, so the extension makes the build's `Site` itself
on the first page: it reads the llmbook options from mkdocs.yml, runs every page's code (one
complete report, as under MkDocs), and ships the assets into the site. Under `zensical serve` a
page whose file changed is run again before it is rendered, and errors show on their pages.
"""

from __future__ import annotations

import os
import shutil
import sys
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from markdown import Markdown
from mkdocs.exceptions import PluginError

from llmbook.assets import ASSETS_DIR, SITE_PREFIX, asset_paths
from llmbook.config import load_options
from llmbook.directives import SiteIndex
from llmbook.site import PageRef, Site

__all__ = ["site_for"]

_SITES: dict[str, Site | PluginError] = {}  # one per build (Zensical builds once per process)
_LOCK = threading.Lock()


def _context(md: Markdown) -> Any:
    try:
        from zensical.extensions.context import ContextPreprocessor
    except ImportError:
        return None
    return ContextPreprocessor.from_markdown(md)


def site_for(md: Markdown) -> tuple[Site, PageRef]:
    """The Site of this Zensical build (made, and every page run, on the first page) and the page."""
    context = _context(md)
    if context is None:
        raise PluginError(
            "llmbook.extension renders pages only inside a build: under MkDocs add the `llmbook` "
            "plugin to mkdocs.yml; under Zensical it works as listed in markdown_extensions."
        )
    config = context.config
    docs_dir = Path(config["docs_dir"]).resolve()
    root = Path(config.get("root_dir") or Path.cwd()).resolve()
    with _LOCK:  # pages may render in parallel: one Site, made once
        site = _SITES.get(str(docs_dir))
        if site is None:
            try:
                site = _new_site(config, root, docs_dir, Path(config["site_dir"]))
            except PluginError as error:
                site = error  # every later page fails with the same report, without re-running
            _SITES[str(docs_dir)] = site
    if isinstance(site, PluginError):
        raise site
    page = context.page
    src = os.path.relpath(docs_dir / page.path, root).replace(os.sep, "/")
    if site.forgiving:  # `zensical serve` renders an edited page again here: run it again
        with _LOCK:
            raw = (docs_dir / page.path).read_bytes()
            if src in site.sources and site.sources[src] != raw:
                site.refresh(src, raw)
    url = page.url.lstrip("/") or "index.html"
    # What directives read of an engine's page (link bases, element and storage keys), as MkDocs'.
    engine_page = SimpleNamespace(file=SimpleNamespace(url=url, src_uri=page.path))
    return site, PageRef(src, url, engine_page)


def _new_site(config: dict, root: Path, docs_dir: Path, site_dir: Path) -> Site:
    options = load_options(root / "mkdocs.yml")
    site = Site.create(options, SimpleNamespace(config_file_path=str(root / "mkdocs.yml")))
    # The live preview shows a page's errors on it; `zensical build` stops at the report.
    site.forgiving = sys.argv[1:2] == ["serve"]
    pages = [
        (os.path.relpath(path, root).replace(os.sep, "/"), path.read_bytes())
        for path in sorted(docs_dir.rglob("*.md"))
    ]
    site.run_pages(pages)
    site.index = _site_index(config, docs_dir)
    site.index.store = site.store
    target = (root / site_dir) if not site_dir.is_absolute() else site_dir
    site.figures_dir = target
    for rel in asset_paths():
        destination = target / SITE_PREFIX / rel
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ASSETS_DIR / rel, destination)
    return site


def _site_index(config: dict, docs_dir: Path) -> SiteIndex:
    """Pages and headings for `:::related`, from the docs folder (Zensical has no file list)."""
    titles = _titles(config.get("nav") or [])
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
    return SiteIndex(pages, extensions, dict(config.get("mdx_configs") or {}))


def _titles(nav: list[dict]) -> dict[str, str]:
    """{source path: nav title} of Zensical's resolved nav (items with title, url, children)."""
    found: dict[str, str] = {}
    for item in nav:
        if item.get("url") and item.get("title"):
            found[str(item["url"])] = str(item["title"])
        found.update(_titles(item.get("children") or []))
    return found

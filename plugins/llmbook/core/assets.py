"""The site's stylesheets and scripts: the plugin's own, shipped into `site/assets/llmbook/`, and
those a book's demo modules bring (their `ASSETS`, into `site/assets/<module>/`), linked from
every page.

Every `.css`/`.js` under a folder (any depth: `widgets/`, `demos/`, `math/`…) is copied to the same
relative path under its site folder and added to `extra_css` / `extra_javascript`, so Material
links it, with a relative URL, from every page. The one exception is the iframe-worker shim:
Material's `offline` plugin wants it in `extra.polyfills` (loaded in <head>, before Material's
bundle), and would otherwise add a CDN copy of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

__all__ = [
    "ASSETS_DIR",
    "PLUGIN_ASSETS",
    "SITE_PREFIX",
    "add_asset_files",
    "asset_files",
    "asset_paths",
    "register_assets",
]

ASSETS_DIR = Path(__file__).parents[1] / "assets"
SITE_PREFIX = "assets/llmbook"
# (the site folder, the folder its files come from): the plugin's, then a book's demo modules'
PLUGIN_ASSETS: tuple[tuple[str, Path], ...] = ((SITE_PREFIX, ASSETS_DIR),)
_SHIM_MARK = "iframe-worker"


def asset_paths(folder: Path = ASSETS_DIR) -> list[str]:
    """The assets' paths relative to `folder`, POSIX style, sorted (a stable link order)."""
    return sorted(
        path.relative_to(folder).as_posix()
        for path in folder.rglob("*")
        if path.is_file() and path.suffix in {".css", ".js"}
    )


def asset_files(folders: Sequence[tuple[str, Path]] = PLUGIN_ASSETS) -> list[tuple[str, Path]]:
    """Every asset of `folders` as (its path in the site, its file), folder by folder."""
    return [
        (f"{prefix}/{rel}", folder / rel)
        for prefix, folder in folders
        for rel in asset_paths(folder)
    ]


def _is_shim(url: str) -> bool:
    return _SHIM_MARK in url and url.endswith(".js")


def register_assets(
    config: MkDocsConfig, folders: Sequence[tuple[str, Path]] = PLUGIN_ASSETS
) -> None:
    """Link every asset from every page (on_config). Idempotent: `mkdocs serve` rebuilds."""
    for url, _ in asset_files(folders):
        if _is_shim(url):
            polyfills = config.extra.get("polyfills") or []
            # Drop the CDN shim Material's offline plugin adds when it ran before us.
            polyfills = [p for p in polyfills if _SHIM_MARK not in str(p) or str(p) == url]
            if url not in polyfills:
                polyfills.insert(0, url)
            config.extra["polyfills"] = polyfills
        elif url.endswith(".css"):
            if url not in config.extra_css:
                config.extra_css.append(url)
        elif url not in [str(script) for script in config.extra_javascript]:
            config.extra_javascript.append(url)


def add_asset_files(
    files: Files, config: MkDocsConfig, folders: Sequence[tuple[str, Path]] = PLUGIN_ASSETS
) -> Files:
    """Add every asset to the build's files (on_files), so MkDocs copies it into `site/`."""
    for uri, path in asset_files(folders):
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files

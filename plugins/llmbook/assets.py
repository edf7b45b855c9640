"""The plugin's own stylesheets and scripts: shipped into `site/assets/llmbook/`, linked from every page.

Every `.css`/`.js` under `plugins/llmbook/assets/` (any depth: `widgets/`, `demos/`, `math/`…) is
copied to the same relative path under `site/assets/llmbook/` and added to `extra_css` /
`extra_javascript`, so Material links it, with a relative URL, from every page. The one exception is
the iframe-worker shim: Material's `offline` plugin wants it in `extra.polyfills` (loaded in <head>,
before Material's bundle), and would otherwise add a CDN copy of its own.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

__all__ = ["ASSETS_DIR", "SITE_PREFIX", "add_asset_files", "asset_paths", "register_assets"]

ASSETS_DIR = Path(__file__).parent / "assets"
SITE_PREFIX = "assets/llmbook"
_SHIM_MARK = "iframe-worker"


def asset_paths() -> list[str]:
    """The assets' paths relative to `ASSETS_DIR`, POSIX style, sorted (a stable link order)."""
    return sorted(
        path.relative_to(ASSETS_DIR).as_posix()
        for path in ASSETS_DIR.rglob("*")
        if path.is_file() and path.suffix in {".css", ".js"}
    )


def _is_shim(rel: str) -> bool:
    return _SHIM_MARK in rel and rel.endswith(".js")


def register_assets(config: MkDocsConfig) -> None:
    """Link every asset from every page (on_config). Idempotent: `mkdocs serve` rebuilds."""
    for rel in asset_paths():
        url = f"{SITE_PREFIX}/{rel}"
        if _is_shim(rel):
            polyfills = config.extra.get("polyfills") or []
            # Drop the CDN shim Material's offline plugin adds when it ran before us.
            polyfills = [p for p in polyfills if _SHIM_MARK not in str(p) or str(p) == url]
            if url not in polyfills:
                polyfills.insert(0, url)
            config.extra["polyfills"] = polyfills
        elif rel.endswith(".css"):
            if url not in config.extra_css:
                config.extra_css.append(url)
        elif url not in [str(script) for script in config.extra_javascript]:
            config.extra_javascript.append(url)


def add_asset_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every asset to the build's files (on_files), so MkDocs copies it into `site/`."""
    for rel in asset_paths():
        uri = f"{SITE_PREFIX}/{rel}"
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(ASSETS_DIR / rel)))
    return files

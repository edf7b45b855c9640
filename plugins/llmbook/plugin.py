"""The llmbook MkDocs plugin: parse → execute → validate → render, one stage per module.

Per Markdown page (`on_page_markdown`):
  1. `directives.parse_directives` checks the `:::` structure and every directive's content on the
     original source, so each author error names its true line.
  2. `execute.Executor.run_page` runs the page's code and checks its bound numbers, also on the
     original source; it returns a plan of edits (outputs after fences, numbers in prose).
  3. `mathml.render_math` turns `$…$`/`$$…$$` into MathML tokens, keeping the line count.
  4. the plan is applied (it may add lines, so it comes after every line-exact stage).
  5. `directives.render_directives` turns the directives into Material components.
Rendered HTML travels through a per-page `Stash` and is restored in `on_page_content`.
"""

from __future__ import annotations

import os

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import Files
from mkdocs.structure.pages import Page

from llmbook.assets import add_asset_files, register_assets
from llmbook.config import LLMBookConfig
from llmbook.demos.cache import DemoCache
from llmbook.directives import SiteIndex, parse_directives, render_directives
from llmbook.execute import Executor
from llmbook.mathml import render_math
from llmbook.offline import check_site
from llmbook.stash import Stash

__all__ = ["LLMBookPlugin"]

log = get_plugin_logger(__name__)


class LLMBookPlugin(BasePlugin[LLMBookConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self._stashes: dict[str, Stash] = {}
        self._site: SiteIndex | None = None
        self._executor: Executor | None = None
        self._demo_cache: DemoCache | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # Reset per build: `mkdocs serve` reuses the plugin object between builds.
        self._stashes = {}
        self._executor = Executor(self.config, config)
        # Demo frames are kept beside the executor's results: same folder, same on/off switch.
        cache = self._executor.cache
        self._demo_cache = DemoCache(cache.root) if cache is not None else None
        register_assets(config)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        self._site = SiteIndex.from_files(files, config)
        return add_asset_files(files, config)

    # After Material's own hooks, before search reads the page.
    @event_priority(-50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled or not page.file.src_uri.endswith(".md"):
            return markdown
        src = self._display_path(page, config)
        stash = self._stashes[page.file.src_uri] = Stash(page.file.src_uri)
        # MkDocs hands over the page without its front matter: report lines of the whole file.
        offset = self._front_matter_lines(page, markdown)
        parse_directives(markdown, src=src, line_offset=offset)
        assert self._executor is not None
        plan = self._executor.run_page(markdown, src=src, page=page)
        markdown = render_math(markdown, src=src, stash=stash, line_offset=offset)
        markdown = plan.apply(markdown, stash=stash)
        return render_directives(
            markdown, src=src, stash=stash, site=self._site, page=page, demo_cache=self._demo_cache
        )

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        stash = self._stashes.get(page.file.src_uri)
        return stash.restore(html) if stash is not None else html

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        assert self._executor is not None
        self._executor.finish()  # raises with every drifted number of the build
        if self.config.offline_check:
            check_site(config.site_dir)

    @staticmethod
    def _front_matter_lines(page: Page, markdown: str) -> int:
        """Lines MkDocs removed above `markdown` (front matter and the blank lines after it)."""
        source = page.file.content_string
        return max(0, source.count("\n") - markdown.count("\n")) if source else 0

    @staticmethod
    def _display_path(page: Page, config: MkDocsConfig) -> str:
        """The page as an author finds it: `docs/chapters/x.md`, relative to mkdocs.yml."""
        root = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
        return os.path.relpath(page.file.abs_src_path or page.file.src_path, root).replace(
            os.sep, "/"
        )

"""The llmbook MkDocs plugin: parse → execute → validate → render, one stage per module.

For the whole build (`on_files`): every page's code runs first, in parallel worker processes
(`execute.Executor.run_pages`); the build stops there with one report of every failing page and
every drifted number. Notebooks (`.ipynb`) are pages of the same engine.
Per Markdown page (`on_page_markdown`):
  1. `directives.parse_directives` checks the `:::` structure and every directive's content on the
     original source, so each author error names its true line.
  2. `mathml.render_math` turns `$…$`/`$$…$$` into MathML tokens, keeping the line count.
  3. the executor's plan for the page is applied (outputs after fences, numbers in prose).
  4. `directives.render_directives` turns the directives into Material components.
Rendered HTML travels through a per-page `Stash` and is restored in `on_page_content`.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from urllib.parse import quote

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from llmbook.assets import SITE_PREFIX, add_asset_files, register_assets
from llmbook.config import LLMBookConfig
from llmbook.demos.cache import DemoCache
from llmbook.directives import SiteIndex, parse_directives, render_directives
from llmbook.errors import forget_line_maps
from llmbook.execute import Executor
from llmbook.execute.executor import Report
from llmbook.execute.figures import Figure
from llmbook.execute.notebook import executed_notebook
from llmbook.mathml import render_math
from llmbook.offline import check_site
from llmbook.stash import Stash

__all__ = ["LLMBookPlugin", "NotebookFile"]

log = get_plugin_logger(__name__)


class NotebookFile(File):
    """A `.ipynb` built as a page (`x.ipynb` → `x.html`) from the Markdown the executor made of it."""

    def is_documentation_page(self) -> bool:
        return True


class LLMBookPlugin(BasePlugin[LLMBookConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self._stashes: dict[str, Stash] = {}
        self._site: SiteIndex | None = None
        self._executor: Executor | None = None
        self._report = Report()
        self._figures: dict[str, str] = {}  # site path → SVG of every executed figure
        self._demo_cache: DemoCache | None = None

    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # Reset per build: `mkdocs serve` reuses the plugin object between builds.
        self._stashes = {}
        self._report = Report()
        self._figures = {}
        forget_line_maps()
        self._executor = Executor(self.config, config)
        # Demo frames are kept beside the executor's results: same folder, same on/off switch.
        cache = self._executor.cache
        self._demo_cache = DemoCache(cache.root) if cache is not None else None
        register_assets(config)
        return config

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        if self.config.enabled:
            for file in [f for f in files if f.src_uri.endswith(".ipynb")]:
                files.remove(file)
                notebook = NotebookFile(
                    file.src_path, file.src_dir, file.dest_dir, file.use_directory_urls
                )
                notebook.inclusion = file.inclusion
                files.append(notebook)
            self._run_pages(files, config)
        self._site = SiteIndex.from_files(files, config)
        return add_asset_files(files, config)

    def _run_pages(self, files: Files, config: MkDocsConfig) -> None:
        """Run every page's code (in parallel); stop with one report of everything that failed."""
        assert self._executor is not None
        pages = [
            (self._display_path(f.abs_src_path, config), f.content_bytes)
            for f in files.documentation_pages(inclusion=lambda i: not i.is_excluded())
            if f.abs_src_path
        ]
        self._report = self._executor.run_pages(pages)
        self._report.raise_if_failed()

    def on_page_read_source(self, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if isinstance(page.file, NotebookFile):
            src = self._display_path(page.file.abs_src_path, config)
            return self._report.notebooks[src].markdown
        return None

    # After Material's own hooks, before search reads the page.
    @event_priority(-50)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        if not self.config.enabled:
            return markdown
        src = self._display_path(page.file.abs_src_path, config)
        stash = self._stashes[page.file.src_uri] = Stash(page.file.src_uri)
        plan = self._report.plans.get(src)
        offset = plan.page.offset if plan is not None else 0
        parse_directives(markdown, src=src, line_offset=offset)
        markdown = render_math(markdown, src=src, stash=stash, line_offset=offset)
        if plan is not None:
            markdown = plan.apply(markdown, stash=stash, figure_url=self._figure_url(page))
        return render_directives(
            markdown, src=src, stash=stash, site=self._site, page=page, demo_cache=self._demo_cache
        )

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        stash = self._stashes.get(page.file.src_uri)
        html = stash.restore(html) if stash is not None else html
        if isinstance(page.file, NotebookFile):
            name = quote(Path(page.file.src_uri).name)
            html = (
                f'<p class="llmbook-download"><a href="{name}" download>'
                "下载本页的 Jupyter 笔记本（.ipynb，含构建时的输出）</a></p>\n" + html
            )
        return html

    def _figure_url(self, page: Page):  # noqa: ANN202
        """Figures go to `assets/llmbook/figures/<hash>.svg`: the same figure is one file."""

        def url(figure: Figure) -> str:
            name = hashlib.sha256(figure.svg.encode()).hexdigest()[:24]
            path = f"{SITE_PREFIX}/figures/{name}.svg"
            self._figures[path] = figure.svg
            return get_relative_url(path, page.file.url)

        return url

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        assert self._executor is not None
        self._executor.finish()
        for path, svg in sorted(self._figures.items()):
            target = Path(config.site_dir) / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(svg, encoding="utf-8")
        self._write_notebooks(config)
        if self.config.offline_check:
            check_site(config.site_dir)

    def _write_notebooks(self, config: MkDocsConfig) -> None:
        """Each notebook page's download: the notebook with the outputs this build computed."""
        root = Path(os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml")))
        docs = Path(config.docs_dir).resolve()
        for src, notebook in self._report.notebooks.items():
            plan = self._report.plans.get(src)
            outputs = {}
            if plan is not None and plan.result is not None:
                for pos, run in plan.result.blocks.items():
                    cell = notebook.cells[plan.page.blocks[pos].index][0] - 1
                    outputs[cell] = (run.output, [(f.svg, f.alt) for f in run.figures])
            target = Path(config.site_dir) / (root / src).resolve().relative_to(docs)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(executed_notebook(notebook, outputs), encoding="utf-8")

    @staticmethod
    def _display_path(path: str | None, config: MkDocsConfig) -> str:
        """The page as an author finds it: `docs/chapters/x.md`, relative to mkdocs.yml."""
        root = os.path.dirname(os.path.abspath(config.config_file_path or "mkdocs.yml"))
        return os.path.relpath(path or "", root).replace(os.sep, "/")

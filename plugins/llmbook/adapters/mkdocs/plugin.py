"""The llmbook MkDocs plugin: a thin adapter between MkDocs and the engine-agnostic core.

on_startup       notes whether this is the live preview (`mkdocs serve`: errors shown on pages);
on_config        makes the build's `Site` and hands it to the `llmbook.extension` Markdown
                 extension (the core: directives, math, the executor's plan, rendered once);
on_files         notebooks become pages; every page's code runs (in parallel worker processes)
                 and the build stops there with one report of every failure and drifted number;
on_page_markdown names the page the extension renders next;
on_post_build    writes figures, executed notebooks and the notebooks of Markdown pages that
                 ran code, ships remote images (remote_images.py), runs the offline check,
                 makes the editions, and logs the store's hits and misses per cache namespace.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Iterator
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority, get_plugin_logger
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page
from mkdocs.utils import get_relative_url

from llmbook.adapters.config import LLMBookConfig, theme_language
from llmbook.adapters.mkdocs.converted import ConvertedPages, unsafe_parts
from llmbook.adapters.mkdocs.highlighting import with_highlighter
from llmbook.adapters.mkdocs.partial import PartialPages, partial_pages
from llmbook.adapters.mkdocs.remote_images import ship_and_check
from llmbook.adapters.zensical.twins import drop_twin
from llmbook.core.assets import add_asset_files, register_assets
from llmbook.core.cjk import jieba_for_search, require_jieba
from llmbook.core.errors import LLMBookError
from llmbook.core.page_ref import PageRef
from llmbook.core.project import Project
from llmbook.core.search_cache import cache_search, defer_jieba, save_segments, segment_with_jieba
from llmbook.core.search_view import search_view
from llmbook.core.site_index import SiteIndex
from llmbook.core.store_builds import record_build
from llmbook.editions import (
    Book,
    BookPage,
    book_pages,
    edition_kinds,
    editions_dir,
    make_editions,
)
from llmbook.editions.links import edition_name
from llmbook.site.annotations import annotated
from llmbook.site.core_extension import LLMBookExtension
from llmbook.site.launch import launch_links
from llmbook.site.page_notebook import download_html, notebook_of, write_page_notebooks
from llmbook.site.preview import Preview
from llmbook.site.provenance import ProvenanceLog, page_entry, panel
from llmbook.site.site import Build, Site
from llmbook.translate.book import Translations

__all__ = ["LLMBookPlugin", "NotebookFile"]

log = get_plugin_logger(__name__)

_EXTENSION = "llmbook.extension"


class NotebookFile(File):
    """A `.ipynb` built as a page (`x.ipynb` → `x.html`) from the Markdown the executor made of it."""

    def is_documentation_page(self) -> bool:
        return True


class LLMBookPlugin(BasePlugin[LLMBookConfig]):
    supports_multiple_instances = False

    def __init__(self) -> None:
        self.site: Site | None = None
        self._book: list[BookPage] = []  # the nav's pages, in order (on_nav)
        # {built page: (its source as errors name it, its path)}: the offline check's report
        self._sources: dict[str, tuple[str, Path]] = {}
        self.serving = False
        self._full_content: str | None = None
        self._converted: ConvertedPages | bool | None = None  # False: off for this build
        self._partial: PartialPages | bool | None = None  # sections (partial.py); False: off
        self._extension: LLMBookExtension | None = None
        self._languages: tuple[object, str] = (None, "")  # (the build's config, its language)
        self._provenance = ProvenanceLog()

    def on_startup(self, *, command: str, dirty: bool) -> None:
        # The live preview renders pages with author errors (shown on them) instead of stopping.
        self.serving = command == "serve"

    # First: before Material's search plugin configures jieba, which then loads only if a page
    # must be segmented again (search_cache.py); a book with Chinese pages needs it, a Japanese
    # one's index is segmented in the browser (cjk.py).
    @event_priority(100)
    def _before_search(self, config: MkDocsConfig) -> None:
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if not self.config.enabled or search is None:
            return
        languages = [self._language(config), *self.config.languages]
        with _as_plugin_error():
            where = Path(self._config_file(config))
            require_jieba(languages, config_file=where, root=where.parent)
        segment_with_jieba(search, jieba_for_search(languages))
        if self.config.cache and jieba_for_search(languages) is not False:
            defer_jieba()

    def _on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        # A new Site per build: `mkdocs serve` reuses the plugin object between builds.
        project = Project.at(
            self._root(config),
            config.docs_dir,
            config.site_dir,
            config_file=self._config_file(config),
        )
        with _as_plugin_error():
            # LLMBOOK_EDITIONS overrides the option; an option, it keys the pages that link them.
            self.config["editions"] = list(edition_kinds(self.config.editions))
            # The pages' words follow the theme's language (English where mkdocs.yml sets none).
            language = self._language(config)
            self.config["language"] = language
            self.site = Site.create(self.config, project, Preview() if self.serving else Build())
        self._converted = self._partial = self._extension = None  # the plugin outlives a build
        self._provenance = ProvenanceLog()  # this build's records (provenance.json)
        # The extension listed in mkdocs.yml (for Zensical) is replaced by one bound to this build.
        extensions = [e for e in config.markdown_extensions if e != _EXTENSION]
        extensions = [e for e in extensions if not isinstance(e, LLMBookExtension)]
        if self.config.enabled:
            extensions = with_highlighter(extensions, config.theme.name)
            self._extension = LLMBookExtension(site=self.site, translate=_plugin_error)
            extensions.append(self._extension)
        # In place: a plugin that kept the list (mkdocstrings renders docstrings with its own
        # Markdown, made from it) gets the bound extension too, which leaves that text alone.
        config.markdown_extensions[:] = extensions
        config.mdx_configs.pop(_EXTENSION, None)
        register_assets(config, self.site.asset_folders())
        search = config.plugins.get("material/search") or config.plugins.get("search")
        if self.config.enabled and search is not None and self.site.mode.caches_pages:
            cache_search(search, self.site.store)
        return config

    on_config = CombinedEvent(_before_search, _on_config)

    def _language(self, config: MkDocsConfig) -> str:
        """The pages' language: the option, else the theme's, read from mkdocs.yml once a build."""
        if self._languages[0] is not config:
            found = self.config.language or theme_language(self._config_file(config))
            self._languages = (config, found)
        return self._languages[1]

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> Files | None:
        assert self.site is not None
        site = self.site
        if self.config.enabled:
            for file in [f for f in files if f.src_uri.endswith(".ipynb")]:
                drop_twin(files, file)  # Zensical's page of the notebook
                files.remove(file)
                notebook = NotebookFile(
                    file.src_path, file.src_dir, file.dest_dir, file.use_directory_urls
                )
                notebook.inclusion = file.inclusion
                files.append(notebook)
            if site.translations is not None:
                _translated_files(files, site.translations, self._root(config))
            pages = [
                (self._display_path(f.abs_src_path, config), f.content_bytes)
                for f in files.documentation_pages(inclusion=lambda i: not i.is_excluded())
                if f.abs_src_path
            ]
        else:
            pages = []
        strict, root = bool(self.config.numbers_strict), Path(self._root(config))
        # Under GitHub Actions the report's errors are also shown on the pull request's lines.
        with _as_plugin_error(), annotated(lambda: site.report, strict=strict, root=root):
            site.start(pages, SiteIndex.from_files(files, config))
        return add_asset_files(files, config, site.asset_folders())

    def on_page_read_source(self, /, *, page: Page, config: MkDocsConfig) -> str | None:
        if isinstance(page.file, NotebookFile):
            assert self.site is not None
            src = self._display_path(page.file.abs_src_path, config)
            return self.site.report.notebooks[src].markdown
        return None

    # Last: the page the extension renders next (MkDocs renders pages one at a time).
    @event_priority(-100)
    def on_page_markdown(
        self, markdown: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        assert self.site is not None
        src = self._display_path(page.file.abs_src_path, config)
        self.site.current = PageRef(src, page.file.url, page.file.src_uri)
        converted = self._converted_pages(config, files)
        key = self.site.converted_key(markdown, self.site.current) if converted else None
        partial = self._partial_pages(config, files)
        render = partial.page_render(src) if partial else Page.render
        if converted is not None and key is not None:
            site = self.site
            # Checked against the site now; kept from the render that runs inside `page.render`.
            still_valid = functools.partial(site.replay_extras, src)
            made = functools.partial(site.page_deps.get, src)
            if converted.prepare(page, src, converted.key(key), still_valid, made, render):
                self.site.replayed.append(src)
        elif partial is not None:  # the live preview: sections kept, pages not
            page.render = functools.partial(render, page)  # type: ignore[method-assign]
        return markdown

    def _partial_pages(self, config: MkDocsConfig, files: Files) -> PartialPages | None:
        """The build's sections of pages, made on its first page (None: off, as with
        `cache_converted: off`: sections are kept conversions too)."""
        assert self.site is not None
        if self._partial is None:
            site, extension = self.site, self._extension
            on = extension is not None and self.config.cache_converted != "off"
            self._partial = on and partial_pages(
                site.store,
                site.render_cache_key(),
                extension,
                config,
                files,
                edition=site.project.translating,
            )
        return self._partial or None

    def _converted_pages(self, config: MkDocsConfig, files: Files) -> ConvertedPages | None:
        """The cache of whole conversions, made on the build's first page (None: off)."""
        assert self.site is not None
        if self._converted is None:
            self._converted = False
            choice = self.config.cache_converted
            unsafe = unsafe_parts(config)
            if choice == "auto" and unsafe:
                log.info(
                    "converted pages are not cached (cache_converted: auto): "
                    f"{', '.join(unsafe)} may keep state a cached page would not give it"
                )
            elif self.site.store.enabled and choice != "off" and self.site.mode.caches_pages:
                self._converted = ConvertedPages(
                    self.site.store,
                    self.site.render_cache_key(),
                    config,
                    files,
                    edition=self.site.project.translating,
                )
        return self._converted or None

    # Before Material's search reads the page: it indexes text, so it gets the page without what
    # only a browser draws (MathML as its text, SVG drawings, widget data); restored right after.
    @event_priority(100)
    def _search_view(self, context, /, *, page: Page, config: MkDocsConfig, nav):  # noqa: ANN001
        self._full_content = page.content
        page.content = search_view(page.content or "")
        return context

    @event_priority(-100)
    def _restore_content(self, context, /, *, page: Page, config: MkDocsConfig, nav):  # noqa: ANN001
        page.content = self._full_content
        return context

    on_page_context = CombinedEvent(_search_view, _restore_content)

    def on_page_content(
        self, html: str, /, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        assert self.site is not None
        src = self._display_path(page.file.abs_src_path, config) if page.file.abs_src_path else None
        html = self._run_links(page, src) + html
        translations = self.site.translations
        if translations is not None and src is not None:
            html = translations.marked_untranslated(src, html)
        return self._with_provenance(html, page, src)

    def _run_links(self, page: Page, src: str | None) -> str:
        """Above the page: its notebook's download and a button per `launch` service. A notebook
        page's notebook is written where it is in docs/ (BuildOutputs.write), a Markdown page's
        that ran code as `x.ipynb` beside it (page_notebook.py): linked from the page's URL,
        `x/` or `x.html` as `use_directory_urls` says."""
        assert self.site is not None
        if isinstance(page.file, NotebookFile):
            notebook = page.file.src_uri
        else:
            notebook = notebook_of(self.site, src) if src is not None else None
        links = launch_links(self.site, src) if src is not None else ""
        if notebook is not None:
            href = get_relative_url(notebook, page.url)
            links = download_html(self.site.locale, href) + "\n" + links
        return links

    def _with_provenance(self, html: str, page: Page, src: str | None) -> str:
        """An executed page ends with the record of what computed it (this build's: whether its
        results came from the cache), kept for `provenance.json` too."""
        site = self.site
        if site is None or not self.config.enabled or src is None:
            return html
        data = page_entry(site.report, site.executor, src)
        if data is None:
            return html
        self._provenance.add(page.file.dest_uri, src, data)
        return html + panel(data, site.locale)

    def on_nav(self, nav: Navigation, /, *, config: MkDocsConfig, files: Files) -> None:
        # The book's order for its editions: the nav's pages.
        self._book = [
            BookPage(
                self._display_path(p.file.abs_src_path, config), p.file.dest_uri, p.title or ""
            )
            for p in nav.pages
        ]
        self._sources = {
            f.dest_uri: (self._display_path(f.abs_src_path, config), Path(f.abs_src_path))
            for f in files.documentation_pages()
            if f.abs_src_path
        }

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        assert self.site is not None
        with _as_plugin_error():
            self.site.executor.finish()
            rendered, replayed = len(self.site.rendered), len(self.site.replayed)
            log.info(f"{rendered} pages rendered, {replayed} from the render cache")
            self.site.outputs.write(self.site.report)
            write_page_notebooks(self.site)
            self._provenance.write(Path(config.site_dir))
            save_segments()
            shipped = ship_and_check(
                config.site_dir,
                keep=self.config.remote_images == "keep",
                check=self.config.offline_check,
                store=self.site.store,
                sources=self._sources,
                edition=self.site.project.translating,  # its own slot: builds alternate
                elsewhere=(*self._other_editions(), *self._edition_files()),
            )
            if shipped:
                log.info(shipped)
            # After the images are shipped: the editions show them from site/.
            shard = self.site.executor.shard
            if self.config.editions and not self.serving and shard is not None:
                log.info(f"no editions from shard {shard}'s build: it left pages out")
            elif self._makes_editions():
                self._make_editions(config)
        log.info(self.site.store.summary())
        if not self.serving:  # what `llmbook cache prune` keeps (a preview reads only part)
            record_build(self.site.store, os.path.basename(self._config_file(config)))

    def _other_editions(self) -> tuple[str, ...]:
        """The translated editions' folders under this build's site/ (`en`): other builds write
        them, after this one; a translating build's own site has none."""
        translations = self.site.translations if self.site is not None else None
        if translations is None or translations.languages.translating:
            return ()
        return translations.languages.all[1:]

    def _makes_editions(self) -> bool:
        """Whether this build ends with the PDF and EPUB: asked for, not a preview, not a shard's."""
        assert self.site is not None
        return bool(self.config.editions) and not self.serving and self.site.executor.shard is None

    def _edition_files(self) -> tuple[str, ...]:
        """The PDF and EPUB this build writes into site/ after the check (`:::editions` links
        them): files the site will have."""
        assert self.site is not None
        if not self._makes_editions():
            return ()
        code, languages = self.site.locale.code, self.config.languages or ()
        return tuple(edition_name(kind, code, languages) for kind in self.config.editions)

    def _make_editions(self, config: MkDocsConfig) -> None:
        """The PDF and EPUB editions, into `editions_dir` and the site's root (`:::editions`)."""
        assert self.site is not None
        docs = self._display_path(config.docs_dir, config)
        make_editions(
            self.config.editions,
            book_pages(self._book, docs, self.config.editions_skip),
            site_dir=Path(config.site_dir),
            out_dir=editions_dir(Path(self._root(config)), self.config.editions_dir),
            store=self.site.store,
            book=Book.dated(
                config.site_name,
                config.site_description or "",
                self.site.locale,
                self.site.executor.directives,  # the build's: its box types print too
            ),
            log=log.info,
            languages=self.config.languages,
        )

    @staticmethod
    def _config_file(config: MkDocsConfig) -> str:
        return os.path.abspath(config.config_file_path or "mkdocs.yml")

    @staticmethod
    def _root(config: MkDocsConfig) -> str:
        return os.path.dirname(LLMBookPlugin._config_file(config))

    @staticmethod
    def _display_path(path: str | None, config: MkDocsConfig) -> str:
        """The page as an author finds it: `docs/chapters/x.md`, relative to mkdocs.yml."""
        return os.path.relpath(path or "", LLMBookPlugin._root(config)).replace(os.sep, "/")


def _translated_files(files: Files, translations: Translations, root: str) -> None:
    """Translations leave the files (never pages of their own); in a translating build, a page
    with a translation into its language is read from it (`x.en.md` built as `x.html`)."""
    for file in list(files.documentation_pages()):
        if file.abs_src_path is None:
            continue
        src = os.path.relpath(file.abs_src_path, root).replace(os.sep, "/")
        built = translations.page_file(src)
        if built is None:
            files.remove(file)
        elif built != src:
            file.abs_src_path = os.path.join(root, built)


def _plugin_error(error: LLMBookError) -> PluginError:
    """The core's error as MkDocs' own: MkDocs prints its text and aborts, without a traceback.
    (Both callers raise it `from` the core's error, which keeps the cause.)"""
    return PluginError(str(error))


@contextlib.contextmanager
def _as_plugin_error() -> Iterator[None]:
    try:
        yield
    except LLMBookError as error:
        raise _plugin_error(error) from error

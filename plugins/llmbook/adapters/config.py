"""Options of the `llmbook` plugin (mkdocs.yml `plugins: - llmbook: {...}`). An option llmbook
does not have (a misspelt one, whose default would silently apply) is an error, at its line in
mkdocs.yml, for MkDocs (with or without --strict) and for `load_options` alike."""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import Any

import yaml
from mkdocs.config import config_options as c
from mkdocs.config.base import Config, ConfigErrors, ConfigWarnings, ValidationError

from llmbook.core.errors import LLMBookError
from llmbook.core.project import read_mkdocs_yml
from llmbook.site.launch import launch_problem

__all__ = ["LLMBookConfig", "load_options"]


class LLMBookConfig(Config):
    enabled = c.Type(bool, default=True)

    # Execution of the chapters' code (env LLMBOOK_EXECUTE=0 switches it off).
    execute = c.Type(bool, default=True)
    # Pages that run, as glob patterns relative to docs_dir (`**` spans folders); `[]`: none. A
    # page's front matter `execute: true|false` overrides it.
    execute_pages = c.ListOfItems(c.Type(str), default=["**"])
    execute_timeout = c.Type((int, float), default=120)  # seconds per block or bound expression
    execute_page_timeout = c.Type((int, float), default=600)  # seconds per page
    execute_workers = c.Type(int, default=0)  # pages run at once; 0 = the CPU count
    execute_output_limit = c.Type(int, default=100_000)  # characters kept per block's output
    # Address-space cap per page process (0 = none; CUDA needs 0: it reserves huge address ranges).
    execute_memory_mb = c.Type(int, default=8192)
    execute_seed = c.Type(int, default=0)
    # CI sharding: `i/N` runs only the pages of shard i of N, to fill the cache (env LLMBOOK_SHARD
    # overrides; execute/cluster/shard.py); empty: every page. Not for a site that is published.
    execute_shard = c.Type(str, default="")
    # A Markdown block's last bare expression displayed, as Jupyter's Out (notebooks: always).
    execute_show_last = c.Type(bool, default=False)
    # Blocks run in IPython's shell (magics, `!cmd`, display(), `_`): off runs them as plain Python.
    execute_ipython = c.Type(bool, default=True)
    # A Dask scheduler's address (`tcp://host:8786`): each page that must run is a task on its
    # workers (execute/cluster/cluster.py; env LLMBOOK_CLUSTER overrides; "" = this machine). A page
    # waits up to `execute_cluster_wait` seconds for a worker with its `execute_resources`.
    execute_cluster = c.Type(str, default="")
    execute_cluster_wait = c.Type((int, float), default=300)

    # What a page starts with and what its process may do (docs/guide/executable.md).
    # Python run in each executed page's namespace before its first block (a book imports its own
    # package there, `import mybook`; the plugin itself imports no package of any book).
    execute_preamble = c.Type(str, default="")
    # Guards on page code (execute/sandbox/guards.py): writes to its scratch, temp and cache folders, no
    # reads in the home folders, no internet sockets. `auto` applies what the machine has (said
    # once in the log where not), `required` fails without any of them, `off` applies none.
    execute_sandbox = c.Choice(("auto", "required", "off"), default="auto")
    execute_file_size_mb = c.Type(int, default=1024)  # largest file a page may write; 0 = none
    # Environment variables passed to every page's code beyond the allowlist (execute/sandbox/environment.py);
    # a page names its own with `execute_env: [NAME]` in its front matter.
    execute_env = c.ListOfItems(c.Type(str), default=[])
    # The network for page code (Landlock, seccomp): `none` (default), `pages` (those whose front
    # matter says `execute_network: true`) or `all`.
    execute_network = c.Choice(("none", "pages", "all"), default="none")
    # Threads of a page's torch and BLAS (OpenMP) libraries: 1 by default, so float sums reduce
    # in one order on any machine and pages running side by side do not fight over cores; a
    # page's front matter `execute_threads: N` asks for its own (Jupyter's numbers, bit for bit).
    execute_threads = c.Type(int, default=1)
    # A block that raises (not tagged `raises-exception`) shows its error as Jupyter does and is
    # a warning (`--strict` still fails); off, it fails the build. A page's front matter or a
    # notebook's `llmbook` metadata can say `execute_allow_errors` for itself.
    execute_allow_errors = c.Type(bool, default=False)
    # Files or folders in the home folder that page code may read (the rest of it is hidden).
    execute_read = c.ListOfItems(c.Type(str), default=[])

    # The book's demos (`:::demo ID TITLE`): modules, imported when the build starts, each stating
    # `DEMOS = {ID: "module:Class"}` (a demo's module is imported only when a page renders it),
    # and optionally `DEPENDS` (what its demos compute with) and `ASSETS` (their scripts and
    # styles, shipped into the site): llmbook/demos/catalog.py. Empty: the book has no demos.
    demos = c.ListOfItems(c.Type(str), default=[])
    # The book's own box types, as pymdownx's admonition `types`: name → {icon: a Material
    # admonition type, title: shown when the box has none, collapse: open or closed}; each is a
    # directive `:::NAME` of this build (directives/box.py). A name llmbook uses is refused.
    box_types = c.Type(dict, default={})

    # Every number of a page must be checked, cited or marked illustrative (a page can ask for it
    # with `numbers: strict` in its front matter); otherwise unaccounted ones are only reported.
    numbers_strict = c.Type(bool, default=False)
    # The language of the words llmbook writes and reads (its locale, llmbook/locales/); empty:
    # mkdocs.yml's `theme.language` (the adapters fill it in), English when that is not set either,
    # as Material's is.
    language = c.Type(str, default="")
    # A folder (relative to mkdocs.yml) of the book's own locale files, `<language>.yml`: words
    # over the shipped ones, or a language llmbook does not ship (docs/guide/en/languages.md).
    locales = c.Type(str, default="")
    # The book's languages, its own first (`[zh, en]`): a page `x.en.md` beside `x.md` is its
    # English edition, built by a build whose `language` is `en` (translate/). Empty: one language.
    languages = c.ListOfItems(c.Type(str), default=[])
    # A translation whose source changed since it was marked (`python -m llmbook.translate mark`)
    # fails the build; otherwise it is a warning (a change of the source's prose only: logged).
    translations_strict = c.Type(bool, default=False)
    # The BibTeX file cited numbers and prose cite by key (`[@key]`), relative to docs_dir;
    # used when it exists (guide/executable.md).
    bibliography = c.Type(str, default="references.bib")

    # The store of every cache (execution results, stages, rendered and converted pages, demo
    # frames, outlines, notebooks, the offline check: store.py, guide/executable.md): `cache`
    # switches all of them (env LLMBOOK_CACHE=0 too; CI builds without); env LLMBOOK_CACHE_DIR
    # overrides cache_dir, their one folder (e.g. for benchmarks).
    cache = c.Type(bool, default=True)
    cache_dir = c.Type(str, default=".llmbook-cache")
    # MkDocs: unchanged pages skip Python-Markdown (their conversion kept in the cache). `auto`:
    # where every extension and plugin of the site is one whose output depends on the page alone.
    cache_converted = c.Choice(("auto", "on", "off"), default="auto")

    # Post-build check that no page loads anything from outside the site.
    offline_check = c.Type(bool, default=True)
    # Images by URL (`<img src="https://…">`, `![x](https://…)`): `fetch` downloads each into the
    # site (remote_images.py); `keep` leaves them remote, and the offline check allows them.
    remote_images = c.Choice(("fetch", "keep"), default="fetch")
    # Launch buttons on each page that runs code: service → URL template, `{path}` the page's
    # notebook's path in the published site (`{colab: "https://colab.research.google.com/github/
    # OWNER/REPO/blob/notebooks/{path}"}`; site/launch.py); an empty template: no button.
    launch = c.Type(object, default={})
    # The book's editions beside the site (llmbook/editions/): `pdf`, `epub`; LLMBOOK_EDITIONS
    # (`pdf,epub`) overrides. Written to `editions_dir` (from mkdocs.yml's folder;
    # LLMBOOK_EDITIONS_DIR overrides) and into the site, where `:::editions` links them: named
    # llmbook.pdf in the book's own language, llmbook.<language>.pdf in another (links.py). Pages
    # matching an `editions_skip` pattern (relative to docs_dir) are left out of them.
    editions = c.ListOfItems(c.Type(str), default=[])
    editions_dir = c.Type(str, default="dist")
    editions_skip = c.ListOfItems(c.Type(str), default=[])

    def validate(self) -> tuple[ConfigErrors, ConfigWarnings]:
        """MkDocs' validation, where a name llmbook has no option for is an error (MkDocs warns,
        and without --strict builds on with that option's default)."""
        failed, warnings = super().validate()
        names = [name for name, _ in self._schema]
        unknown = [key for key in self.keys() if key not in names]  # in the file's order
        warnings = [(key, warning) for key, warning in warnings if key not in unknown]
        for name in unknown:
            failed.append((name, UnknownOption(self.config_file_path, name, names)))
        problem = launch_problem(self["launch"]) if "launch" not in dict(failed) else None
        if problem is not None:
            failed.append(("launch", InvalidOption(self.config_file_path, "launch", *problem)))
        return failed, warnings


class UnknownOption(ValidationError):
    """`mkdocs.yml:12: the llmbook plugin has no option `x`` with the nearest name as the fix."""

    def __init__(self, config_file: str, name: str, names: list[str]) -> None:
        where = _option_place(config_file, name) if config_file else "mkdocs.yml"
        nearest = difflib.get_close_matches(name, names, n=1)
        if nearest:
            fix = f"did you mean `{nearest[0]}`? Rename it, or remove the line"
        else:
            fix = f"remove it, or use one of llmbook's options: {', '.join(names)}"
        super().__init__(f"{where}: the llmbook plugin has no option `{name}` Fix: {fix}")


class InvalidOption(ValidationError):
    """`mkdocs.yml:12: <what is wrong with option x> Fix: …` (an option llmbook checks itself)."""

    def __init__(
        self, config_file: str, name: str, problem: str, fix: str, entry: str | None = None
    ) -> None:
        where = _option_place(config_file, name, entry) if config_file else "mkdocs.yml"
        super().__init__(f"{where}: {problem}. Fix: {fix}.")


def load_options(config_file: str | Path) -> LLMBookConfig:
    """The llmbook options exactly as the project's mkdocs.yml sets them (its `plugins: - llmbook:`
    entry), validated: what pytest, `update_numbers` and the Zensical adapter run with."""
    path = Path(config_file)
    data = read_mkdocs_yml(path)
    found: dict[str, Any] = {}
    for entry in data.get("plugins") or []:
        if isinstance(entry, dict) and "llmbook" in entry:
            found = dict(entry["llmbook"] or {})
    options = LLMBookConfig(config_file_path=str(path))
    found.setdefault("language", theme_language(path))
    options.load_dict(found)
    errors, _ = options.validate()
    placed = (UnknownOption, InvalidOption)  # errors that name their line themselves
    unknown = [str(error) for _, error in errors if isinstance(error, placed)]
    invalid = [(name, error) for name, error in errors if not isinstance(error, placed)]
    if invalid:
        problems = "; ".join(f"{name}: {error}" for name, error in invalid)
        unknown.insert(0, f"{path}: the llmbook options are invalid: {problems}")
    if unknown:
        raise LLMBookError("\n".join(unknown))
    return options


def theme_language(config_file: str | Path) -> str:
    """`theme.language` as mkdocs.yml sets it (or the file it INHERITs); empty when none does."""
    theme = read_mkdocs_yml(Path(config_file)).get("theme")  # INHERIT merged
    language = theme.get("language") if isinstance(theme, dict) else None
    return str(language or "")


def _option_place(config_file: str, name: str, entry: str | None = None) -> str:
    """`mkdocs.yml:12`: the line of option `name` of the llmbook plugin (of its key `entry`, when
    given and found), in the config or in a file it INHERITs (named relative to the config's
    folder); the config alone when not found."""
    path = Path(config_file).resolve()
    root, seen = path.parent, []
    while path.is_file() and path not in seen and len(seen) < 8:
        seen.append(path)
        try:
            node = yaml.compose(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            break
        if not isinstance(node, yaml.MappingNode):
            break
        shown = os.path.relpath(path, root).replace(os.sep, "/")
        for key, value in _plugin_options(_value(node, "plugins")):
            if key.value == name:
                inner = _key(value, entry) if isinstance(value, yaml.MappingNode) else None
                return f"{shown}:{(inner or key).start_mark.line + 1}"
        parent = _value(node, "INHERIT")
        if not isinstance(parent, yaml.ScalarNode):
            break
        path = (path.parent / parent.value).resolve()
    return os.path.relpath(config_file, root).replace(os.sep, "/")


def _plugin_options(plugins: yaml.Node | None) -> list[tuple[yaml.ScalarNode, yaml.Node]]:
    """The options (key, value) of the llmbook entry of a `plugins:` list (or mapping)."""
    entries = plugins.value if isinstance(plugins, yaml.SequenceNode) else [plugins]
    for entry in entries:
        options = _value(entry, "llmbook") if isinstance(entry, yaml.MappingNode) else None
        if isinstance(options, yaml.MappingNode):
            return [(k, v) for k, v in options.value if isinstance(k, yaml.ScalarNode)]
    return []


def _key(node: yaml.MappingNode, key: str | None) -> yaml.Node | None:
    return next((k for k, _ in node.value if getattr(k, "value", None) == key), None)


def _value(node: yaml.MappingNode, key: str) -> yaml.Node | None:
    return next((v for k, v in node.value if getattr(k, "value", None) == key), None)

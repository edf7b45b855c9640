"""The `llmbook` command (also `python -m llmbook`):

llmbook new DIR [--language L] [--engine E]   a new book that builds at once, in L: en (the
                                     default) or another language llmbook ships words for; built
                                     with E: mkdocs (the default) or zensical
llmbook update-numbers [PATH ...]    rewrite drifted [[… = number]] to the computed values
llmbook zensical-config CONFIG [-o OUT]   the config Zensical builds: CONFIG merged over what it
                                     INHERITs, translations left out, notebooks as pages
llmbook cache info [-f CONFIG]       the cache's namespaces: entries, bytes, read by the last build
llmbook cache prune [-f CONFIG] [--keep-builds N]   remove the entries the last build (the last N
                                     builds) of each config file did not read
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from llmbook.commands.scaffold import ENGINES
from llmbook.core.i18n import shipped_languages

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="llmbook", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="write a new book into an empty or new folder")
    new.add_argument("folder", type=Path)
    new.add_argument(
        "--language",
        choices=shipped_languages(),
        default="en",
        help="the book's language (theme.language): its first page, comments and llmbook's words",
    )
    new.add_argument(
        "--engine",
        choices=ENGINES,
        default=ENGINES[0],
        help="what builds the book: its README, requirements and workflow (default: mkdocs)",
    )
    update = commands.add_parser(
        "update-numbers", help="rewrite drifted bound numbers to the computed ones, print the diff"
    )
    update.add_argument("paths", nargs="*", default=["docs"], help="pages or folders")
    flat = commands.add_parser(
        "zensical-config",
        help="write the config Zensical builds: CONFIG merged over the configs it INHERITs as "
        "MkDocs merges them (lists replaced, where Zensical appends them), translations left "
        "out (exclude_docs), and a page (x.md) beside each notebook x.ipynb",
    )
    flat.add_argument("config", type=Path, help="mkdocs.yml, or an edition's: mkdocs.en.yml")
    flat.add_argument(
        "-o", "--output", type=Path, help="default: CONFIG's name + .zensical.yml, beside it"
    )
    _cache_commands(commands)
    args = parser.parse_args(argv)
    if args.command == "cache":
        return _cache(args.config_file, args.action, getattr(args, "keep_builds", 1))
    if args.command == "new":
        return _new(args.folder, args.language, args.engine)
    if args.command == "zensical-config":
        return _zensical_config(args.config, args.output)
    from llmbook.commands.update import main as update_numbers

    return update_numbers(args.paths)


def _cache_commands(commands: argparse._SubParsersAction) -> None:
    cache = commands.add_parser("cache", help="see and prune the build's cache (cache_dir)")
    actions = cache.add_subparsers(dest="action", required=True)
    info = actions.add_parser("info", help="each namespace's entries and bytes")
    prune = actions.add_parser(
        "prune", help="remove the entries the last build of each config file did not read"
    )
    prune.add_argument(
        "--keep-builds",
        type=int,
        default=1,
        metavar="N",
        help="keep what any of the last N builds of each config file read (default 1)",
    )
    for action in (info, prune):
        action.add_argument(
            "-f", "--config-file", type=Path, default=Path("mkdocs.yml"), help="the book's config"
        )


def _cache(config_file: Path, action: str, keep_builds: int) -> int:
    """`llmbook cache info|prune`: the cache folder as the build finds it (`cache_dir` in
    CONFIG's llmbook options, env LLMBOOK_CACHE_DIR over it)."""
    from llmbook.core.project import read_mkdocs_yml
    from llmbook.core.store import cache_folder
    from llmbook.core.store_builds import cache_info, prune

    if not config_file.is_file():
        print(f"llmbook cache {action}: {config_file} is missing. Fix: run it in the "
              "book's folder, or name its config with -f", file=sys.stderr)  # fmt: skip
        return 2
    options: dict = {}
    for plugin in read_mkdocs_yml(config_file.resolve()).get("plugins") or []:
        if isinstance(plugin, dict) and "llmbook" in plugin:
            options = dict(plugin["llmbook"] or {})
    folder = cache_folder(str(options.get("cache_dir") or ".llmbook-cache"))
    root = config_file.resolve().parent / folder  # an absolute folder stays itself
    if action == "info":
        print(cache_info(root))
        return 0
    if keep_builds < 1:
        print(f"llmbook cache prune: --keep-builds {keep_builds}: keep 1 build or more",
              file=sys.stderr)  # fmt: skip
        return 2
    print(prune(root, keep_builds).report(root, keep_builds))
    return 0


def _zensical_config(config: Path, output: Path | None) -> int:
    import yaml

    from llmbook.adapters.zensical.written import zensical_config
    from llmbook.core.errors import LLMBookError

    try:
        written, twins = zensical_config(config, output)
    except (OSError, ValueError, yaml.YAMLError, LLMBookError) as error:
        print(f"llmbook zensical-config: {error}", file=sys.stderr)
        return 1
    pages = f", and the pages of {twins} notebook(s) (x.md beside x.ipynb)" if twins else ""
    print(
        f"llmbook zensical-config: {written}{pages}. Build it: zensical build --clean -f {written}"
    )
    return 0


def _new(folder: Path, language: str, engine: str) -> int:
    from llmbook.commands.scaffold import NotEmpty, new_book

    try:
        new_book(folder, language=language, engine=engine)
    except NotEmpty as error:
        print(f"llmbook new: {error}", file=sys.stderr)
        return 2  # argparse's status for a usage error
    how = "mkdocs build --strict"
    if engine == "zensical":  # as its README says
        how = (
            "python -m llmbook zensical-config mkdocs.yml && "
            "zensical build --clean -f mkdocs.zensical.yml"
        )
    print(f"llmbook new: a book in {folder}. Build it: cd {folder} && {how}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

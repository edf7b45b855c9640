"""`python -m llmbook.translate`: the translations' state, and marking one as up to date.

    python -m llmbook.translate status            every translation: current, stale (with what
                                                  changed in its source since), or missing
    python -m llmbook.translate mark docs/x.en.md record the source it now translates (refused
                                                  while it does not correspond to its source)

Run from the project's folder (`-f` names another mkdocs.yml); the `languages` option of the
llmbook plugin lists the book's languages, its own first.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from llmbook.adapters.config import load_options
from llmbook.core.errors import AuthorError, LLMBookError
from llmbook.core.i18n import Locale, options_locale
from llmbook.core.project import read_mkdocs_yml
from llmbook.execute.stages.load import load_page
from llmbook.translate.book import read_record
from llmbook.translate.correspond import correspond
from llmbook.translate.fingerprint import fingerprint
from llmbook.translate.layout import Languages
from llmbook.translate.record import FORMAT, changes, make_record, with_record

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m llmbook.translate", description=__doc__.split("\n")[0]
    )
    parser.add_argument("-f", "--config-file", type=Path, default=Path("mkdocs.yml"))
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("status", help="every translation: current, stale or missing")
    mark = commands.add_parser("mark", help="record the source a translation now translates")
    mark.add_argument("paths", nargs="+", help="translations (docs/x.en.md)")
    args = parser.parse_args(argv)
    root = args.config_file.resolve().parent
    try:
        options = load_options(args.config_file)
        languages = tuple(options["languages"])
        if len(languages) < 2:
            raise LLMBookError(
                f"{args.config_file}: the llmbook option `languages` names one language or none: "
                "list the book's languages, its own first (`languages: [zh, en]`)"
            )
        docs = root / (read_mkdocs_yml(args.config_file).get("docs_dir") or "docs")
        book = Languages(languages, languages[0])
        locale = options_locale(options, root)  # reads every language's quiz keywords
        if args.command == "status":
            return _status(book, root, docs, locale)
        return _mark(book, root, [Path(p) for p in args.paths], locale)
    except LLMBookError as error:
        print(error, file=sys.stderr)
        return 1


def _load(root: Path, src: str):
    return load_page(src, (root / src).read_bytes()).source


def _status(book: Languages, root: Path, docs: Path, locale: Locale) -> int:
    sources = sorted(
        _rel(p, root)
        for pattern in ("*.md", "*.ipynb")
        for p in docs.rglob(pattern)
        if book.language_of(p.name) is None and book.written_in(_rel(p, root)) is None
    )
    counts = {"current": 0, "stale": 0, "unmarked": 0, "missing": 0}
    width = max((len(s) for s in sources), default=0) + 4
    for source in sources:
        for language in book.all[1:]:
            translation = book.translation_of(source, language)
            if not (root / translation).is_file():
                print(f"{translation:<{width}} missing")
                counts["missing"] += 1
                continue
            record, _ = read_record(root / translation, translation)
            found = changes(record, fingerprint(_load(root, source), locale))
            if not found:
                print(f"{translation:<{width}} current")
                counts["current"] += 1
                continue
            state = "unmarked" if found[0].kind == "unmarked" else "stale"
            counts[state] += 1
            print(f"{translation:<{width}} {state}")
            for change in found:
                print(f"    {change.text}")
    for orphan in sorted(
        _rel(p, root)
        for pattern in ("*.md", "*.ipynb")
        for p in docs.rglob(pattern)
        if book.language_of(p.name) and not (root / book.source_of(_rel(p, root))).is_file()
    ):
        print(f"{orphan:<{width}} no source ({book.source_of(orphan)} does not exist)")
    print(", ".join(f"{n} {k}" for k, n in counts.items()))
    return 0


def _mark(book: Languages, root: Path, paths: list[Path], locale: Locale) -> int:
    failed = False
    for path in paths:
        src = _rel(path.resolve(), root)
        if book.language_of(src) is None:
            raise LLMBookError(
                f"{src} is not a translation: name it after its source, x.<language>.md"
            )
        source = book.source_of(src)
        if not (root / source).is_file():
            raise LLMBookError(f"{src}: its source {source} does not exist")
        try:
            theirs = fingerprint(_load(root, source), locale)
            errors = correspond(fingerprint(_load(root, src), locale), theirs).errors
        except AuthorError as error:
            errors, theirs = [error], None
        if errors:
            failed = True
            for error in errors:
                print(error, file=sys.stderr)
            print(f"{src}: not marked: it does not correspond to {source} yet", file=sys.stderr)
            continue
        assert theirs is not None
        record = read_record(root / src, src)[0]
        if not changes(record, theirs) and record.get("format") == FORMAT:  # an older one: anew
            print(f"{src}: already current (source {source}, digest {theirs.digest})")
            continue
        name = os.path.relpath(root / source, (root / src).parent).replace(os.sep, "/")
        # As bytes: read_text and write_text would turn a CRLF file's line endings into LF.
        text = (root / src).read_bytes().decode("utf-8-sig")
        marked = with_record(text, make_record(theirs, name), notebook=src.endswith(".ipynb"))
        (root / src).write_bytes(marked.encode("utf-8"))
        print(f"{src}: marked (source {source}, digest {theirs.digest})")
    return 1 if failed else 0


def _rel(path: Path, root: Path) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


if __name__ == "__main__":
    sys.exit(main())

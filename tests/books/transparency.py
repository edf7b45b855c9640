"""Is llmbook transparent on a site it does not run? Build a MkDocs site as it is and again with
llmbook added (`llmbook.extension` first in markdown_extensions, the plugin with
`execute_pages: []` and no offline check), and compare every page's article.

    python tests/books/transparency.py path/to/mkdocs.yml [--keep DIR]

prints each page whose article differs (with the first differing lines) and exits 1 if one does.
"""

from __future__ import annotations

import argparse
import difflib
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["articles", "build", "compare"]

_ARTICLE = re.compile(r'<article class="md-content__inner md-typeset">(.*?)</article>', re.S)
LLMBOOK = {"llmbook": {"execute_pages": [], "offline_check": False}}


def build(config_file: Path, site_dir: Path, *, llmbook: bool) -> None:
    """Build the site into `site_dir`, with llmbook added or not (in process, from its folder)."""
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config
    from mkdocs.utils import yaml_load

    with open(config_file, encoding="utf-8") as file:
        raw: dict[str, Any] = yaml_load(file) or {}
    overrides: dict[str, Any] = {"site_dir": str(site_dir)}
    if llmbook:
        overrides["plugins"] = [*(raw.get("plugins") or ["search"]), LLMBOOK]
        overrides["markdown_extensions"] = [
            "llmbook.extension",
            *raw.get("markdown_extensions", []),
        ]
    cwd = os.getcwd()
    os.chdir(config_file.parent)
    try:
        mkdocs_build(load_config(str(config_file), **overrides))
    finally:
        os.chdir(cwd)


def articles(site_dir: Path) -> dict[str, str]:
    """Each HTML page's article (the Material theme's), by path in the site."""
    found = {}
    for page in sorted(site_dir.rglob("*.html")):
        match = _ARTICLE.search(page.read_text(encoding="utf-8"))
        if match is not None:
            found[page.relative_to(site_dir).as_posix()] = match.group(1)
    return found


def compare(config_file: Path, work: Path) -> dict[str, list[str]]:
    """{page: first lines of the diff} for every page whose article differs between the plain
    build and the build with llmbook; a page in only one build counts as differing."""
    build(config_file, work / "plain", llmbook=False)
    build(config_file, work / "llmbook", llmbook=True)
    plain, added = articles(work / "plain"), articles(work / "llmbook")
    differ: dict[str, list[str]] = {}
    for page in sorted(plain.keys() | added.keys()):
        a, b = plain.get(page, ""), added.get(page, "")
        if a != b:
            diff = difflib.unified_diff(a.split("\n"), b.split("\n"), "plain", "llmbook", n=0)
            differ[page] = list(diff)[:12]
    return differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("--keep", type=Path, help="build into this folder (kept)")
    args = parser.parse_args()
    import logging

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    work = args.keep or Path(tempfile.mkdtemp(prefix="llmbook-transparency-"))
    differ = compare(args.config.resolve(), work.resolve())
    total = len(articles(work / "plain"))
    for page, lines in differ.items():
        print(f"{page}: differs\n  " + "\n  ".join(lines))
    print(f"{total} pages compared, {len(differ)} differ ({work})")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())

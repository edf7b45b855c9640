"""Post-build check: every relative link or load into the site reaches a file.

Whatever wrote it (an author's Markdown or raw HTML, a notebook, the theme, llmbook), a relative
`<a href>`, `<img src>`, CSS `url()`… of a built page, stylesheet or SVG that points into `site/`
must name a file there, or a folder with an `index.html` (as a server serves it); otherwise the
reader gets a 404. Fragments and query strings are stripped and `%20` decoded first. Not checked:
404.html (its URLs are root-absolute on purpose), scripts (an import may be a bare name), what is
not HTML, CSS or SVG (the search index, the sitemap), URLs that climb out of the site with `..`,
and the other editions' folders (`site/en/`: another build writes them, after this one).
"""

from __future__ import annotations

import json
import posixpath
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

__all__ = ["MissingFile", "find_missing", "missing_report", "source_line", "where_written"]

# A scheme (`https:`, `mailto:`), protocol-relative `//host`, root-absolute `/x` or `\\host`: not
# a relative URL into the site (the offline check judges those).
_NOT_RELATIVE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|/|\\)")
_UNCHECKED = (".js", ".mjs")  # a script's imports may be bare module names
HOME = "index.html"


@dataclass(frozen=True)
class MissingFile:
    """A relative URL of the built file `file` (relative to site/) that reaches no file."""

    file: str
    url: str
    how: str  # `<a href>`, `<img src>`, `CSS url()`…
    where: str = ""  # `docs/x.md:3`, `docs/x.ipynb:cell 2, line 1`, or `docs/x.md` alone
    home: bool = False  # it points at the site's home page (index.html), which is missing

    def __str__(self) -> str:
        if self.where:
            return f"{self.where}: {self.how} {self.url} ({self.file})"
        return f"{self.file}: {self.how} {self.url}"


def find_missing(
    site_dir: str | Path, urls: Iterable[tuple[str, str, str]], elsewhere: Collection[str] = ()
) -> list[MissingFile]:
    """Each (file, url, how) of `urls` (found in the built files of `site_dir`) that points into
    the site at no file. The site's folders in `elsewhere` are other builds' (the translated
    editions' `site/<language>/`): neither their files nor URLs into them are checked."""
    root = Path(site_dir)
    files = {path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file()}
    missing = []
    for file, url, how in urls:
        if file == "404.html" or file.endswith(_UNCHECKED) or file.split("/")[0] in elsewhere:
            continue
        target = _target(file, url)
        if target is None or target.split("/")[0] in elsewhere:
            continue
        index = HOME if target == "." else f"{target}/{HOME}"  # a folder: as a server serves it
        if target not in files and index not in files:
            missing.append(MissingFile(file, url, how, home=target in {".", HOME}))
    return missing


def _target(file: str, url: str) -> str | None:
    """The path in the site that `url`, written in `file`, names; None when it names none (an
    address elsewhere, a fragment of the page itself) or climbs out of the site."""
    url = url.strip()
    path = unquote(url.split("#", 1)[0].split("?", 1)[0])
    if not path or _NOT_RELATIVE.match(url):
        return None
    target = posixpath.normpath(posixpath.join(posixpath.dirname(file), path))
    return None if target == ".." or target.startswith("../") else target


def missing_report(missing: list[MissingFile], sources: Mapping[str, tuple[str, Path]]) -> str:
    """The check's report of `missing`, each at its page's source (and the line that wrote the
    URL, where its text is found there); the home page's links in one line. "" when none."""
    home = [link for link in missing if link.home]
    others, seen = [], Counter[tuple[str, str]]()
    for link in missing:
        if not link.home:  # the second link to the same URL of a page: its second place
            others.append(where_written(link, sources, seen[link.file, link.url]))
            seen[link.file, link.url] += 1
    others = list(dict.fromkeys(others))  # a source that writes it fewer times: named once
    parts = []
    if others:
        listing = "\n".join(f"  {link}" for link in others[:50])
        more = f"\n  … and {len(others) - 50} more" if len(others) > 50 else ""
        parts.append(
            f"The site links or loads {len(others)} file(s) it does not have (a 404 for the "
            f"reader):\n{listing}{more}\n{FIX_MISSING}"
        )
    if home:
        pages = len({link.file for link in home})
        parts.append(
            f"The site has no home page ({HOME}), yet {pages} page(s) link it (the theme's logo "
            f"and title do, on every page).\n{FIX_HOME}"
        )
    return "\n".join(parts)


FIX_MISSING = (
    "Fix: correct the link, or add the missing file under docs/. A Markdown link or image is "
    "relative to its page's source file (MkDocs rewrites it for the built page); a raw HTML one "
    "is relative to the built page, in brackets (under `use_directory_urls: true`, docs/x.md "
    "is built as x/index.html, so docs/fig.png is `../fig.png` from it)."
)
FIX_HOME = "Fix: add docs/index.md, the book's first page (MkDocs builds index.html from it)."


def where_written(
    link: MissingFile, sources: Mapping[str, tuple[str, Path]], nth: int = 0
) -> MissingFile:
    """`link` at its page's source, and the line that wrote its URL where its text is there (the
    `nth` place that writes it, counted from 0, where there are that many)."""
    src, path = sources.get(link.file, ("", None))
    if not src or path is None or not path.is_file():
        return link
    line = next(
        filter(None, (source_line(path, url, nth) for url in (link.url, unquote(link.url)))),
        None,
    )
    return MissingFile(link.file, link.url, link.how, f"{src}:{line}" if line else src, link.home)


def source_line(source: Path, url: str, nth: int = 0) -> str | None:
    """Where a page's source writes `url` (its `nth` place, else its first): the line of a
    Markdown page, `cell N, line M` of a notebook (cells counted from 1, as the build's errors
    count them; its text cells before its code, which links only in its outputs); None when
    it does not."""
    text = source.read_text(encoding="utf-8", errors="replace")
    if source.suffix != ".ipynb":
        places = [str(line) for line in _lines_of(text, url)]
    else:
        places = _cell_lines(text, url)
    return places[nth] if nth < len(places) else next(iter(places), None)


def _cell_lines(notebook: str, url: str) -> list[str]:
    try:
        cells = json.loads(notebook).get("cells", [])
    except (ValueError, AttributeError):
        return []
    cells = [cell if isinstance(cell, dict) else {} for cell in cells]
    places = []
    for number, cell in sorted(enumerate(cells, 1), key=lambda c: c[1].get("cell_type") == "code"):
        written = cell.get("source", "")
        text = "".join(written) if isinstance(written, list) else str(written)
        places += [f"cell {number}, line {line}" for line in _lines_of(text, url)]
    return places


def _lines_of(text: str, url: str) -> list[int]:
    """The line of each place `text` writes `url` as a link's target (`(url`, `"url`, `]: url`),
    else of each place it writes it at all (in a sentence, in code)."""
    places = [
        m.start() for m in re.finditer(rf"""(?:(?<=[("'<=])|(?<=\]: )){re.escape(url)}""", text)
    ]
    places = places or [m.start() for m in re.finditer(re.escape(url), text)]
    return [text.count("\n", 0, at) + 1 for at in places]

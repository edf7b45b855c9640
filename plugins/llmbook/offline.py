"""Post-build check: nothing the site loads by itself comes from outside the site.

A page, stylesheet or script may *link* anywhere (a reader clicks an `<a href>` on purpose), but
everything fetched to display the page (scripts, styles, images, fonts, frames, preloads, CSS
`url()` and `@import`, module imports) must be a relative path inside `site/`, so the site works
from `file://`, from any sub-path of a static host and from an unpacked zip.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

from llmbook.errors import LLMBookError
from llmbook.store import Store, bytes_digest, llmbook_hash
from llmbook.store_namespaces import OFFLINE

__all__ = ["ExternalLoad", "check_site", "find_external_loads", "offline_report", "source_line"]

# Anything with a scheme (`https:`, `data:` is fine), protocol-relative `//host`, or a root-absolute
# `/path` (which points outside the site once it is served from a sub-path or opened from disk).
_EXTERNAL = re.compile(r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//|/|\\\\)")
_HARMLESS_SCHEMES = ("data:", "blob:", "about:", "javascript:", "#")
# Attributes that make the browser fetch something, per element.
_LOADING_ATTRIBUTES = {
    "script": ("src",),
    "img": ("src", "srcset"),
    "source": ("src", "srcset"),
    "iframe": ("src",),
    "frame": ("src",),
    "embed": ("src",),
    "object": ("data",),
    "video": ("src", "poster"),
    "audio": ("src",),
    "track": ("src",),
    "input": ("src",),
    "image": ("href", "xlink:href"),  # SVG
    "use": ("href", "xlink:href"),  # SVG
    "feimage": ("href", "xlink:href"),
}
# <link rel=…> kinds that load (a plain `rel="canonical"` or `alternate` does not).
_LOADING_RELS = {
    "stylesheet",
    "preload",
    "prefetch",
    "modulepreload",
    "icon",
    "shortcut",
    "apple-touch-icon",
    "manifest",
    "preconnect",
    "dns-prefetch",
    "mask-icon",
}
_CSS_URL = re.compile(
    r"""url\(\s*(['"]?)(?P<url>[^'")]*)\1\s*\)|@import\s+(['"])(?P<imp>[^'"]+)\3"""
)
# Pages are large (inline SVG figures); only these pieces can load anything, so only they are parsed.
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_SCRIPT_BODY = re.compile(r"(<script\b[^>]*>).*?</script\s*>", re.I | re.S)
_STYLE_BLOCK = re.compile(r"<style\b[^>]*>.*?</style\s*>", re.I | re.S)
_ATTRS = r"""(?:"[^"]*"|'[^']*'|[^'">])*"""
_LOADING_TAG = re.compile(
    rf"<(?:{'|'.join(_LOADING_ATTRIBUTES)}|link)\b{_ATTRS}>|<[a-zA-Z][\w:-]*\s{_ATTRS}\bstyle\s*={_ATTRS}>",
    re.I,
)
_JS_IMPORT = re.compile(
    r"""(?:\bimport\s*\(\s*|\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?|\bimportScripts\s*\(\s*)(['"`])(?P<url>[^'"`]+)\1"""
)


@dataclass(frozen=True)
class ExternalLoad:
    """One resource a built file loads from outside the site."""

    file: str  # relative to site/
    url: str
    how: str  # e.g. `<script src>`, `CSS url()`
    where: str = ""  # `docs/x.md:LINE` or `docs/x.ipynb:cell N, line M`: where its page wrote it

    def __str__(self) -> str:
        if self.where:
            return f"{self.where}: {self.how} {self.url} ({self.file})"
        return f"{self.file}: {self.how} {self.url}"


def _external(url: str, *, root_absolute_ok: bool = False) -> bool:
    url = url.strip()
    if not url or url.lower().startswith(_HARMLESS_SCHEMES) or not _EXTERNAL.match(url):
        return False
    return not (root_absolute_ok and url.startswith("/") and not url.startswith("//"))


class _PageScanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        for name in _LOADING_ATTRIBUTES.get(tag, ()):
            for url in _urls(values.get(name, ""), srcset=name == "srcset"):
                self.found.append((url, f"<{tag} {name}>"))
        if tag == "link":
            rels = set(values.get("rel", "").lower().split())
            if rels & _LOADING_RELS and values.get("href"):
                self.found.append((values["href"], f"<link rel={values['rel']}>"))
        if "style" in values:
            self._css(values["style"], f"<{tag} style>")
        self._in_style = tag == "style"

    def handle_endtag(self, tag: str) -> None:
        self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self._css(data, "<style>")

    def _css(self, text: str, how: str) -> None:
        for url, kind in _css_urls(text):
            self.found.append((url, f"{how} {kind}"))


def _urls(value: str, *, srcset: bool) -> list[str]:
    if not srcset:
        return [value] if value else []
    return [part.split()[0] for part in value.split(",") if part.strip()]


def _css_urls(text: str) -> list[tuple[str, str]]:
    found = []
    for match in _CSS_URL.finditer(text):
        if match.group("url") is not None:
            found.append((match.group("url"), "CSS url()"))
        else:
            found.append((match.group("imp"), "CSS @import"))
    return found


def _loading_parts(html: str) -> str:
    """The tags that may load something, and <style> blocks; script bodies and comments dropped."""
    html = _SCRIPT_BODY.sub(r"\1</script>", _COMMENT.sub("", html))
    tags = _LOADING_TAG.findall(html)
    # A lone <script …> would make the parser read everything after it as script text.
    tags = [tag + "</script>" if tag[:7].lower() == "<script" else tag for tag in tags]
    return "".join(_STYLE_BLOCK.findall(html) + tags)


def _candidates(suffix: str, text: str) -> list[tuple[str, str]]:
    """Every URL a file of this kind would load, with how."""
    if suffix in {".html", ".htm", ".svg"}:
        scanner = _PageScanner()
        scanner.feed(_loading_parts(text))
        scanner.close()
        return scanner.found
    if suffix == ".css":
        return _css_urls(text)
    return [(m.group("url"), "script import") for m in _JS_IMPORT.finditer(text)]


def find_external_loads(
    site_dir: str | os.PathLike[str], store: Store | None = None, edition: str = ""
) -> list[ExternalLoad]:
    """Every resource that a page, stylesheet or script of `site_dir` loads from outside it.

    With a `store`, what each file loads is kept in its "offline" namespace (one slot, keyed on
    llmbook's files) by the file's content hash: a file that did not change since the last check
    is not parsed again."""

    root = Path(site_dir)
    # one slot per edition: the book's own, and each translating build's (`site/en/`)
    slot = (store or Store(None)).slot(OFFLINE, f"site files {edition}".rstrip())
    known = slot.get(llmbook_hash())
    if not isinstance(known, dict):
        known = {}
    seen: dict[str, list] = {}
    loads: list[ExternalLoad] = []
    for path in sorted(root.rglob("*")):
        suffix = path.suffix.lower()
        if suffix not in {".html", ".htm", ".css", ".js", ".mjs", ".svg"} or not path.is_file():
            continue
        rel = path.relative_to(root).as_posix()
        raw = path.read_bytes()
        digest = suffix + bytes_digest(raw)
        found = known.get(digest)
        if found is None:
            found = _candidates(suffix, raw.decode("utf-8", errors="replace"))
        candidates = seen[digest] = [tuple(c) for c in found]
        # MkDocs writes 404.html with root-absolute URLs on purpose: a host serves it for any
        # missing path, at any depth. It is never opened from disk.
        lenient = rel == "404.html"
        loads.extend(
            ExternalLoad(rel, url, how)
            for url, how in candidates
            if _external(url, root_absolute_ok=lenient)
        )
    if seen.keys() != known.keys():
        slot.put(llmbook_hash(), seen)
    return loads


def source_line(source: Path, url: str) -> str | None:
    """Where a page's source writes `url`: the line of a Markdown page, `cell N, line M` of a
    notebook (cells counted from 1, as the build's errors count them); None when it does not."""
    text = source.read_text(encoding="utf-8", errors="replace")
    if source.suffix != ".ipynb":
        return _line_of(text, url)
    try:
        cells = json.loads(text).get("cells", [])
    except (ValueError, AttributeError):
        return None
    for number, cell in enumerate(cells, start=1):
        written = cell.get("source", "") if isinstance(cell, dict) else ""
        line = _line_of("".join(written) if isinstance(written, list) else str(written), url)
        if line:
            return f"cell {number}, line {line}"
    return None


def _line_of(text: str, url: str) -> str | None:
    at = text.find(url)
    return str(text.count("\n", 0, at) + 1) if at >= 0 else None


def _located(
    loads: list[ExternalLoad], sources: Mapping[str, tuple[str, Path]]
) -> list[ExternalLoad]:
    """Each load of a page built from a source that writes its URL, with that place."""
    found = []
    for load in loads:
        src, path = sources.get(load.file, ("", None))
        line = source_line(path, load.url) if path is not None and path.is_file() else None
        found.append(replace(load, where=f"{src}:{line}") if line else load)
    return found


def check_site(
    site_dir: str | os.PathLike[str],
    store: Store | None = None,
    sources: Mapping[str, tuple[str, Path]] | None = None,
    edition: str = "",
) -> None:
    """Fail the build (LLMBookError) when anything in `site_dir` loads a resource from outside it.
    `sources`: {built page relative to site/: (its source as errors name it, its path)}, so the
    report names the source's line that wrote the URL (the author's error), not the built file."""
    report = offline_report(find_external_loads(site_dir, store, edition), sources or {})
    if report:
        raise LLMBookError(report)


def offline_report(loads: list[ExternalLoad], sources: Mapping[str, tuple[str, Path]]) -> str:
    """The check's report of `loads`, each at the source line that wrote it; "" when none."""
    loads = _located(loads, sources)
    if not loads:
        return ""
    listing = "\n".join(f"  {load}" for load in loads[:50])
    more = f"\n  … and {len(loads) - 50} more" if len(loads) > 50 else ""
    return (
        f"The site loads {len(loads)} resource(s) from outside site/, so it would not work "
        f"offline or from a sub-path:\n{listing}{more}\n{_fix(loads)}"
    )


# Material links Google Fonts unless the theme says not to: the one fix is in mkdocs.yml.
_GOOGLE_FONTS = ("//fonts.googleapis.com", "//fonts.gstatic.com")
_FIX_FONTS = (
    "Fix: set `font: false` under `theme:` in mkdocs.yml (Material then uses the system's fonts "
    "instead of loading Google Fonts)."
)
_FIX_FILES = (
    "Fix: ship the file under docs/ (or the plugin's assets) and refer to it by a relative "
    "path; only <a href> links may point outside the site."
)


def _fix(loads: list[ExternalLoad]) -> str:
    fonts = [load for load in loads if any(host in load.url for host in _GOOGLE_FONTS)]
    if not fonts:
        return _FIX_FILES
    return _FIX_FONTS if len(fonts) == len(loads) else f"{_FIX_FONTS}\n{_FIX_FILES}"


if __name__ == "__main__":  # `python -m llmbook.offline site`: the check for engines without hooks
    import sys

    try:
        check_site(sys.argv[1] if len(sys.argv) > 1 else "site")
    except LLMBookError as error:
        sys.exit(str(error))
    print("offline check: nothing is loaded from outside the site")

"""Post-build check: nothing the site loads by itself comes from outside the site.

A page, stylesheet or script may *link* anywhere (a reader clicks an `<a href>` on purpose), but
everything fetched to display the page (scripts, styles, images, fonts, frames, preloads, CSS
`url()` and `@import`, module imports) must be a relative path inside `site/`, so the site works
from `file://`, from any sub-path of a static host and from an unpacked zip. The same scan finds
each relative link or load into the site that reaches no file (missing_files.py).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

from llmbook.core.errors import LLMBookError
from llmbook.site.missing_files import find_missing, missing_report, source_line
from llmbook.core.project import read_mkdocs_yml
from llmbook.core.store import Store, bytes_digest, llmbook_hash
from llmbook.core.store_namespaces import OFFLINE

__all__ = [
    "ExternalLoad",
    "check_site",
    "find_external_loads",
    "is_external",
    "offline_report",
    "other_editions",
    "site_report",
    "site_urls",
    "source_line",
]

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
# Attributes that only link (a reader follows them on purpose): they may point anywhere, so they
# are scanned only to check that one into the site reaches a file.
_LINKING_ATTRIBUTES = {"a": ("href",), "area": ("href",)}
_LINKS = {f"<{tag} {name}>" for tag, names in _LINKING_ATTRIBUTES.items() for name in names}
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
    rf"<(?:{'|'.join([*_LOADING_ATTRIBUTES, *_LINKING_ATTRIBUTES])}|link)\b{_ATTRS}>|<[a-zA-Z][\w:-]*\s{_ATTRS}\bstyle\s*={_ATTRS}>",
    re.I,
)
_JS_IMPORT = re.compile(
    r"""(?:\bimport\s*\(\s*|\bimport\s+(?:[\w*{}\s,]+\s+from\s+)?|\bimportScripts\s*\(\s*)(['"`])(?P<url>[^'"`]+)\1"""
)


@dataclass(frozen=True)
class ExternalLoad:
    """One URL a built file loads (or links), as the scan found it: from outside the site, one
    the check reports."""

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
        for name in _LINKING_ATTRIBUTES.get(tag, ()):
            if values.get(name):
                self.found.append((values[name], f"<{tag} {name}>"))
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
    """Every resource that a page, stylesheet or script of `site_dir` loads from outside it."""
    return [url for url in site_urls(site_dir, store, edition) if is_external(url)]


def is_external(url: ExternalLoad) -> bool:
    """Whether the scan's `url` is a load from outside the site (a link may point anywhere)."""
    # MkDocs writes 404.html with root-absolute URLs on purpose: a host serves it for any
    # missing path, at any depth. It is never opened from disk.
    lenient = url.file == "404.html"
    return url.how not in _LINKS and _external(url.url, root_absolute_ok=lenient)


def site_urls(
    site_dir: str | os.PathLike[str], store: Store | None = None, edition: str = ""
) -> list[ExternalLoad]:
    """Every URL that a page, stylesheet or script of `site_dir` loads, and each page's links.

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
    urls: list[ExternalLoad] = []
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
        urls.extend(ExternalLoad(rel, url, how) for url, how in candidates)
    if seen.keys() != known.keys():
        slot.put(llmbook_hash(), seen)
    return urls


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
    elsewhere: Collection[str] = (),
) -> None:
    """Fail the build (LLMBookError) when anything in `site_dir` loads a resource from outside it,
    or a relative URL into it reaches no file (but for one into a folder of `elsewhere`: the
    other editions', which other builds write). `sources`: {built page relative to site/: (its
    source as errors name it, its path)}, so the report names the source's line that wrote the
    URL (the author's error), not the built file."""
    urls = site_urls(site_dir, store, edition)
    loads = [url for url in urls if is_external(url)]
    report = site_report(site_dir, urls, loads, sources or {}, elsewhere)
    if report:
        raise LLMBookError(report)


def site_report(
    site_dir: str | os.PathLike[str],
    urls: list[ExternalLoad],
    loads: list[ExternalLoad],
    sources: Mapping[str, tuple[str, Path]],
    elsewhere: Collection[str] = (),
) -> str:
    """The check's report: `loads` from outside the site, then each of the scan's `urls` into it
    that reaches no file; "" when there are neither."""
    found = ((url.file, url.url, url.how) for url in urls)
    missing = missing_report(find_missing(Path(site_dir), found, elsewhere), sources)
    return "\n".join(part for part in (offline_report(loads, sources), missing) if part)


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


def other_editions(config_file: str | Path = "mkdocs.yml") -> list[str]:
    """The folders of the translated editions (`en` of `languages: [zh, en]`), as mkdocs.yml's
    llmbook options name them: each is another build's, written after the book's own."""
    for entry in read_mkdocs_yml(Path(config_file)).get("plugins") or []:
        if isinstance(entry, dict) and isinstance(entry.get("llmbook"), dict):
            languages = entry["llmbook"].get("languages") or []
            return [str(language) for language in languages[1:]]
    return []


if __name__ == "__main__":  # `python -m llmbook.offline site`: the check for engines without hooks
    import sys

    try:
        check_site(sys.argv[1] if len(sys.argv) > 1 else "site", elsewhere=other_editions())
    except LLMBookError as error:
        sys.exit(str(error))
    print(
        "offline check: nothing is loaded from outside the site; every link into it reaches a file"
    )

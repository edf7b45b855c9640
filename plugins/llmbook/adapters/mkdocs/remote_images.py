"""Remote images shipped inside the site, as Material's privacy plugin ships external assets.

After the build, every `<img src>` (or `srcset`) the offline check found with an http(s) address
is downloaded once, kept in the store's "remote-images" namespace by its address, written under
`site/assets/external/<host>/<hash>.<ext>` (named by its content) and the pages point at it by a
relative path, so they work offline and from `file://`. The `remote_images` option: `fetch`
(the default) does that; `keep` leaves them as they are, and the offline check allows them (it
still reports every other resource loaded from outside: scripts, styles, frames, audio, video).
An address that cannot be fetched fails the build at the line (or cell) that wrote it.
"""

from __future__ import annotations

import html
import posixpath
import re
import urllib.error
import urllib.request
from collections.abc import Collection, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path
from urllib.parse import urlsplit

from llmbook.core.errors import LLMBookError
from llmbook.core.store import Store, bytes_digest, key
from llmbook.core.store_namespaces import REMOTE_IMAGES
from llmbook.site.missing_files import source_line
from llmbook.site.offline import ExternalLoad, is_external, site_report, site_urls

__all__ = [
    "FETCH_FIX",
    "FetchFailed",
    "Shipped",
    "fetch_image",
    "is_remote_image",
    "ship_and_check",
    "ship_remote_images",
]

NAMESPACE = REMOTE_IMAGES
FOLDER = "assets/external"  # under site/, as Material's privacy plugin names it
TIMEOUT_S = 5  # per connection and read: a build does not hang on a host that does not answer
LIMIT_MB = 10  # an image that large is a file to ship under docs/, not to fetch on every build
_IMAGE_LOADS = ("<img src>", "<img srcset>")
_REMOTE = re.compile(r"^\s*(?:https?:)?//", re.I)
_SUFFIXES = {"image/jpeg": "jpg", "image/svg+xml": "svg", "image/x-icon": "ico"}
_ATTRS = r"""(?:"[^"]*"|'[^']*'|[^'">])*"""
_IMG_TAG = re.compile(rf"<img\b{_ATTRS}>", re.I)
_IMG_URL_ATTR = re.compile(r"""(\s(?:src|srcset)\s*=\s*)("[^"]*"|'[^']*'|[^\s"'>]+)""", re.I)
FETCH_FIX = (
    "Fix: download each image into docs/ and link it by a relative path, or set the llmbook "
    "option `remote_images: keep` to leave remote images as they are (the offline check then "
    "allows them)."
)


class FetchFailed(Exception):
    """Why an image could not be fetched, in words for the author (`HTTP 404 Not Found`)."""


@dataclass
class Shipped:
    """What shipping the remote images left: the loads the offline check still judges, the
    failures (one line each, at the place that wrote the address), and the log's counts."""

    remaining: list[ExternalLoad]
    failed: list[str] = field(default_factory=list)  # `docs/x.md:3: URL: why`, one per place
    fetched: int = 0
    reused: int = 0

    def failures(self) -> str:
        """The report of the images not fetched, each where a page wrote it; "" when none."""
        if not self.failed:
            return ""
        listing = "\n".join(f"  {line}" for line in self.failed)
        return (
            f"The pages show {len(self.failed)} image(s) by URL that could not be fetched into "
            f"the site:\n{listing}\n{FETCH_FIX}"
        )

    def summary(self) -> str:
        """The build log's line ("" where the site shows no remote image)."""
        if not self.fetched + self.reused:
            return ""
        return (
            f"remote images: {self.fetched} fetched, {self.reused} from the cache, "
            f"shipped under site/{FOLDER}/"
        )


def ship_and_check(
    site_dir: str | Path,
    *,
    keep: bool,
    check: bool,
    store: Store,
    sources: Mapping[str, tuple[str, Path]],
    edition: str = "",
    elsewhere: Collection[str] = (),
) -> str:
    """The remote images shipped (or kept: `keep`), then the offline check (`check`): one
    LLMBookError for every image not fetched, everything else loaded from outside and every
    relative URL into the site (but into a folder of `elsewhere`) that reaches no file. Returns
    the log's line ("" where there is nothing to say)."""
    if keep and not check:
        return ""
    urls = site_urls(site_dir, store, edition)
    loads = [url for url in urls if is_external(url)]
    shipped = ship_remote_images(site_dir, loads, keep=keep, store=store, sources=sources)
    report = site_report(site_dir, urls, shipped.remaining, sources, elsewhere) if check else ""
    problems = [text for text in (shipped.failures(), report) if text]
    if problems:
        raise LLMBookError("\n".join(problems))
    return shipped.summary()


def is_remote_image(load: ExternalLoad) -> bool:
    """An `<img>` whose address is http(s) (or protocol-relative): what `remote_images` governs."""
    return load.how in _IMAGE_LOADS and bool(_REMOTE.match(load.url))


def ship_remote_images(
    site_dir: str | Path,
    loads: list[ExternalLoad],
    *,
    keep: bool,
    store: Store,
    sources: Mapping[str, tuple[str, Path]],
) -> Shipped:
    """Fetch (or take from `store`) each remote image of `loads`, write it into `site_dir` and
    point the pages at it; with `keep`, nothing is fetched and they are left to the pages."""
    images = [load for load in loads if is_remote_image(load)]
    others = [load for load in loads if not is_remote_image(load)]
    if keep or not images:
        return Shipped(others)
    site = Path(site_dir)
    urls = sorted({_absolute(load.url) for load in images})
    got, shipped = _fetch_all(urls, store)
    paths: dict[str, str] = {}
    for url, image in got.items():
        if not isinstance(image, FetchFailed):
            paths[url] = _write_image(site, url, *image)
    failed = [
        _failure(load, got[_absolute(load.url)], sources)
        for load in images
        if _absolute(load.url) not in paths
    ]
    for page in dict.fromkeys(load.file for load in images):  # each page once, in order
        _point_at_copies(site / page, page, paths)
    return Shipped(others, list(dict.fromkeys(failed)), fetched=shipped[0], reused=shipped[1])


def _absolute(url: str) -> str:
    """The address fetched: a protocol-relative `//host/x.png` as https."""
    url = url.strip()
    return "https:" + url if url.startswith("//") else url


def _fetch_all(
    urls: list[str], store: Store
) -> tuple[dict[str, tuple[str, bytes] | FetchFailed], tuple[int, int]]:
    """{url: (content type, bytes) or why not}, and (fetched, from the store). The store is read
    and written here, in one thread; only the downloads run in parallel."""
    memos = {url: store.memo(NAMESPACE, key("remote image", url), codec="pickle") for url in urls}
    got: dict[str, tuple[str, bytes] | FetchFailed] = {}
    for url, memo in memos.items():
        kept = memo.get()
        if isinstance(kept, tuple) and len(kept) == 2:
            got[url] = kept
    missing = [url for url in urls if url not in got]
    with ThreadPoolExecutor(max_workers=min(8, len(missing) or 1)) as pool:
        for url, image in zip(missing, pool.map(_fetched_or_why, missing), strict=True):
            got[url] = image
            if not isinstance(image, FetchFailed):
                memos[url].put(image)
    fetched = sum(1 for url in missing if not isinstance(got[url], FetchFailed))
    return got, (fetched, len(urls) - len(missing))


def _fetched_or_why(url: str) -> tuple[str, bytes] | FetchFailed:
    try:
        return fetch_image(url)
    except FetchFailed as why:
        return why


def fetch_image(url: str, *, limit_mb: float = LIMIT_MB) -> tuple[str, bytes]:
    """(content type, bytes) of the image at `url`; FetchFailed saying why not."""
    request = urllib.request.Request(url, headers={"User-Agent": "llmbook (static site build)"})
    limit = int(limit_mb * 1024 * 1024)
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_S) as response:
            kind = response.headers.get_content_type()
            if not kind.startswith("image/"):
                raise FetchFailed(f"the server sent {kind}, not an image")
            data = response.read(limit + 1)
    except urllib.error.HTTPError as error:
        raise FetchFailed(f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            raise FetchFailed(f"no answer within {TIMEOUT_S} s") from None
        raise FetchFailed(f"no connection: {error.reason}") from None
    except TimeoutError:
        raise FetchFailed(f"no answer within {TIMEOUT_S} s") from None
    except (OSError, ValueError, HTTPException) as error:
        raise FetchFailed(f"{type(error).__name__}: {error}") from None
    if len(data) > limit:
        raise FetchFailed(f"it is larger than {limit_mb:g} MB")
    return kind, data


def _write_image(site: Path, url: str, kind: str, data: bytes) -> str:
    """The image written under `site/assets/external/<host>/`, named by its content: its path."""
    host = re.sub(r"[^a-z0-9.-]", "_", (urlsplit(url).hostname or "host").lower())
    subtype = kind.split("/", 1)[1]
    suffix = _SUFFIXES.get(kind) or re.sub(r"[^a-z0-9]", "", subtype)[:8] or "img"
    path = f"{FOLDER}/{host}/{bytes_digest(data)[:24]}.{suffix}"
    target = site / path
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return path


def _point_at_copies(file: Path, rel: str, paths: Mapping[str, str]) -> None:
    """Each `<img src>` and `srcset` of `file` whose address was shipped made relative to it."""
    folder = posixpath.dirname(rel)

    def local(url: str) -> str:
        path = paths.get(_absolute(html.unescape(url)))
        return html.escape(posixpath.relpath(path, folder or ".")) if path else url

    def attribute(match: re.Match[str]) -> str:
        name, written = match.groups()
        quote = written[0] if written[0] in "\"'" else ""
        value = written[1:-1] if quote else written
        if name.strip().lower().startswith("srcset"):
            parts = [part.strip().split(None, 1) for part in value.split(",") if part.strip()]
            if not any(paths.get(_absolute(html.unescape(part[0]))) for part in parts):
                return match.group(0)  # left as written
            value = ", ".join(" ".join([local(part[0]), *part[1:]]) for part in parts)
        else:
            value = local(value)
        return f"{name}{quote}{value}{quote}"

    text = file.read_text(encoding="utf-8")
    changed = _IMG_TAG.sub(lambda tag: _IMG_URL_ATTR.sub(attribute, tag.group(0)), text)
    if changed != text:
        file.write_text(changed, encoding="utf-8")


def _failure(
    load: ExternalLoad,
    why: tuple[str, bytes] | FetchFailed,
    sources: Mapping[str, tuple[str, Path]],
) -> str:
    """`docs/x.md:3: URL: why`, at the line (or cell) that wrote the address."""
    src, path = sources.get(load.file, ("", None))
    line = source_line(path, load.url) if path is not None and path.is_file() else None
    where = f"{src}:{line}" if line else f"{load.file} (in site/)"
    return f"{where}: {_absolute(load.url)}: {why}"

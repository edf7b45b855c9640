"""Remote images are fetched at build time and shipped inside site/ (remote_images.py): kept in
the store, linked by a relative path, named at their line or cell when they cannot be fetched;
`remote_images: keep` leaves them remote. A local HTTP server stands in for the internet."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from llmbook.adapters.mkdocs.remote_images import FetchFailed, fetch_image

PNG = b"\x89PNG\r\n\x1a\n" + bytes(2000)  # the server does not care that it draws nothing
SHIPPED = f"assets/external/127.0.0.1/{hashlib.sha256(PNG).hexdigest()[:24]}.png"
FIX = (
    "Fix: download each image into docs/ and link it by a relative path, or set the llmbook "
    "option `remote_images: keep` to leave remote images as they are (the offline check then "
    "allows them)."
)
CONFIG = {
    "site_name": "t",
    "use_directory_urls": False,
    "theme": {"name": "mkdocs", "highlightjs": False},  # its default loads highlight.js by URL
    "plugins": ["llmbook"],
    "markdown_extensions": ["llmbook.extension", "pymdownx.superfences"],
}
KEEP = {**CONFIG, "plugins": [{"llmbook": {"remote_images": "keep"}}]}


@dataclass
class Server:
    port: int
    hits: Counter = field(default_factory=Counter)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}/{path}"


@pytest.fixture
def server() -> Iterator[Server]:
    """`/logo.png` an image, `/page.html` a web page, anything else a 404; every request counted."""
    answers = {"/logo.png": ("image/png", PNG), "/page.html": ("text/html", b"<p>hi</p>")}

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            path = self.path.split("?")[0]
            served.hits[path] += 1
            if path not in answers:
                self.send_error(404, "Not Found")
                return
            kind, body = answers[path]
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:  # quiet
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    served = Server(http.server_address[1])
    thread = threading.Thread(target=http.serve_forever, daemon=True)
    thread.start()
    yield served
    http.shutdown()
    http.server_close()


def notebook(*cells: list[str]) -> str:
    return json.dumps(
        {
            "cells": [{"cell_type": "markdown", "metadata": {}, "source": c} for c in cells],
            "metadata": {"kernelspec": {"name": "python3", "language": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_remote_image_is_shipped_in_the_site_and_fetched_once(make_site, server) -> None:
    logo = server.url("logo.png")
    pages = {
        "index.md": "# Home\n",
        "sub/page.md": f"# Page\n\n![logo]({logo})\n\n<img srcset='{logo} 2x, ../x.png 1x'>\n",
        "sub/nb.ipynb": notebook(["# Notebook\n"], [f'<img src="{server.url("logo.png?v=2")}">']),
        "x.png": PNG,  # the srcset's local image: it must reach a file too
    }
    first = make_site(pages, CONFIG, cache=True)
    assert first.returncode == 0, first.stderr[-3000:]  # the offline check passes
    assert (first.site / SHIPPED).read_bytes() == PNG  # two addresses, one content: one file
    assert f'<img alt="logo" src="../{SHIPPED}" />' in first.page("sub/page.html")
    assert f"<img srcset='../{SHIPPED} 2x, ../x.png 1x'>" in first.page("sub/page.html")
    assert f'<img src="../{SHIPPED}">' in first.page("sub/nb.html")
    assert "remote images: 2 fetched, 0 from the cache, shipped under site/assets/external/" in (
        first.stderr
    )
    assert server.hits == {"/logo.png": 2}
    again = make_site(pages, CONFIG, cache=True)  # MkDocs empties site/: shipped from the store
    assert again.returncode == 0, again.stderr[-3000:]
    assert (again.site / SHIPPED).read_bytes() == PNG
    assert "remote images: 0 fetched, 2 from the cache" in again.stderr
    assert server.hits == {"/logo.png": 2}


def test_an_image_that_cannot_be_fetched_fails_at_its_line_and_cell(make_site, server) -> None:
    missing, html = server.url("missing.png"), server.url("page.html")
    pages = {
        "index.md": f"# Home\n\n![gone]({missing})\n\n<img src='{html}'>\n",
        "nb.ipynb": notebook(["# Notebook\n"], ["Text.\n", "\n", f"![gone]({missing})\n"]),
    }
    built = make_site(pages, CONFIG)
    assert built.returncode == 1
    report = [
        "The pages show 3 image(s) by URL that could not be fetched into the site:",
        f"  docs/index.md:3: {missing}: HTTP 404 Not Found",
        f"  docs/index.md:5: {html}: the server sent text/html, not an image",
        f"  docs/nb.ipynb:cell 2, line 3: {missing}: HTTP 404 Not Found",
        FIX,
    ]
    assert "\n".join(report) + "\n" in built.stderr
    assert "from outside site/" not in built.stderr  # each image reported once, as not fetched
    assert "Traceback" not in built.stderr


def test_keep_leaves_remote_images_as_written_and_fetches_nothing(make_site, server) -> None:
    logo = server.url("logo.png")
    built = make_site({"index.md": f"# Home\n\n![logo]({logo})\n"}, KEEP)
    assert built.returncode == 0, built.stderr[-3000:]
    assert f'<img alt="logo" src="{logo}" />' in built.page()
    assert not (built.site / "assets/external").exists()
    assert server.hits == {}


def test_keep_still_reports_a_remote_script(make_site, server) -> None:
    script = server.url("chart.js")
    page = f'# Home\n\n![logo]({server.url("logo.png")})\n\n<script src="{script}"></script>\n'
    built = make_site({"index.md": page}, KEEP)
    assert built.returncode == 1
    assert "The site loads 1 resource(s) from outside site/" in built.stderr
    assert f"  docs/index.md:5: <script src> {script} (index.html)\n" in built.stderr
    assert server.hits == {}


def test_fetch_says_why_an_address_gives_no_image(server) -> None:
    assert fetch_image(server.url("logo.png")) == ("image/png", PNG)
    with pytest.raises(FetchFailed, match="^HTTP 404 Not Found$"):
        fetch_image(server.url("missing.png"))
    with pytest.raises(FetchFailed, match="^the server sent text/html, not an image$"):
        fetch_image(server.url("page.html"))
    with pytest.raises(FetchFailed, match=r"^it is larger than 0\.001 MB$"):
        fetch_image(server.url("logo.png"), limit_mb=0.001)


def test_fetch_names_a_refused_connection() -> None:
    import socket

    with socket.socket() as closed:  # a port that was free a moment ago: nothing listens
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    with pytest.raises(FetchFailed, match=r"^no connection: .*Connection refused"):
        fetch_image(f"http://127.0.0.1:{port}/logo.png")

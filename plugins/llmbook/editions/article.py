"""A built page's article, with its ids and links made the book's own.

In one book all pages share one namespace of anchors: every id becomes `<page key>--<id>` and
every link to a page of the book becomes a link to such an anchor (a link to a whole page lands on
its first heading). Links out of the book (http) stay; links to the site's files that the
book does not hold (a notebook download) keep their text only.
"""

from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote, urlsplit

from bs4 import BeautifulSoup, Tag

from llmbook.editions.model import BookPage

__all__ = ["book_articles", "page_key"]


_UNLABELLED = ("dt", "dd", "td", "th", "tr", "summary", "code")


def page_key(url: str) -> str:
    """`chapters/ch10-modern-llm.html` → `chapters-ch10-modern-llm` (an anchor-safe name)."""
    stem = url.removesuffix(".html").removesuffix("/index").strip("/") or "index"
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", stem)


def _target(href: str, page: BookPage, keys: dict[str, str]) -> str | None:
    """The book anchor `href` names (`key--id`, or `key` for a page); None: not the book's."""
    parts = urlsplit(href)
    if parts.scheme or parts.netloc:
        return href
    path = unquote(parts.path)
    url = (
        posixpath.normpath(posixpath.join(posixpath.dirname(page.url), path)) if path else page.url
    )
    key = keys.get(url) or keys.get(posixpath.join(url, "index.html"))
    if key is None:
        return None
    return f"{key}--{unquote(parts.fragment)}" if parts.fragment else key


def _article(html: str) -> tuple[BeautifulSoup, Tag]:
    """(the page, its article): lxml parses a whole page several times faster than html.parser."""
    soup = BeautifulSoup(html, "lxml")
    found = soup.select_one("article.md-content__inner") or soup.select_one("article")
    found = found or soup.select_one("[role=main]") or soup.select_one("main")  # other themes
    return soup, found or soup.body or soup


def book_articles(built: list[tuple[BookPage, str]]) -> list[str]:
    """The articles of the built pages (Material's `article`), their anchors and links the
    book's: ids prefixed with their page's key, a page's key standing for its first heading."""
    keys = {page.url: page_key(page.url) for page, _ in built}
    articles, anchors, firsts = [], set(), {}
    for page, html in built:
        (soup, article), key = _article(html), keys[page.url]
        for tag in article.select("[id]"):
            tag["id"] = f"{key}--{tag['id']}"
            anchors.add(tag["id"])
            if tag.name in _UNLABELLED:  # pandoc drops their ids: a span around the text keeps it
                span = soup.new_tag("span", attrs={"id": tag.attrs.pop("id")})
                span.extend(list(tag.contents))
                tag.append(span)
        first = article.find(["h1", "h2"], id=True)
        if first is not None:
            firsts[key] = first["id"]
        articles.append(article)
    for (page, _), article in zip(built, articles, strict=True):
        for link in article.select("a[href]"):
            target = _target(link["href"], page, keys)
            target = firsts.get(target, target) if target else None
            if target is None or ("://" not in target and target not in anchors):
                link.unwrap()  # a file the book does not hold, or an anchor only the site has
            elif "://" in target:
                link["href"] = target
            else:
                link["href"] = "#" + target
    return [article.decode_contents() for article in articles]

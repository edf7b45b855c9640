"""llmbook added to a site that does not use it (`execute_pages: []`) leaves every page's article
as the plain build renders it: python fences stay highlighted code (their code is not run: it
could not be), `::: package.Name` lines are left for mkdocstrings, numbers are not policed."""

from __future__ import annotations

from pathlib import Path

from .transparency import articles, compare

SITE = Path(__file__).parent / "plain_site" / "mkdocs.yml"


def test_every_article_is_the_plain_builds(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("LLMBOOK_CACHE", "0")
    assert compare(SITE, tmp_path) == {}
    pages = articles(tmp_path / "llmbook")
    assert sorted(pages) == ["404.html", "guide/usage/index.html", "index.html"]
    assert "::: plain.client.Client" in pages["index.html"]
    assert "llmbook" not in pages["index.html"] + pages["guide/usage/index.html"]


HOOK = '''
"""Like mkdocstrings: keeps the site's extension list at on_config and renders `::: name` blocks
with a Markdown of its own made from that list, while the page renders."""
import re
import xml.etree.ElementTree as etree

import markdown
from markdown.blockprocessors import BlockProcessor
from markdown.extensions import Extension

KEPT = []


class Reference(BlockProcessor):
    def test(self, parent, block):
        return re.match(r"^::: [\\w.]+$", block.split("\\n")[0]) is not None

    def run(self, parent, blocks):
        name = blocks.pop(0).split()[1]
        inner = markdown.Markdown(extensions=list(KEPT[0]))
        div = etree.SubElement(parent, "div", {"class": "doc"})
        div.text = self.parser.md.htmlStash.store(inner.convert(f"**{name}** has 3 methods."))


class References(Extension):
    def extendMarkdown(self, md):
        md.parser.blockprocessors.register(Reference(md.parser), "reference", 95)


def on_config(config):
    KEPT[:] = [config.markdown_extensions]
    config.markdown_extensions.append(References())
    return config
'''


def test_another_tools_markdown_inside_a_page_is_left_alone(tmp_path: Path, make_site) -> None:
    (tmp_path / "hook.py").write_text(HOOK, encoding="utf-8")
    make_site(
        {"index.md": "# API\n\n::: plain.Client\n\n有 [[2 + 1 = 3]] 个方法。\n"},
        "site_name: t\nuse_directory_urls: false\nhooks: [hook.py]\n"
        "plugins: [{llmbook: {offline_check: false}}]\n"
        "markdown_extensions: [llmbook.extension]\n",
        in_process=True,
        cache=False,
    )
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<div class="doc"><p><strong>plain.Client</strong> has 3 methods.</p></div>' in html
    assert '<span class="llmbook-num" title="2 + 1 = 3' in html  # the page itself ran and checked

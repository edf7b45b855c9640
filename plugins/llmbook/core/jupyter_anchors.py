"""A notebook page's headings answer to the anchors Jupyter gives them, too.

Jupyter names a heading by its text with each space made a hyphen, every other character and its
case kept: `## Big O Notation` is `#Big-O-Notation` (JupyterLab's renderer; nbconvert's HTML does
the same, then percent-encodes what a URL fragment may not hold: `#%C3%9Cber-uns`). Notebooks link
to their own headings and each other's that way, where MkDocs' toc makes `big-o-notation`. So each
heading of a notebook page gets an empty `<span>` first in it for each of the two ids the page
does not already hold: the links resolve in a browser and in MkDocs' anchor validation (which
compares fragments as written), and a fragment that is no id of the page still fails there.

A heading's text is what Jupyter's is: the rendered text, code spans without backticks, the toc's
permalink left out. Left out: a formula in a heading (Jupyter keeps its `$…$`, the page holds its
MathML) and runs of spaces (one space, as in the toc's names).
"""

from __future__ import annotations

import copy
import html
import re
import xml.etree.ElementTree as etree
from urllib.parse import quote

from markdown import Markdown
from markdown.extensions.toc import render_inner_html, strip_tags
from markdown.treeprocessors import Treeprocessor

__all__ = ["JupyterAnchors", "jupyter_id", "nbconvert_id"]

_HEADING = re.compile(r"h[1-6]")
_FRAGMENT_SAFE = "?/:@!$&'()*+,;="  # what nbconvert leaves unencoded besides letters and digits


def jupyter_id(text: str) -> str:
    """The id JupyterLab gives a heading of this text."""
    return text.strip().replace(" ", "-")


def nbconvert_id(text: str) -> str:
    """The id nbconvert's HTML gives it: JupyterLab's, percent-encoded where a URL fragment needs."""
    return quote(jupyter_id(text), safe=_FRAGMENT_SAFE)


class JupyterAnchors(Treeprocessor):
    """Adds the Jupyter ids on a page the page preprocessor marked as a notebook's. Runs after
    the toc (same priority, registered after it, as MkDocs' anchor collection that must see the
    ids), so the ids the toc gave are known and never taken twice."""

    def __init__(self, md: Markdown) -> None:
        super().__init__(md)
        self.notebook = False

    def run(self, root: etree.Element) -> None:
        if not self.notebook:
            return
        taken = {element.get("id") for element in root.iter() if element.get("id")}
        # Just before the heading, not inside it: a heading's content is also a PDF bookmark's
        # and an EPUB contents entry's text, which an empty element there breaks.
        parents = [(p, e) for p in root.iter() for e in p if _is_heading(e)]
        for parent, heading in parents:
            text = _heading_text(heading, self.md)
            for anchor in dict.fromkeys((nbconvert_id(text), jupyter_id(text))):
                if anchor and anchor not in taken:  # a repeated heading: Jupyter finds the first
                    taken.add(anchor)
                    parent.insert(
                        list(parent).index(heading), etree.Element("span", {"id": anchor})
                    )


def _is_heading(element: etree.Element) -> bool:
    return isinstance(element.tag, str) and bool(_HEADING.fullmatch(element.tag))


def _heading_text(heading: etree.Element, md: Markdown) -> str:
    """The heading's text as a reader sees it, without the toc's permalink."""
    shown = copy.deepcopy(heading)
    for child in list(shown):
        if "headerlink" in (child.get("class") or "").split():
            shown.remove(child)
    return html.unescape(strip_tags(render_inner_html(shown, md)))

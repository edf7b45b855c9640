"""What the search index reads of a page: its text, without what only a browser draws.

Material's search plugin parses every tag of a page; MathML (a tag per symbol), inline SVG drawings
and widgets' JSON data make up much of ours and add nothing to search. A formula becomes its text
(what a reader would search for: "K = [Kpast, Knew]" reads as it did), drawings and data go. Spans
go too, their text kept: the plugin keeps no span (its index holds their text only), and the
highlighted code and checked numbers of a chapter are thousands of them.
"""

from __future__ import annotations

import re

__all__ = ["search_view"]

_MATH = re.compile(r"<math\b.*?</math>", re.S)
_SVG = re.compile(r"<svg\b.*?</svg>", re.S)
_DATA = re.compile(r'<script type="application/json"[^>]*>.*?</script>', re.S)
_TAG = re.compile(r"<[^>]+>")
_SPAN = re.compile(r"</?span\b[^>]*>")
# The language switcher (translate/book.py): on every page, the same words
_SWITCHER = re.compile(r'<nav class="llmbook-languages".*?</nav>', re.S)
# The record of what computed the page (site/provenance.py): versions and times, not its text
_PROVENANCE = re.compile(r'<details class="[^"]*llmbook-provenance.*?</details>', re.S)


def search_view(html: str) -> str:
    html = _MATH.sub(lambda m: _TAG.sub("", m.group(0)), html)
    html = _PROVENANCE.sub("", _SWITCHER.sub("", _SVG.sub("", html)))
    return _SPAN.sub("", _DATA.sub("", html))

"""Display outputs (`display.py`) as the page's HTML, one mime type per output.

The richest type the page can show wins, in the order of nbconvert's HTML exporter (JavaScript
and widgets need a kernel or a script and are passed over; JSON is shown before plain text).
Images are inlined (SVG as markup, PNG and JPEG as `data:` URIs: no file to copy, fine offline).
"""

from __future__ import annotations

import json
import re
from html import escape

from llmbook.execute.display import Display

__all__ = ["ORDER", "display_html", "interleave", "text_html"]

ORDER = (
    "text/html",
    "text/markdown",
    "image/svg+xml",
    "text/latex",
    "image/png",
    "image/jpeg",
    "application/json",
    "text/plain",
)
_DEFAULT_REPR = re.compile(r"^<[\w.]+ object>$")


def interleave(output: str, displays: list[Display]) -> list[str | Display]:
    """The block's printed text cut where its displays came, in order (a text piece may be
    empty; the last piece is always text)."""
    pieces: list[str | Display] = []
    start = 0
    for shown in displays:
        at = max(start, min(shown.at, len(output)))
        pieces += [output[start:at], shown]
        start = at
    return [*pieces, output[start:]]


def text_html(text: str, note: str = "") -> str:
    """Printed text (or a plain-text display) in the output box."""
    return (
        '<div class="llmbook-output"><span class="llmbook-output-label">输出</span>'
        f"<pre><code>{escape(text)}</code></pre>{note}</div>"
    )


def display_html(shown: Display) -> str:
    """The display's richest mime type as HTML ("" when it has none the page can show)."""
    data = shown.data
    mime = next((m for m in ORDER if m in data), None)
    if mime is None:
        return ""
    value = data[mime]
    if mime == "text/plain":
        return text_html(_text(value).rstrip())
    if mime == "text/html":
        body = _text(value)
    elif mime == "text/markdown":
        body = _markdown(_text(value))
    elif mime == "image/svg+xml":
        svg = _text(value)
        body = svg[svg.find("<svg") :] if "<svg" in svg else svg
    elif mime in ("image/png", "image/jpeg"):
        alt = escape(_alt(data), quote=True)
        body = f'<img src="data:{mime};base64,{_text(value).strip()}" alt="{alt}">'
    elif mime == "text/latex":
        body = f'<pre><code class="language-latex">{escape(_text(value))}</code></pre>'
    else:
        body = _json(value)
    kind = mime.split("/")[1].split("+")[0]
    return f'<div class="llmbook-display llmbook-display--{kind}">{body}</div>'


def _text(value: object) -> str:
    """A bundle's text, which a notebook may keep as a list of lines."""
    return "".join(value) if isinstance(value, list) else str(value)


def _alt(data: dict) -> str:
    plain = _text(data.get("text/plain", "")).strip()
    return plain if plain and not _DEFAULT_REPR.match(plain) else "代码输出的图像"


def _markdown(text: str) -> str:
    import markdown

    return markdown.markdown(text, extensions=["tables", "fenced_code"])


def _json(value: object) -> str:
    """Pretty JSON, highlighted by Pygments as the page's code blocks are."""
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False)
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import JsonLexer
    except ImportError:
        return f'<pre><code class="language-json">{escape(text)}</code></pre>'
    code = highlight(text, JsonLexer(), HtmlFormatter(nowrap=True))
    return f'<div class="highlight"><pre><code class="language-json">{code}</code></pre></div>'

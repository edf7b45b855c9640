"""Display outputs (`display.py`) as the page's HTML, one mime type per output.

The richest type the page can show wins, in the order of nbconvert's HTML exporter (JavaScript
and widgets need a kernel or a script and are passed over, a widget with a note; JSON is shown
before plain text). SVG is inlined; PNG and JPEG become files of the site (`file_url`), or
`data:` URIs where there is no site. LaTeX goes through the book's own math step (MathML).
stderr's text is an output box of its own, as Jupyter shows it apart from stdout.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable
from html import escape

from llmbook.core.i18n import Locale
from llmbook.core.latex import FormulaError, latex_to_mathml
from llmbook.execute.shell.display import Display

__all__ = ["ORDER", "FileUrl", "display_html", "display_image", "interleave", "text_html"]

# How a page links a file the build writes into the site: (content, suffix) → its URL.
FileUrl = Callable[[bytes, str], str]

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
_WIDGET = "application/vnd.jupyter.widget-view+json"
_GROUPS = ("d1", "d2", "d3", "i1", "i2")
_SUFFIX = {"image/png": "png", "image/jpeg": "jpg"}
# Terminal colours (a traceback, a progress bar): Jupyter turns them into colours, a book into text.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
# Formulas in a LaTeX output: `$$…$$`, `\[…\]`, an equation environment (display), `$…$`, `\(…\)`.
_FORMULA = re.compile(
    r"\$\$(?P<d1>.+?)\$\$|\\\[(?P<d2>.+?)\\\]"
    r"|(?P<d3>\\begin\{(?P<env>equation\*?|align\*?|gather\*?)\}.+?\\end\{(?P=env)\})"
    r"|(?<!\\)\$(?P<i1>.+?)(?<!\\)\$|\\\((?P<i2>.+?)\\\)",
    re.DOTALL,
)


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


def text_html(text: str, note: str = "", *, stderr: bool = False, locale: Locale) -> str:
    """Printed text (or a plain-text display) in the output box; stderr's in a box of its own."""
    label = locale.ui("stderr" if stderr else "output")
    extra = " llmbook-output--stderr" if stderr else ""
    return (
        f'<div class="llmbook-output{extra}"><span class="llmbook-output-label">{label}</span>'
        f"<pre><code>{escape(_ANSI.sub('', text))}</code></pre>{note}</div>"
    )


def display_image(shown: Display) -> tuple[bytes, str] | None:
    """The PNG or JPEG the display shows (its bytes, a file suffix), if that is what it shows."""
    mime = next((m for m in ORDER if m in shown.data), None)
    if shown.kind == "stream" or mime not in _SUFFIX:
        return None
    return base64.b64decode(_text(shown.data[mime])), _SUFFIX[mime]


def display_html(shown: Display, file_url: FileUrl | None, locale: Locale) -> str:
    """The display's richest mime type as HTML ("" when it has none the page can show)."""
    data = shown.data
    if shown.kind == "stream":
        text = _text(data.get("text/plain", "")).rstrip()
        return text_html(text, stderr=True, locale=locale)
    mime = next((m for m in ORDER if m in data), None)
    if mime is None:
        return ""
    value = data[mime]
    if mime == "text/plain":
        return text_html(_text(value).rstrip(), _widget_note(data, locale), locale=locale)
    if mime == "text/html":
        body = _text(value)
    elif mime == "text/markdown":
        body = _markdown(_text(value))
    elif mime == "image/svg+xml":
        svg = _text(value)
        body = svg[svg.find("<svg") :] if "<svg" in svg else svg
    elif mime in _SUFFIX:
        alt = escape(_alt(data, locale), quote=True)
        image = display_image(shown)
        src = f"data:{mime};base64,{_text(value).strip()}"
        if file_url is not None and image is not None:
            src = escape(file_url(*image), quote=True)
        body = f'<img src="{src}" alt="{alt}" loading="lazy">'
    elif mime == "text/latex":
        body = latex_html(_text(value))
    else:
        body = _json(value)
    kind = mime.split("/")[1].split("+")[0]
    return f'<div class="llmbook-display llmbook-display--{kind}">{body}{_widget_note(data, locale)}</div>'


def latex_html(text: str) -> str:
    """A LaTeX output as Jupyter's MathJax shows it: text, with its formulas as MathML (a
    formula our math step cannot convert is shown as its LaTeX source)."""
    parts, start = [], 0
    for match in _FORMULA.finditer(text):
        parts.append(escape(text[start : match.start()]))
        start = match.end()
        display = match.lastgroup in ("d1", "d2", "d3", "env")
        tex = match.group(next(g for g in _GROUPS if match.group(g) is not None))
        if (match.group("env") or "").startswith("equation"):  # one formula: its body
            tex = tex[tex.index("}") + 1 : tex.rindex("\\end")]
        try:
            mathml = latex_to_mathml(tex.strip(), display=display)
        except FormulaError:
            parts.append(f'<code class="language-latex">{escape(match.group(0))}</code>')
            continue
        shown = '<div class="llmbook-math llmbook-math--display">{}</div>' if display else None
        parts.append((shown or '<span class="llmbook-math">{}</span>').format(mathml))
    parts.append(escape(text[start:]))
    return "".join(parts).strip()


def _widget_note(data: dict, locale: Locale) -> str:
    """A Jupyter widget needs its kernel: the page shows the text it falls back to, and says so."""
    if _WIDGET not in data:
        return ""
    return f'<p class="llmbook-widget-note">{locale.ui("widget_note")}</p>'


def _text(value: object) -> str:
    """A bundle's text, which a notebook may keep as a list of lines."""
    return "".join(value) if isinstance(value, list) else str(value)


def _alt(data: dict, locale: Locale) -> str:
    plain = _text(data.get("text/plain", "")).strip()
    return plain if plain and not _DEFAULT_REPR.match(plain) else locale.ui("image_alt")


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

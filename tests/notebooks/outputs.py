"""A notebook's outputs as plain data, compared mime type by mime type with another run's.

    reference = outputs(json.loads(stored_notebook))   # what Jupyter's reference run stored
    ours = outputs(json.loads(downloaded_notebook))   # what the build ran and kept
    assert differences(reference, ours) == []
    assert page_misses(page_html, reference) == []
    shown = cells_shown(page_html, reference)   # any tool's page: the cells it shows whole

`differences` compares the two runs cell by cell (stream text, error name and value, each mime
type's value); `page_misses` says which of the reference outputs the built page does not show
(the richest mime type a page can show, in the order of nbconvert's HTML exporter);
`cells_shown` counts by the same reading, cell by cell, on the page of any tool (a figure is a
picture in whatever format the tool drew it).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from xml.etree import ElementTree

import markdown
from bs4 import BeautifulSoup

__all__ = [
    "PRIORITY",
    "Output",
    "cells_shown",
    "differences",
    "outputs",
    "page_misses",
    "shown_mime",
]

# nbconvert's HTMLExporter.display_data_priority: the first type a bundle has is the one shown.
PRIORITY = (
    "application/vnd.jupyter.widget-view+json",
    "application/javascript",
    "text/html",
    "text/markdown",
    "image/svg+xml",
    "text/latex",
    "image/png",
    "image/jpeg",
    "text/plain",
)
# Types a static page cannot show (they need a kernel or a script): the next one is shown.
_NOT_STATIC = {"application/vnd.jupyter.widget-view+json", "application/javascript"}
# Drawn by a library whose version decides every byte: compared by presence.
_BINARY = {"image/png", "image/jpeg", "application/pdf"}
# The attribute nbconvert's HTML marks an output's mime type with.
_MIME_ATTRIBUTE = "data-mime-type"
# A terminal's colours (a traceback's), and any run of spaces.
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_SPACE = re.compile(r"\s+")
# A default repr's address differs in every process.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Output:
    cell: int  # counted from 1 over all cells, as the build's messages count them
    kind: str  # "stdout", "stderr", "error", "display_data" or "execute_result"
    data: dict[str, str]  # a stream's {"text"}, an error's {"ename", "evalue"}, else the bundle


def _text(value: object) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def outputs(notebook: dict) -> list[Output]:
    """Every code cell's outputs in order; a cell's consecutive writes to one stream are one
    output (Jupyter's front ends join them too)."""
    found: list[Output] = []
    for number, cell in enumerate(notebook["cells"], start=1):
        for raw in cell.get("outputs", []):
            kind = raw["output_type"]
            if kind == "stream":
                text = _text(raw["text"])
                last = found[-1] if found else None
                if last and last.cell == number and last.kind == raw["name"]:
                    found[-1] = Output(number, last.kind, {"text": last.data["text"] + text})
                else:
                    found.append(Output(number, raw["name"], {"text": text}))
            elif kind == "error":
                found.append(Output(number, kind, {"ename": raw["ename"], "evalue": raw["evalue"]}))
            else:
                bundle = {mime: _text(value) for mime, value in raw["data"].items()}
                if "text/plain" in bundle:
                    bundle["text/plain"] = _ADDRESS.sub("", bundle["text/plain"])
                found.append(Output(number, kind, bundle))
    return found


def differences(
    reference: list[Output],
    ours: list[Output],
    *,
    varies: Collection[tuple[int, str]] = (),
    optional: Collection[str] = (),
) -> list[str]:
    """What our run shows differently, one line per difference. `varies`: (cell, mime) pairs
    whose value differs between any two runs (compared by presence); `optional`: mime types
    either side may lack (one that needs a tool the reference machine had: LaTeX for PNG)."""
    lines: list[str] = []
    cells = sorted({o.cell for o in reference} | {o.cell for o in ours})
    for cell in cells:
        theirs = [o for o in reference if o.cell == cell]
        mine = [o for o in ours if o.cell == cell]
        if [o.kind for o in theirs] != [o.kind for o in mine]:
            lines.append(f"cell {cell}: outputs {_kinds(theirs)}, built {_kinds(mine)}")
            continue
        for place, (a, b) in enumerate(zip(theirs, mine, strict=True), start=1):
            where = f"cell {cell}, output {place} ({a.kind})"
            lines += _compare(where, a, b, {m for c, m in varies if c == cell}, set(optional))
    return lines


def _kinds(found: list[Output]) -> str:
    return "[" + ", ".join(o.kind for o in found) + "]"


def _compare(where: str, a: Output, b: Output, varies: set[str], optional: set[str]) -> list[str]:
    lines = []
    for key in sorted(set(a.data) | set(b.data)):
        if key not in b.data or key not in a.data:
            if key not in optional:
                side = "lacks" if key not in b.data else "has what the reference lacks:"
                lines.append(f"{where}: built {side} {key}")
        elif key not in varies and key not in _BINARY and not _same(key, a.data[key], b.data[key]):
            lines.append(f"{where}: {key} {a.data[key]!r} built as {b.data[key]!r}")
    return lines


def _same(mime: str, a: str, b: str) -> bool:
    """Equal values; SVG equal as XML (IPython's versions order its attributes differently)."""
    if mime == "image/svg+xml":
        return _canonical(a) == _canonical(b)
    return a == b


def _canonical(svg: str) -> str:
    try:
        return ElementTree.canonicalize(svg.strip(), strip_text=True)
    except ElementTree.ParseError:
        return svg


def shown_mime(bundle: Iterable[str]) -> str | None:
    """The mime type nbconvert's HTML shows, passing over those a static page cannot run."""
    return next((m for m in PRIORITY if m in bundle and m not in _NOT_STATIC), None)


def page_misses(page: str, reference: list[Output]) -> list[str]:
    """The reference outputs the page's article does not show: texts (streams, plain text,
    errors, HTML's and Markdown's words) in order, images and formulas by count."""
    soup = BeautifulSoup(page, "html.parser")
    article = soup.find("article") or soup
    text = _words(article.get_text(" "))
    misses: list[str] = []
    start = 0
    counts = {"svg": 0, "png": 0, "jpeg": 0, "math": 0}
    for output in reference:
        expected = _expected_text(output)
        if expected is None:
            counts[_picture(output)] += 1
            continue
        at = text.find(expected, start)
        if expected and at < 0:
            misses.append(f"cell {output.cell}: {output.kind} {expected[:80]!r} not on the page")
        start = at + len(expected) if at >= 0 else start
    shown = {
        "svg": len(article.find_all("svg")) + len(article.find_all("img", src=_ends(".svg"))),
        "png": len(article.find_all("img", src=re.compile(r"^data:image/png|\.png$"))),
        "jpeg": len(article.find_all("img", src=re.compile(r"^data:image/jpeg|\.jpe?g$"))),
        "math": len(article.find_all("math")),
    }
    misses += [
        f"{counts[kind]} {kind} outputs, the page shows {shown[kind]}"
        for kind in counts
        if shown[kind] < counts[kind]
    ]
    return misses


def cells_shown(page: str, reference: list[Output]) -> set[int]:
    """The cells whose every reference output the page's article shows: texts found in order,
    as page_misses finds them but blind to spaces and ANSI colours (a highlighter's or a
    traceback's elements split a line differently in each tool), and the k-th picture or
    formula shown when the article holds at least k (SVG, PNG and JPEG alike: tools draw a
    figure in different formats)."""
    soup = BeautifulSoup(page, "html.parser")
    article = soup.find("article") or soup
    text = _bare(article.get_text())
    # an icon is marked decorative (mkdocs-jupyter's copy button): no picture of an output
    pictures = len([e for e in article.find_all(["svg", "img"]) if e.get("aria-hidden") != "true"])
    # MathML (ours), or the LaTeX nbconvert leaves to MathJax in its text/latex output
    formulas = len(article.find_all("math")) + len(
        article.find_all(attrs={_MIME_ATTRIBUTE: "text/latex"})
    )
    seen = {"picture": 0, "math": 0}
    missed: set[int] = set()
    start = 0
    for output in reference:
        expected = _expected_text(output)
        if expected is None:
            kind = "math" if _picture(output) == "math" else "picture"
            seen[kind] += 1
            if seen[kind] > (formulas if kind == "math" else pictures):
                missed.add(output.cell)
            continue
        expected = _bare(expected)
        at = text.find(expected, start)
        if at < 0:
            missed.add(output.cell)
        else:
            start = at + len(expected)
    return {o.cell for o in reference} - missed


def _bare(text: str) -> str:
    return _SPACE.sub("", _ANSI.sub("", text))


def _ends(suffix: str) -> re.Pattern[str]:
    return re.compile(re.escape(suffix) + "$")


def _words(text: str) -> str:
    return " ".join(text.split())


def _expected_text(output: Output) -> str | None:
    """The words the page must show for a text-like output; None for a picture or formula."""
    if output.kind in ("stdout", "stderr"):
        return _words(output.data["text"])
    if output.kind == "error":
        return _words(f"{output.data['ename']}: {output.data['evalue']}")
    mime = shown_mime(output.data)
    if mime == "text/markdown":
        return _words(_html_text(markdown.markdown(output.data[mime], extensions=["tables"])))
    if mime == "text/html":
        return _words(_html_text(output.data[mime]))
    if mime in ("text/plain", None):
        return _words(output.data.get("text/plain", ""))
    return None


def _html_text(html: str) -> str:
    return BeautifulSoup(html, "html.parser").get_text(" ")


def _picture(output: Output) -> str:
    mime = shown_mime(output.data)
    return {"text/latex": "math", "image/svg+xml": "svg"}.get(mime, mime.split("/")[-1])

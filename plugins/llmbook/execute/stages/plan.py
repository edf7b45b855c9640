"""A page's plan, the check stage's output: its results, its checked numbers and their coverage,
and the edits the page gets once its code ran and its numbers were checked.

`put_numbers` turns the bindings of the prose into checked, cited or illustrative numbers;
`put_outputs` puts outputs and figures under their fences, removes or collapses the code and
outputs its tags ask (`remove-input`, `hide-output`, …), labels blocks that did not run, and notes
the page's count at its end. Both say what they change as
edits of the page's file lines (`edits.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from llmbook.core.bindings import RawBinding
from llmbook.core.edits import LineEdits
from llmbook.core.errors import AuthorError
from llmbook.core.i18n import Locale
from llmbook.core.stash import Stash
from llmbook.directives.nodes import Document
from llmbook.execute.numbers.coverage import Coverage
from llmbook.execute.numbers.precision import computed_text
from llmbook.execute.shell.display_html import (
    FileUrl,
    display_html,
    display_image,
    interleave,
    text_html,
)
from llmbook.execute.shell.figures import described
from llmbook.execute.stages.collect import CodeBlock, PageSource
from llmbook.execute.stages.run import RunResult
from llmbook.execute.stages.tags import TAGS

__all__ = ["CheckedNumber", "Plan", "shown_files"]


def shown_files(result: RunResult | None) -> list[tuple[bytes, str]]:
    """The files a page's outputs link when the site has them as files: (content, suffix) of each
    figure (SVG) and displayed image (PNG, JPEG)."""
    files: list[tuple[bytes, str]] = []
    for run in result.blocks.values() if result is not None else ():
        files += [(figure.svg.encode(), "svg") for figure in run.figures]
        files += [image for d in run.displays if (image := display_image(d)) is not None]
    return files


_PYTHON_LANGS = ("python", "py", "python3")

_NOT_RUN = {"norun": "not_run_norun", "skip": "not_run_skip"}  # keys of strings.py


@dataclass(frozen=True)
class CheckedNumber:
    binding: RawBinding
    value: object  # the computed value (plain numbers)
    mismatch: str | None  # the full `docs/x.md:LINE: written …` message, or None


@dataclass
class Plan:
    """What the check stage made of a page's source and results; `put_numbers` and `put_outputs`
    write it into the page's lines when it renders."""

    page: PageSource
    result: RunResult | None = None
    numbers: list[CheckedNumber] = field(default_factory=list)
    coverage: Coverage | None = None
    math: dict[int, list[tuple[int, int]]] = field(
        default_factory=dict
    )  # formula spans per file line
    unaccounted: list[AuthorError] = field(default_factory=list)  # on a strict page
    doc: Document | None = None  # the page's directive tree, as the check stage parsed it
    result_digest: str = ""  # the hash of `result` (cache.result_digest), set by the executor

    @property
    def text(self) -> str:
        """The page's Markdown (front matter removed), as the plan was made for it."""
        return self.page.text

    @property
    def mismatches(self) -> list[str]:
        return [n.mismatch for n in self.numbers if n.mismatch]

    @property
    def count(self) -> int:
        """How many numbers of this page the build checked."""
        return len(self.numbers)

    def put_numbers(
        self,
        edits: LineEdits,
        *,
        stash: Stash,
        math: dict[int, list[tuple[int, int]]],
        cited_source: Callable[[str], tuple[str, str] | None] | None = None,
        locale: Locale,
    ) -> None:
        """Each `[[…]]` of the prose becomes a checked or cited number, where the collect stage
        found it. Those inside math (`math`: spans per file line) stay: the math stage writes
        their written value into the formula. `cited_source` gives a cited number's source as
        (text, HTML) where the bibliography names it (else it shows as written)."""
        html: dict[tuple[int, int], str] = {}
        for number in self.numbers:
            html[(number.binding.line, number.binding.start)] = _number_html(number, locale)
        for b in self.page.bindings:
            if b.source is not None:
                shown = cited_source(b.source) if cited_source is not None else None
                html[(b.line, b.start)] = _cited_html(b, shown, locale)
            elif b.illustrative:
                html[(b.line, b.start)] = _illustrative_html(b, locale)
            elif self.result is None:  # the live preview of a page whose code failed
                html[(b.line, b.start)] = _unchecked_html(b, locale)
        for b in self.page.bindings:
            inside = any(a <= b.start < e for a, e in math.get(b.line, ()))
            if inside or (b.line, b.start) not in html:
                continue
            if edits.text(b.line)[b.start : b.end] != f"[[{b.body}]]":
                raise RuntimeError(f"{self.page.src}:{b.line}: the page changed after collect")
            edits.replace(b.line, b.start, b.end, stash.put(html[(b.line, b.start)]))

    def put_outputs(
        self,
        edits: LineEdits,
        *,
        stash: Stash,
        file_url: FileUrl | None = None,
        locale: Locale,
    ) -> None:
        """Outputs and figures after their fences, code and outputs removed or collapsed as their
        tags ask, blocks that did not run labelled, the page's count at its end. With `file_url`,
        figures (SVG) and displayed images (PNG, JPEG) are linked as files of the site (smaller
        pages, faster search indexing); without, they are inlined."""
        if (edits.lexed.lines, edits.lexed.first) != (self.page.lines, self.page.first):
            raise RuntimeError(f"{self.page.src}: the plan was made for another text")
        for pos, block in enumerate(self.page.blocks):
            self._block(pos, block, edits, stash, file_url, locale)
        note = self.footer(locale)
        if note:
            edits.tail = ["", stash.put(f'<p class="llmbook-numcount">{note}</p>')]

    def footer(self, locale: Locale) -> str:
        """The page's last line: where its numbers come from (empty when it states none)."""
        cov = self.coverage
        cited = cov.cited if cov else 0
        illustrative = cov.illustrative if cov else 0
        unaccounted = len(cov.unaccounted) if cov else 0
        if not (self.numbers or cited or illustrative):
            return ""
        parts = [locale.ui("footer_checked", count=self.count)]
        if cited:
            parts.append(locale.ui("footer_cited", count=cited))
        if illustrative:
            parts.append(locale.ui("footer_illustrative", count=illustrative))
        if unaccounted:
            parts.append(locale.ui("footer_unaccounted", count=unaccounted))
        return locale.ui("footer_join").join(parts) + locale.ui("footer_end")

    def _block(
        self,
        pos: int,
        block: CodeBlock,
        edits: LineEdits,
        stash: Stash,
        file_url: FileUrl | None,
        locale: Locale,
    ) -> None:
        shown = block.display
        if block.lang not in _PYTHON_LANGS or block.mode == "prose":
            return
        if shown.code == "remove":
            for line in range(block.line, block.end_line + 1):
                edits.replace_line(line, "")
        else:
            _plain_opening(block, edits)
            if shown.code == "hide":
                summary = locale.ui("show_cell" if shown.cell else "show_code")
                edits.before(block.line, stash.put(_details_open(summary)))
                if not shown.cell:
                    edits.after(block.end_line, stash.put("</details>"))
        parts = self._outputs(pos, block, file_url, locale)
        if block.mode in _NOT_RUN and shown.code != "remove":
            parts = [f'<p class="llmbook-norun">{locale.ui(_NOT_RUN[block.mode])}</p>']
        elif shown.output == "remove":
            parts = []
        elif shown.output == "hide" and not shown.cell and parts:
            parts = [_details_open(locale.ui("show_output")) + "".join(parts) + "</details>"]
        if shown.code == "hide" and shown.cell:
            parts.append("</details>")
        for html in parts:
            edits.after(block.end_line, stash.put(html))

    def _outputs(
        self, pos: int, block: CodeBlock, file_url: FileUrl | None, locale: Locale
    ) -> list[str]:
        """The block's output (with an expected exception's traceback) and figures, as HTML."""
        run = self.result.blocks.get(pos) if self.result and block.runs else None
        if run is None:
            return []
        parts = []
        pieces = interleave(run.output, run.displays)
        for piece in pieces[:-1]:  # printed text and displays, in the order the block made them
            if isinstance(piece, str) and piece.rstrip() and block.expects is None:
                parts.append(text_html(piece.rstrip(), locale=locale))
            elif not isinstance(piece, str):
                parts.append(display_html(piece, file_url, locale))
        text = pieces[-1].rstrip()
        if run.error is not None:
            text = "\n".join([*([text] if text else []), *run.error[2]])
        if text and block.expects is None:
            parts.append(text_html(text, _cut_note(run.cut, locale), locale=locale))
        for figure in run.figures:
            figure = described(figure, locale)
            shown = figure.svg
            if file_url is not None:
                alt = escape(figure.alt, quote=True)
                url = file_url(figure.svg.encode(), "svg")
                shown = f'<img src="{escape(url)}" alt="{alt}" loading="lazy">'
            parts.append(f'<figure class="llmbook-figure">{shown}</figure>')
        return parts


def _plain_opening(block: CodeBlock, edits: LineEdits) -> None:
    """The fence's opening line without its tags (the Markdown engine knows none of them)."""
    opening = edits.text(block.line)
    stripped = opening.lstrip()
    fence = stripped[: len(stripped) - len(stripped.lstrip(stripped[0]))]
    words = [w for w in block.info.split() if w not in TAGS]
    shown = opening[: len(opening) - len(stripped)] + fence + " ".join(words)
    if shown != opening:
        edits.replace_line(block.line, shown)


def _details_open(summary: str) -> str:
    """A collapsed Material details block (closed by a later `</details>`)."""
    return f'<details class="llmbook-hide"><summary>{summary}</summary>'


def _number_html(number: CheckedNumber, locale: Locale) -> str:
    b = number.binding
    if number.mismatch:
        title = locale.ui("drift_title", mismatch=number.mismatch)
        cls = "llmbook-num llmbook-num-drift"
    else:
        title = locale.ui("checked_title", expr=b.expr, value=computed_text(number.value))
        cls = "llmbook-num"
    return f'<span class="{cls}" title="{escape(title)}">{escape(b.written)}</span>'


def _unchecked_html(b: RawBinding, locale: Locale) -> str:
    title = locale.ui("unchecked_title", expr=b.expr)
    return (
        f'<span class="llmbook-num llmbook-num-unchecked" title="{escape(title)}">'
        f"{escape(b.written)}</span>"
    )


def _cited_html(b: RawBinding, shown: tuple[str, str] | None, locale: Locale) -> str:
    text, html = shown if shown is not None else (b.source or "", escape(b.source or ""))
    title = escape(locale.ui("cited_title", source=text))
    return (
        f'<span class="llmbook-num llmbook-cited" title="{title}">{escape(b.written)}</span>'
        f'<span class="llmbook-source">{locale.ui("cited_source", source=html)}</span>'
    )


def _cut_note(cut: int, locale: Locale) -> str:
    if not cut:
        return ""
    return f'<p class="llmbook-output-cut">{locale.ui("output_cut", count=f"{cut:,}")}</p>'


def _illustrative_html(b: RawBinding, locale: Locale) -> str:
    title = locale.ui("illustrative_title")
    return (
        f'<span class="llmbook-num llmbook-illustrative" title="{escape(title)}">'
        f'{escape(b.written)}</span><span class="llmbook-illustrative-label">'
        f"{locale.ui('illustrative')}</span>"
    )

"""Load stage: a page's file → its collected source and written numbers (a notebook laid out as
Markdown, its lines mapped back to its cells)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from llmbook.core.errors import AuthorError, quoted
from llmbook.core.lexer import Lexed, engine_text, lex
from llmbook.execute.numbers.precision import Written, parse_written
from llmbook.execute.stages.collect import PageSource, collect_page
from llmbook.execute.stages.front_matter import split_front_matter
from llmbook.execute.stages.notebook import Notebook, read_notebook
from llmbook.execute.stages.run import RunResult

__all__ = ["LoadedPage", "decode_page", "load_page"]


@dataclass
class LoadedPage:
    """A page read and collected; `result` once the cache or a worker gave it."""

    source: PageSource
    notebook: Notebook | None = None
    key: str | None = None  # the execution cache's key
    result: RunResult | None = None
    file_key: str = ""  # the stage cache's key of the file as loaded
    _written: list[Written] | None = field(default=None, repr=False)

    @property
    def written(self) -> list[Written]:
        """The written value of each bound number, parsed (`load_page` did it once, so a value
        that is not a number was an error there)."""
        if self._written is None:
            self._written = [_written(self.source, b) for b in self.source.bound]
        return self._written

    def __getstate__(self) -> dict[str, Any]:
        # Parsed values are slower to unpickle than to parse again, and only a plan needs them.
        return {**self.__dict__, "_written": None}


def decode_page(raw: bytes | str, src: str) -> str:
    """The page's text; AuthorError naming the byte and line where UTF-8 decoding failed."""
    if isinstance(raw, str):
        return raw
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise AuthorError(
            src,
            line,
            f"the file is not valid UTF-8: byte {error.start} (0x{raw[error.start]:02x}) "
            f"cannot be decoded ({error.reason})",
            "save the file as UTF-8",
        ) from None


def load_page(src: str, raw: bytes | str, *, execute: bool = True) -> LoadedPage:
    """Decode, split the front matter (or lay out the notebook), collect; read written numbers.
    `execute`: whether the page runs when its front matter does not say (`execute_pages`)."""
    text = decode_page(raw, src)
    notebook = None
    if src.endswith(".ipynb"):
        notebook = read_notebook(text, src=src)
        meta = notebook.data.get("metadata", {}).get("llmbook", {})
        lexed = lex(notebook.markdown, 1, tuple(notebook.cells))  # its errors name cells
        prose = notebook.prose_lines()
    else:
        meta, markdown, first = split_front_matter(text, src=src)
        lexed, prose = lex(engine_text(markdown), first), frozenset()
    try:
        return _loaded(lexed, notebook, src=src, meta=meta, execute=execute, prose=prose)
    except AuthorError as error:
        raise error.locate(src, lexed) from None


def _loaded(
    lexed: Lexed,
    notebook: Notebook | None,
    *,
    src: str,
    meta: dict[str, Any],
    execute: bool,
    prose: frozenset[int],
) -> LoadedPage:
    source = collect_page(lexed, src=src, meta=meta, execute=execute, prose=prose)
    if notebook is not None and notebook.language != "python" and source.execute and source.blocks:
        raise AuthorError(
            src,
            1,
            f"the notebook's kernel runs {notebook.language}, and llmbook runs only Python cells",
            'show it without running: `"llmbook": {"execute": false}` in its metadata, or '
            "leave it out of `execute_pages` in mkdocs.yml",
        )
    if notebook is not None and "execute" in meta and not source.execute:
        source.why_not_run = '`"llmbook": {"execute": false}` in its metadata'
    if not source.execute and source.bound:
        b = source.bound[0]
        raise AuthorError(
            src,
            b.line,
            f"[[{quoted(b.body)}]] cannot be checked: the page does not run ({source.why_not_run})",
            "write the plain number, cite it as [[value @ source]], mark it illustrative "
            "[[~value]], or let the page run (`execute: true` in its front matter, or a pattern "
            "of `execute_pages` in mkdocs.yml that matches it)",
        )
    page = LoadedPage(source, notebook)
    page.written  # noqa: B018 - a written value that is not a number stops the page here
    return page


def _written(source: PageSource, binding: Any) -> Written:
    try:
        return parse_written(binding.written)
    except ValueError:
        raise AuthorError(
            source.src,
            binding.line,
            f"[[{quoted(binding.body)}]]: the written value {quoted(repr(binding.written))} "
            "is not a number",
            "write a number such as 2.1, -1.34, 75%, 2.3e-10, 2,147,483,648 "
            "or a vector [0.365, 0.730]",
            page=source.lexed,
        ) from None

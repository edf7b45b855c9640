"""Collect stage: what a page asks the executor to do, read from the original source.

Plain data out: the page's code blocks (with their mode and exact lines), pytest-codeblocks markers,
expected outputs and every `[[…]]` binding outside code (math included, since the math stage later
replaces those by their written value).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from llmbook.core.bindings import RawBinding, find_bindings
from llmbook.core.errors import AuthorError, location, quoted
from llmbook.core.lexer import Cells, Fence, Lexed, mask_code
from llmbook.execute.sandbox.environment import valid_name
from llmbook.execute.stages.tags import Display, read_tags

__all__ = ["CodeBlock", "PageSource", "collect_page"]

_MARKER = re.compile(r"^\s*<!--\s*(?P<name>pytest[.-][\w.:-]+(?:\(.*\))?)\s*-->\s*$")
_PYTHON_LANGS = {"python", "py", "python3"}
_SKIP_MARKERS = {"pytest.mark.skip", "pytest-codeblocks:skip"}
_EXPECTED_MARKER = "pytest-codeblocks:expected-output"


@dataclass(frozen=True)
class CodeBlock:
    """One fenced code block, located by file lines."""

    line: int  # file line of the opening fence
    end_line: int  # file line of the closing fence
    lang: str
    info: str  # the info string as written, e.g. "python hidden title='x'"
    code: str
    indent: str
    # "run", "hidden" (runs, code not shown), "norun", "skip", "expected" (expected output),
    # "prose" (a fence in a notebook's Markdown cell: shown, never run) or "other"
    mode: str
    expects: int | None = None  # for a python block: index into `blocks` of its expected output
    display: Display = Display()  # what its tags (`remove-output`, `hide-input`, …) show

    @property
    def raises(self) -> bool:
        """Tagged `raises-exception`: the block is expected to raise."""
        return self.display.run == "raises"

    @property
    def code_line(self) -> int:
        """File line of the first line of code."""
        return self.line + 1

    @property
    def runs(self) -> bool:
        return self.mode in ("run", "hidden")


@dataclass
class PageSource:
    """Everything the later stages need from one page, located by file lines: `lexed` is the
    page's model, the text the engine renders (front matter removed), lexed once."""

    src: str
    lexed: Lexed
    execute: bool
    # front matter `numbers: strict` (every number accounted for) or `numbers: report` (only
    # reported); None: as the site says (`numbers_strict`)
    strict: bool | None = None
    blocks: list[CodeBlock] = field(default_factory=list)
    bindings: list[RawBinding] = field(default_factory=list)  # `.line` is the file line
    why_not_run: str = ""  # when `execute` is false: what decided it, for messages
    chapter: str | None = None  # front matter `chapter: 10`: the page's chapter number
    env: tuple[str, ...] = ()  # front matter `execute_env: [NAME]`: variables its code may read
    network: bool = False  # front matter `execute_network: true`: its code may use TCP
    # front matter `execute_resources: {GPU: 1, memory_gb: 40}`: what the machine running it
    # must have (names as Dask's worker resources; execute/cluster/resources.py)
    resources: dict[str, float] = field(default_factory=dict)
    # front matter `execute_threads: 4`: the threads its code computes with (None: the book's)
    threads: int | None = None
    # front matter `execute_allow_errors`: a raising block is a warning, its error shown (None:
    # as the book says)
    allow_errors: bool | None = None

    @property
    def lines(self) -> tuple[str, ...]:
        return self.lexed.lines

    @property
    def first(self) -> int:
        """The file line of the text's first line."""
        return self.lexed.first

    @property
    def text(self) -> str:
        return self.lexed.text

    @property
    def cells(self) -> Cells | None:
        """A notebook's (cell, line in cell) per line: its model's line map."""
        return self.lexed.cells

    def error(self, line: int, message: str, fix: str | None = None) -> AuthorError:
        """The author error at file line `line`, named as the page's model names it."""
        return AuthorError(self.src, line, message, fix, page=self.lexed)

    def location(self, line: int) -> str:
        """`docs/x.md:12`, `docs/x.ipynb:cell 4, line 2`: where file line `line` is."""
        return location(self.src, line, self.lexed)

    def cell_of(self, line: int) -> int:
        """A notebook page's 0-based cell holding file line `line`."""
        assert self.cells is not None, "only a notebook page has cells"
        return self.cells[line - self.first][0] - 1

    @property
    def python_blocks(self) -> list[CodeBlock]:
        return [b for b in self.blocks if b.lang in _PYTHON_LANGS]

    @property
    def bound(self) -> list[RawBinding]:
        return [b for b in self.bindings if b.expr is not None]

    def needs_execution(self) -> bool:
        return self.execute and (any(b.runs for b in self.blocks) or bool(self.bound))


def _true_or_false(meta: dict, src: str, name: str, default: bool | None, fix: str) -> bool | None:
    """Front matter `name`, which must be true or false when given (else `default`)."""
    value = meta.get(name, default)
    if value is default or isinstance(value, bool):
        return value
    raise AuthorError(
        src, 1, f"front matter `{name}: {quoted(str(value))}` is not true or false", fix
    )


def _threads(meta: dict, src: str) -> int | None:
    value = meta.get("execute_threads")
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value > 0):
        return value
    raise AuthorError(
        src,
        1,
        f"front matter `execute_threads: {quoted(str(value))}` is not a whole number of threads",
        "write e.g. `execute_threads: 4` for a page whose numbers must match a run with 4 threads "
        "(the book's `execute_threads`, 1 by default, otherwise)",
    )


def _env_names(meta: dict, src: str) -> tuple[str, ...]:
    value = meta.get("execute_env", [])
    if isinstance(value, list) and all(valid_name(name) for name in value):
        return tuple(value)
    raise AuthorError(
        src,
        1,
        f"front matter `execute_env: {quoted(str(value))}` is not a list of environment variable names",
        "write e.g. `execute_env: [HF_TOKEN]`: those variables of the build's environment are "
        "passed to this page's code",
    )


def _resources(meta: dict, src: str) -> dict[str, float]:
    value = meta.get("execute_resources", {})
    if isinstance(value, dict) and all(
        isinstance(name, str)
        and name
        and isinstance(amount, (int, float))
        and not isinstance(amount, bool)
        and amount > 0
        for name, amount in value.items()
    ):
        return {name: float(amount) for name, amount in value.items()}
    raise AuthorError(
        src,
        1,
        f"front matter `execute_resources: {quoted(str(value))}` is not a mapping of resource names to "
        "positive amounts",
        "write e.g. `execute_resources: {GPU: 1, memory_gb: 40}` (names as the cluster's Dask "
        "workers declare them; GPU counts CUDA devices, memory_gb the machine's memory)",
    )


def _theme_keys(meta: dict, src: str) -> None:
    """Front matter Material for MkDocs reads as lists of names: any other value stops its
    template with a Python traceback, so it stops here, named."""
    for name, example in (("hide", "[navigation, toc]"), ("tags", "[attention, cache]")):
        value = meta.get(name)
        if value is None or isinstance(value, str):
            continue
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise AuthorError(
                src,
                1,
                f"front matter `{name}: {quoted(str(value))}` is not a list of names",
                f"write e.g. `{name}: {example}`",
            )


def _chapter(meta: dict, src: str) -> str | None:
    value = meta.get("chapter")
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        return str(value)
    raise AuthorError(
        src,
        1,
        f"front matter `chapter: {quoted(str(value))}` is not a chapter number",
        "write a whole number, e.g. `chapter: 10` (its sections are then 10.1, 10.2, …)",
    )


def _strict_flag(meta: dict, src: str) -> bool | None:
    value = meta.get("numbers")
    if value is None or value in ("strict", "report"):
        return None if value is None else value == "strict"
    raise AuthorError(
        src,
        1,
        f"front matter `numbers: {quoted(str(value))}` is neither strict nor report",
        "write `numbers: strict` (every number checked, cited or marked) or `numbers: report` "
        "(unaccounted numbers only reported), or leave it out to follow the site",
    )


def collect_page(
    lexed: Lexed,
    *,
    src: str,
    meta: dict,
    execute: bool = True,
    prose: frozenset[int] = frozenset(),
) -> PageSource:
    """Read blocks, markers and bindings from the page's model (the Markdown MkDocs hands over,
    front matter removed); `execute`: whether the page runs when its front matter does not say
    (`execute_pages`); `prose`: 0-based lines whose fences are shown, never run (a notebook's
    Markdown cells, as in Jupyter)."""
    lines, first = lexed.lines, lexed.first
    runs = _true_or_false(meta, src, "execute", execute, "write `execute: false`")
    page = PageSource(src, lexed, runs, _strict_flag(meta, src), chapter=_chapter(meta, src))
    page.env = _env_names(meta, src)
    page.network = _true_or_false(
        meta,
        src,
        "execute_network",
        False,
        "write `execute_network: true` for a page whose code needs the network",
    )
    page.resources = _resources(meta, src)
    page.threads = _threads(meta, src)
    page.allow_errors = _true_or_false(
        meta,
        src,
        "execute_allow_errors",
        None,
        "write `execute_allow_errors: true` to show its raising blocks' errors as Jupyter does "
        "(each a warning), or `false` to fail the build on them",
    )
    _theme_keys(meta, src)
    if not runs:
        page.why_not_run = (
            "`execute: false` in its front matter"
            if "execute" in meta
            else "it matches no pattern of `execute_pages` in mkdocs.yml"
        )
    starts = {fence.start: fence for fence in lexed.fences}
    marker: tuple[str, int] | None = None
    i = 0
    while i < len(lines):
        text = lines[i]
        if i in starts:
            page.blocks.append(_read_block(page, starts[i], marker, prose=i in prose))
            i = starts[i].end + 1
            marker = None
            continue
        found = _MARKER.match(text)
        if found:
            marker = (found.group("name"), first + i)
        elif text.strip():
            marker = None
            page.bindings.extend(_bindings_on(text, first + i, src))
        i += 1
    _link_expected_outputs(page)
    return page


def _read_block(
    page: PageSource, fence: Fence, marker: tuple[str, int] | None, *, prose: bool = False
) -> CodeBlock:
    start, end, indent, info = fence.start, fence.end, fence.prefix, fence.info
    body = page.lines[start + 1 : end]
    code = "\n".join(line[len(indent) :] if line.startswith(indent) else line for line in body)
    words = info.split()
    lang = words[0].lstrip(".{").lower() if words else ""
    line = page.first + start
    mode, display = "other", Display()
    if prose:  # no tags, no markers: Jupyter shows it as written
        mode, marker = "prose" if lang in _PYTHON_LANGS else mode, None
    elif lang in _PYTHON_LANGS:
        try:
            display, _ = read_tags(words[1:])
        except ValueError as error:
            raise AuthorError(page.src, line, str(error), "keep only one of the two tags") from None
        mode = "norun" if display.run == "skip" else "hidden" if display.code == "remove" else "run"
    if marker is not None:
        name, marker_line = marker
        if name in _SKIP_MARKERS:
            mode = "skip" if lang in _PYTHON_LANGS else mode
        elif name == _EXPECTED_MARKER:
            mode = "expected"
        else:
            raise AuthorError(
                page.src,
                marker_line,
                f"unknown marker <!--{quoted(name)}-->",
                "use <!--pytest.mark.skip--> or <!--pytest-codeblocks:expected-output-->",
            )
    if end >= len(page.lines):
        raise AuthorError(
            page.src,
            line,
            f"code block opened with {_shown_fence(fence.fence)} is never closed",
            f"close it with a line {_shown_fence(fence.fence)}",
        )
    return CodeBlock(line, page.first + end, lang, info, code, indent, mode, display=display)


def _shown_fence(fence: str) -> str:
    """A fence as a message shows it: a long one by its length (a line of 400,000 backticks)."""
    return fence if len(fence) <= 10 else f"{fence[:3]}… ({len(fence):,} {fence[0]} characters)"


def _link_expected_outputs(page: PageSource) -> None:
    """Attach each expected-output block to the python block right before it."""
    for pos, block in enumerate(page.blocks):
        if block.mode != "expected":
            continue
        before = page.blocks[pos - 1] if pos else None
        if before is None or before.lang not in _PYTHON_LANGS or not before.runs:
            raise AuthorError(
                page.src,
                block.line - 1,
                "<!--pytest-codeblocks:expected-output--> does not follow a python block that runs",
                "put the expected output right after the python block whose output it shows",
            )
        page.blocks[pos - 1] = replace(before, expects=pos)


def _bindings_on(text: str, line: int, src: str) -> list[RawBinding]:
    """Bindings on a prose line; `[[…]]` inside inline code is shown literally, not bound."""
    masked = mask_code(text)
    if "[[" not in masked:
        return []
    try:
        found = find_bindings(masked, line)
    except ValueError as error:
        raise AuthorError(
            src,
            line,
            str(error),
            "write [[expression = 2.1]], [[2.1 @ source]] or, for an illustrative number, [[~2.1]]",
        ) from None
    return found  # masking only blanks inline code: bodies and offsets are those of `text`

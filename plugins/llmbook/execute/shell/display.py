"""IPython in page code, without a kernel: the display protocol, magics and `get_ipython()`.

Each page process makes one `InteractiveShell` (no history, its profile folder in the page's
scratch folder) whose namespace is the page's: `display()`, rich reprs (`_repr_html_`, …),
`clear_output`, display handles, `_`/`Out`, `%magics` and `!cmd` work as in Jupyter. Cells still
run with `exec` at their Markdown lines (tracebacks name the page's file and line): IPython's
input transformers rewrite a block's magics into `get_ipython()` calls first (`magics.py`). A
publisher keeps each display as an output of the block, at the place in its printed text where it
was shown; what the block writes to stderr is kept the same way, as Jupyter's stderr stream.
"""

from __future__ import annotations

import ast
import base64
import io
import re
import shutil
import tempfile
import tokenize
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from llmbook.execute.shell.figures import is_figure, show_again

__all__ = ["Display", "Displays", "display_context", "split_last"]

# Addresses in a default repr (`<Foo at 0x7f…>`) differ between runs: pages stay byte-identical.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Display:
    at: int  # characters of the block's printed output before it
    data: dict[str, object]  # the mime bundle; images as base64 text, as in a notebook
    metadata: dict[str, object] = field(default_factory=dict)
    # "display_data", "execute_result" (a cell's last expression) or "stream" (stderr's text,
    # as {"text/plain": text} with metadata {"name": "stderr"})
    kind: str = "display_data"


def _plain(data: dict) -> dict[str, object]:
    """The bundle as JSON data: bytes (images) as base64 text, addresses out of plain text."""
    bundle: dict[str, object] = {}
    for mime, value in data.items():
        if isinstance(value, bytes):
            value = base64.b64encode(value).decode("ascii")
        if mime == "text/plain" and isinstance(value, str):
            value = _ADDRESS.sub("", value)
        bundle[mime] = value
    return bundle


class Displays:
    """What the running block displayed; `take()` hands the block its displays. Display handles
    reach back into earlier blocks' lists: an update changes the display where it was shown."""

    def __init__(self) -> None:
        self.position: Callable[[], int] = lambda: 0  # characters the block printed so far
        self.kept: list[Display] = []
        self.cleared_at = 0  # printed characters that `clear_output` took off the block
        self.formatter = None
        self.shell = None
        self.count = 0  # the running block's execution count (Jupyter's In[n]/Out[n])
        self._waiting_clear = False
        self._handles: dict[str, list[tuple[list[Display], int]]] = {}

    def begin(self, position: Callable[[], int]) -> None:
        self.position, self.kept, self.cleared_at = position, [], 0
        self._waiting_clear = False
        self.count += 1

    def count_unparsed(self) -> None:
        """A block that does not compile still takes its execution count, as in IPython: the
        next result is `Out[n + 1]`."""
        self.count += 1

    def publish(
        self,
        data: dict,
        metadata: dict | None = None,
        kind: str = "display_data",
        *,
        display_id: str | None = None,
        update: bool = False,
    ) -> None:
        if update:  # a handle's update: the display changes where it was shown, or nowhere
            for kept, index in self._handles.get(display_id, []):
                kept[index] = replace(kept[index], data=_plain(data), metadata=dict(metadata or {}))
            return
        self.before_output()
        if data:
            self.kept.append(Display(self.position(), _plain(data), dict(metadata or {}), kind))
            if display_id is not None:
                self._handles.setdefault(display_id, []).append((self.kept, len(self.kept) - 1))

    def write_stderr(self, text: str) -> None:
        """stderr's text, one stream output per run of writes with no stdout between them."""
        self.before_output()
        if not text:
            return
        at = self.position()
        last = self.kept[-1] if self.kept else None
        if last is not None and last.kind == "stream" and last.at == at:
            self.kept[-1] = replace(last, data={"text/plain": last.data["text/plain"] + text})
        else:
            self.kept.append(Display(at, {"text/plain": text}, {"name": "stderr"}, "stream"))

    def clear(self, wait: bool = False) -> None:
        """`clear_output`: the block's outputs so far go; with `wait`, when the next one comes."""
        if wait:
            self._waiting_clear = True
            return
        self._waiting_clear = False
        self.kept = []
        self.cleared_at = self.position()

    def before_output(self) -> None:
        if self._waiting_clear:
            self.clear()

    def show_result(self, value: object) -> None:
        """A cell's last expression, as Jupyter's displayhook shows it (None shows nothing) and
        binds it (`_`, `__`, `___`, `_N`, `Out[N]`)."""
        if value is None or self.formatter is None:
            return
        if self.shell is not None:
            self.shell.execution_count = self.count + 1  # the hook's prompt count is one less
            self.shell.displayhook.update_user_ns(value)
        if is_figure(value):
            show_again(value)  # figures are taken after the block (figures.py)
            return
        data, metadata = self.formatter.format(value)
        self.publish(data, metadata, "execute_result")

    def take(self) -> tuple[int, list[Display]]:
        """(printed characters cleared, the block's displays with positions after them)."""
        kept, cut = self.kept, self.cleared_at
        if cut:
            kept[:] = [replace(d, at=d.at - cut) for d in kept]
        self.kept, self.cleared_at = [], 0
        return cut, kept


@contextmanager
def display_context(namespace: dict, *, shell: bool = True) -> Iterator[Displays]:
    """IPython's shell over the page's `namespace` while the page runs (its profile folder a
    temporary one). Without `shell` (`execute_ipython: false`) or IPython installed, blocks run
    as plain Python with display outputs off (a page importing IPython fails as any import
    would)."""
    displays = Displays()
    if not shell:
        yield displays
        return
    try:
        from IPython.core.interactiveshell import InteractiveShell
    except ImportError:
        yield displays
        return
    from llmbook.execute.shell.shell import page_shell
    from llmbook.execute.stages.deps import unrecorded

    home = tempfile.mkdtemp(prefix="llmbook-ipython-")
    with unrecorded():
        shell = page_shell(InteractiveShell, displays, namespace, home)
    displays.shell, displays.formatter = shell, shell.display_formatter
    before = getattr(InteractiveShell, "_instance", None)
    InteractiveShell._instance = shell
    try:
        with shell.builtin_trap:  # `get_ipython` a builtin, as in a kernel (libraries ask for it)
            yield displays
    finally:
        InteractiveShell._instance = before
        shutil.rmtree(home, ignore_errors=True)


def split_last(tree: ast.Module) -> tuple[ast.Module, ast.Expression | None]:
    """The block's statements and its last bare expression (None when it has none)."""
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return tree, None
    last = ast.Expression(tree.body[-1].value)
    return ast.Module(tree.body[:-1], type_ignores=[]), last


def ends_quiet(code: str) -> bool:
    """Whether the block's last token, comments and blank lines aside, is `;`: then Jupyter
    shows nothing for its last expression, a comment after the `;` included (IPython's
    `DisplayHook.semicolon_at_end_of_expression`, for blocks run without IPython too)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return code.rstrip().endswith(";")
    skipped = (tokenize.ENDMARKER, tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT)
    for token in reversed(tokens):
        if token.type in skipped:
            continue
        return token.type == tokenize.OP and token.string == ";"
    return False

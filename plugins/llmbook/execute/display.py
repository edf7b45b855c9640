"""IPython's display protocol in page code, without a kernel.

`display(obj)` and rich reprs (`_repr_html_`, `_repr_png_`, …) work as in Jupyter: IPython's own
`DisplayFormatter` makes the object's mime bundle, and a publisher keeps it as an output of the
block, at the place in its printed text where it was shown. No `InteractiveShell` is started (no
history, no profile folder, no input transformations): the page's code still runs with `exec` at
its Markdown lines. A notebook cell's last bare expression is shown too, as Jupyter's `Out`.
IPython is imported by the forkserver (`worker.py`), so a page pays only for its formatter.
"""

from __future__ import annotations

import ast
import base64
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["Display", "Displays", "display_context", "split_last"]

# Addresses in a default repr (`<Foo at 0x7f…>`) differ between runs: pages stay byte-identical.
_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


@dataclass(frozen=True)
class Display:
    at: int  # characters of the block's printed output before it
    data: dict[str, object]  # the mime bundle; images as base64 text, as in a notebook
    metadata: dict[str, object] = field(default_factory=dict)
    kind: str = "display_data"  # or "execute_result": a notebook cell's last expression


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
    """What one page displayed; `take()` hands a block its displays."""

    def __init__(self, position: Callable[[], int]) -> None:
        self.position = position  # characters printed so far by the running block
        self.kept: list[Display] = []
        self.formatter = None

    def publish(self, data: dict, metadata: dict | None = None, kind: str = "display_data") -> None:
        if data:
            self.kept.append(Display(self.position(), _plain(data), dict(metadata or {}), kind))

    def show_result(self, value: object) -> None:
        """A cell's last expression, as Jupyter's displayhook shows it (None shows nothing)."""
        if value is None or self.formatter is None:
            return
        if type(value).__name__ == "Figure" and type(value).__module__.startswith("matplotlib"):
            return  # figures are taken after the block (figures.py)
        data, metadata = self.formatter.format(value)
        self.publish(data, metadata, "execute_result")

    def take(self) -> list[Display]:
        kept, self.kept = self.kept, []
        return kept


def _raise(*args: object, **kwargs: object) -> None:
    """A failing `_repr_*_` fails its block (at the display's line), not only a warning."""
    raise  # noqa: PLE0704 (called inside IPython's `except` clause)


class _NoEvents:
    """Callbacks libraries register on the shell's events (no cell ever ends: none runs)."""

    def register(self, event: str, function: object) -> None:
        pass

    def unregister(self, event: str, function: object) -> None:
        pass


@contextmanager
def display_context(position: Callable[[], int]) -> Iterator[Displays]:
    """IPython's `display()` publishes into the yielded `Displays` while the page runs. Without
    IPython installed, display outputs are off (a page importing it fails as any import would)."""
    displays = Displays(position)
    try:
        from IPython.core.formatters import DisplayFormatter
        from IPython.core.interactiveshell import InteractiveShell
    except ImportError:
        yield displays
        return
    displays.formatter = DisplayFormatter()
    shell = _page_shell(InteractiveShell, displays)
    before = getattr(InteractiveShell, "_instance", None)
    InteractiveShell._instance = shell
    try:
        yield displays
    finally:
        InteractiveShell._instance = before


def _page_shell(base: type, displays: Displays) -> object:
    """A stand-in for the running shell: just what `display()`, `publish_display_data()` and the
    formatters ask of it (`InteractiveShell.instance()` must be an instance of that class)."""
    from IPython.core.displaypub import DisplayPublisher

    class Publisher(DisplayPublisher):
        def publish(self, data, metadata=None, source=None, **kwargs) -> None:  # noqa: ANN001
            displays.publish(data, metadata)

        def clear_output(self, wait: bool = False) -> None:
            pass  # outputs are kept as the page showed them

    class PageShell(base):
        def __init__(self) -> None:  # noqa: D107 (no IPython set-up: no history, no profile)
            pass

        showtraceback = _raise
        events = _NoEvents()  # matplotlib registers its REPL hook here: no REPL, no hook

        def enable_gui(self, gui: object = None) -> None:
            pass  # pages draw with Agg, never a GUI event loop

    shell = PageShell()
    shell.display_formatter = displays.formatter
    shell.display_pub = Publisher()
    return shell


def split_last(tree: ast.Module) -> tuple[ast.Module, ast.Expression | None]:
    """The block's statements and its last bare expression (None when it has none)."""
    if not tree.body or not isinstance(tree.body[-1], ast.Expr):
        return tree, None
    last = ast.Expression(tree.body[-1].value)
    return ast.Module(tree.body[:-1], type_ignores=[]), last

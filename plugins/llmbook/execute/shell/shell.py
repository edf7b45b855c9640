"""The page's IPython shell, and its magics turned into Python before a block is compiled.

The shell is IPython's own `InteractiveShell` (magics, `get_ipython()`, the display hook, `%config`)
with what a static page cannot have taken out: history in memory, no GUI event loop, no inline backend
(figures are taken after each block by `figures.py`, as SVG), and a `!cmd` whose output is the
block's own (the command runs in the page's process tree, under its sandbox and limits).
"""

from __future__ import annotations

import atexit
import re

from llmbook.execute.shell.figures import show_again

__all__ = ["automagic", "page_shell", "remember_input", "transform_magics"]

# A line IPython would read differently from Python: `%magic`, `!cmd`, `x = !cmd`,
# `y = %magic`, `obj?`, a pasted prompt (`>>> `, `In [1]: `). Plain Python never has one, so
# other blocks skip the transformers.
_IPYTHON_SYNTAX = re.compile(
    r"^[ \t]*[%!]|=[ \t]*[%!]|\?[ \t]*$|^[ \t]*>>>(?: |$)|^In \[\d*\]: ", re.MULTILINE
)
_transformer = None


def transform_magics(code: str) -> str:
    """`code` with IPython's syntax as `get_ipython()` calls, line for line (a cell magic takes
    its whole block onto its first line; blank lines keep later lines where they were). Blocks
    without that syntax, and any block where IPython is not installed, come back unchanged."""
    global _transformer
    if not _IPYTHON_SYNTAX.search(code):
        return code
    try:
        from IPython.core.inputtransformer2 import TransformerManager, leading_empty_lines
    except ImportError:
        return code
    if _transformer is None:
        _transformer = TransformerManager()
        # leading blank lines stay: the block's lines are the page's lines
        _transformer.cleanup_transforms.remove(leading_empty_lines)
    python = _transformer.transform_cell(code)
    missing = code.count("\n") - python.count("\n")
    return python + "\n" * max(0, missing)


def automagic(shell: object, code: str) -> str:
    """`code` with IPython's prefilter applied: a line magic written without its `%` (`ls
    data`, `cd ..`) as its call, as IPython's automagic reads it where the name is not a
    variable. Only for a block that is not Python as written (the caller tries it first)."""
    lines = shell.prefilter_manager.prefilter_lines(code)  # type: ignore[attr-defined]
    return lines + "\n" * max(0, code.count("\n") - lines.count("\n"))


def remember_input(shell: object, count: int, source: str, raw: str) -> None:
    """The block's code in the shell's history, as a kernel keeps each cell's: `In[count]`,
    `_i`, `_ii`, `_iii`, `_i<count>`."""
    shell.history_manager.store_inputs(count, source, raw)  # type: ignore[attr-defined]


def _raise(*args: object, **kwargs: object) -> None:
    """A failing `_repr_*_` or magic fails its block (at its line), not only a printed warning."""
    raise  # noqa: PLE0704 (called inside IPython's `except` clause)


def page_shell(base: type, displays: object, namespace: dict, home: str) -> object:
    """A shell of class `base` (IPython's InteractiveShell) over `namespace`, publishing into
    `displays` (`display.Displays`), its profile folder in `home`."""
    from IPython.core.displaypub import DisplayPublisher
    from traitlets.config import Config

    class Publisher(DisplayPublisher):
        def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kw):  # noqa: ANN001
            display_id = (transient or {}).get("display_id")
            displays.publish(data, metadata, display_id=display_id, update=update)

        def clear_output(self, wait: bool = False) -> None:
            displays.clear(wait)

    class PageShell(base):
        showtraceback = _raise

        def enable_gui(self, gui: object = None) -> None:
            pass  # pages draw with Agg, never a GUI event loop

        def enable_matplotlib(self, gui: object = None) -> tuple[str, str]:
            # `%matplotlib inline` (or any other): figures are the page's SVG figures already
            return "inline", "module://matplotlib_inline.backend_inline"

        def system(self, cmd: str) -> None:
            """`!cmd`: its output goes where the block's printed text goes."""
            import subprocess
            import sys

            command = self.var_expand(cmd, depth=1)
            done = subprocess.run(
                command, shell=True, capture_output=True, text=True, errors="replace"
            )
            sys.stdout.write(done.stdout)
            sys.stderr.write(done.stderr)
            self.user_ns["_exit_code"] = done.returncode

        system_piped = system_raw = system

    config = Config()
    config.HistoryManager.hist_file = ":memory:"  # as nbclient's kernels: no file, no thread
    shell = PageShell(config=config, ipython_dir=home, user_ns=namespace)
    atexit.unregister(shell.atexit_operations)  # nothing of a page's shell outlives the page
    shell.display_pub = Publisher()
    # `display(fig)`: the figure is taken after the block with the others (figures.py), drawn as
    # every figure is, not shown as its `<Figure size …>` text.
    shell.display_formatter.ipython_display_formatter.for_type_by_name(
        "matplotlib.figure", "Figure", show_again
    )
    try:  # `%config InlineBackend.figure_format = …`, common in notebooks, is accepted
        from matplotlib_inline.config import InlineBackend

        shell.configurables.append(InlineBackend.instance(parent=shell))
    except ImportError:
        pass
    return shell

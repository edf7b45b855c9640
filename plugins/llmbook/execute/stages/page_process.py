"""What a page's process is set up with before its first block: torch where it is installed,
the threads it computes with, and warnings named by the author's lines."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from contextlib import contextmanager

from llmbook.execute.stages.collect import PageSource

__all__ = ["located_warnings", "set_threads", "torch_module"]


def torch_module():  # noqa: ANN202 (the torch module, or None)
    """torch where it is installed (a book that computes with it), else None: the plugin runs
    pure-Python and NumPy pages without it, and never imports it when it is absent."""
    from importlib.util import find_spec

    if find_spec("torch") is None:
        return None
    import torch

    return torch


def set_threads(threads: int) -> None:
    """torch's and the BLAS libraries' threads. One by default: reductions then sum in one
    order on every machine (byte-identical pages), and small tensors run faster without a
    thread pool fighting the other pages' processes."""
    torch = torch_module()
    if torch is not None:
        torch.set_num_threads(threads)
        torch.use_deterministic_algorithms(True)
    if threads != 1:
        try:  # NumPy's BLAS read OMP_NUM_THREADS=1 when it loaded (worker.py)
            from threadpoolctl import threadpool_limits
        except ImportError:
            return
        threadpool_limits(threads)


@contextmanager
def located_warnings(page: PageSource) -> Iterator[None]:
    """A warning raised by the page's code names the line as the author sees it
    (`docs/x.ipynb:cell 2, line 2: UserWarning: …`), not the line of the page as run."""
    plain = warnings.formatwarning

    def formatted(message, category, filename, lineno, line=None) -> str:  # noqa: ANN001
        text = plain(message, category, filename, lineno, line)
        if filename != page.src:
            return text
        return page.location(lineno) + text[len(f"{filename}:{lineno}") :]

    warnings.formatwarning = formatted
    try:
        yield
    finally:
        warnings.formatwarning = plain

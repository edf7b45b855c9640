"""The worker process side: one page per process, forked from a server that preloaded torch.

The forkserver imports the heavy, unchanging libraries once (torch, numpy, matplotlib); every
page then starts from a fork of that clean state, so nothing one page does (default dtype, seeds,
module state, cwd, environment) reaches another. llmkit itself is imported in the page's process,
so an edit to llmkit during `mkdocs serve` is seen by the next run.
"""

from __future__ import annotations

import os

# Before torch starts its thread pool: one thread per page (see run.py), in every forked page.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg", force=True)
import matplotlib.pyplot  # noqa: E402,F401
import numpy  # noqa: E402,F401
import torch  # noqa: E402

from llmbook.execute.fonts import register_fonts  # noqa: E402

register_fonts()  # the book's CJK font, by path: every forked page draws with it

# Every page runs with deterministic algorithms; switching them on imports torch._inductor (~3 s),
# so it is done once, here, and every forked page starts with it on.
torch.use_deterministic_algorithms(True)

__all__ = ["main"]


def _limit_memory(megabytes: int) -> None:
    """Cap the address space: an allocation past it fails inside the page (MemoryError)."""
    if megabytes <= 0:
        return
    import resource

    limit = megabytes * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main(conn, page, options: dict) -> None:  # noqa: ANN001 (a Connection and a PageSource)
    """Run `page` and send ("step", line, kind, pos) messages, then ("done", result) or ("fail", …)."""
    os.environ.clear()
    os.environ.update(options["env"])
    os.chdir(options["cwd"])
    _limit_memory(options["memory_mb"])
    from llmbook.errors import AuthorError, register_line_map
    from llmbook.execute.run import run_page

    if options.get("cells"):  # a notebook: messages name its cells
        from llmbook.execute.notebook import cell_line

        register_line_map(page.src, lambda line: cell_line(options["cells"], line))

    try:
        result = run_page(
            page,
            seed=options["seed"],
            output_limit=options["output_limit"],
            on_step=lambda line, kind, pos: conn.send(("step", line, kind, pos)),
        )
    except AuthorError as error:
        conn.send(("fail", error.line, error.problem, error.fix))
    else:
        conn.send(("done", result))
    conn.close()

"""The worker process side: one page per process, forked from a server that preloaded torch.

The forkserver imports the heavy, unchanging libraries once (numpy, matplotlib, IPython, and torch
where it is installed); every
page then starts from a fork of that clean state, so nothing one page does (default dtype, seeds,
module state, cwd, environment) reaches another. What the page imports itself (the preamble's
packages too) is imported in the page's process, so an edit during `mkdocs serve` is seen by the
next run.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time

# Before torch starts its thread pool: one thread per page (see run.py), in every forked page.
os.environ.setdefault("OMP_NUM_THREADS", "1")

import matplotlib  # noqa: E402

matplotlib.use("Agg", force=True)
import matplotlib.pyplot  # noqa: E402,F401
import numpy  # noqa: E402,F401

try:  # torch only where the book computes with it: the plugin itself never needs it
    import torch
except ImportError:
    torch = None

from llmbook.execute.shell.fonts import register_fonts  # noqa: E402

try:  # IPython's display protocol (display.py): imported once here, about 0.1 s, not per page
    import IPython.core.formatters  # noqa: F401
    import IPython.core.interactiveshell  # noqa: F401
    import IPython.display  # noqa: F401
except ImportError:  # not installed: pages without display() run as before
    pass

register_fonts()  # the book's CJK font, by path: every forked page draws with it

# Every page runs with deterministic algorithms; switching them on imports torch._inductor (~3 s),
# so it is done once, here, and every forked page starts with it on.
if torch is not None:
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
    """Confine this process, then run the page in a child of it and end whatever the page started.

    This process is a child subreaper: every process the page starts, detached ones included, stays
    below it, and it kills them all once the page's own process has ended, however it ended. Its
    exit status is the page process's, so the parent reports a crash as the page's.
    """
    import llmbook.execute.sandbox.sandbox as sandbox

    os.environ.clear()
    os.environ.update(options["env"])
    confinement: sandbox.Confinement = options["confinement"]
    import tempfile

    tempfile.tempdir = None  # the forkserver's own, cached: read TMPDIR of the page's environment
    os.chdir(options["workdir"])
    sys.path.insert(0, os.path.dirname(options["path"]))  # modules beside the page, as a script
    sys.path.insert(1, "")  # and those the page writes where it runs, as in a Jupyter kernel
    sys.dont_write_bytecode = True  # no __pycache__ written into the project by the page's imports
    _limit_memory(options["memory_mb"])
    sandbox.limit_file_size(confinement.file_size_mb)
    sandbox.become_subreaper()
    sandbox.die_with_parent()
    _release_server()
    # multiprocessing's bootstrap set the forkserver's start method here; a kernel has set none,
    # so a page may choose its own (`set_start_method("fork")`, as emcee's tutorials do).
    multiprocessing.set_start_method(None, force=True)
    try:
        _guard(confinement, options)
    except OSError as error:
        fix = "set `execute_sandbox: off` in mkdocs.yml to run pages without it"
        conn.send(("fail", None, f"the page's sandbox could not be set up: {error}", fix))
        conn.close()
        return
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            sandbox.die_with_parent()
            _run(conn, page, options)
            status = 0
        except BaseException:  # a fault of the runner itself: the parent reports the exit
            import traceback

            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(status)  # never back into multiprocessing's bootstrap: this is a forked copy
    conn.close()
    _, status = os.waitpid(pid, 0)
    sandbox.end_descendants(os.getpid())
    sandbox.reap_children()
    code = os.waitstatus_to_exitcode(status)
    if code < 0:  # killed by a signal: die of the same one, so the parent names it
        if -code != signal.SIGKILL:  # SIGKILL has no handler to reset (EINVAL)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _release_server() -> None:
    """Close the write end of the forkserver's liveness pipe, which multiprocessing hands every
    child: held by a page, it keeps the server alive after the process that started it died (a
    cluster worker killed mid-page), and the server's end is what ends this process and its page
    (sandbox.die_with_parent)."""
    from multiprocessing import forkserver

    fd = getattr(forkserver._forkserver, "_forkserver_alive_fd", None)
    if fd is not None:
        os.close(fd)
        forkserver._forkserver._forkserver_alive_fd = None


def _guard(confinement, options: dict) -> None:  # noqa: ANN001 (a sandbox.Confinement)
    """Apply the build's guards to this process and all it starts: no capabilities (a build run
    as root), Landlock's file and TCP rules, seccomp's socket filter for a page without network."""
    import llmbook.execute.sandbox.landlock as landlock
    import llmbook.execute.sandbox.sandbox as sandbox
    import llmbook.execute.sandbox.seccomp as seccomp

    if confinement.landlock or confinement.sockets:  # not under `execute_sandbox: off`
        sandbox.drop_capabilities()
    if confinement.landlock:
        landlock.confine(options["writable"], confinement.readable, network=options["network"])
    if confinement.sockets and not options["network"]:
        seccomp.deny_internet_sockets()


def _run(conn, page, options: dict) -> None:  # noqa: ANN001
    """Run `page` and send ("step", line, kind, pos) and ("raised", Raised) messages, then
    ("done", result) or ("fail", …)."""
    from llmbook.core.errors import AuthorError
    from llmbook.execute.stages.deps import UseRecorder
    from llmbook.execute.stages.provenance import page_record
    from llmbook.execute.stages.run import run_blocks

    recorder = UseRecorder(options["root"])
    start = time.perf_counter()
    try:
        result = run_blocks(
            page,
            seed=options["seed"],
            preamble=options["preamble"],
            path=options["path"],
            output_limit=options["output_limit"],
            show_last=options.get("show_last", False),
            ipython=options.get("ipython", True),
            threads=options.get("threads", 1),
            native_output=True,  # this process is the page's: its descriptors 1 and 2 too
            on_step=lambda line, kind, pos: conn.send(("step", line, kind, pos)),
            on_raised=lambda raised: conn.send(("raised", raised)),
        )
    except AuthorError as error:
        conn.send(("fail", error.line, error.problem, error.fix))
    except MemoryError:  # under the page's own cap (`execute_memory_mb`), not the machine's
        conn.send((
            "fail",
            None,
            f"the page ran out of memory: its processes may use {options['memory_mb']} MB",
            "make the page's data smaller, or raise `execute_memory_mb` in mkdocs.yml",
        ))  # fmt: skip
    else:
        result.used = recorder.used()
        code = [options["preamble"], *(b.code for b in page.blocks if b.runs)]
        seconds = time.perf_counter() - start
        result.record = page_record(code, recorder.new_modules(), seconds)
        conn.send(("done", result))
    conn.close()

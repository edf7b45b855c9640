"""Execution results kept between builds: the "results" namespace of the build's store, one
slot per page.

The key covers what is known before the page runs: the page's code (blocks, their modes and the
bound expressions, not the written numbers), the seed, the preamble, and the Python, torch and
matplotlib versions. What the page turned out to use is stored with the result: every file of the
project it opened or imported (`deps.py`), under its content hash, and every distribution whose
modules it imported, with its version (`provenance.py`): the entry is stale when any of those
files changed, or any of those distributions has another version now. The store writes atomically and verifies what it reads.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from dataclasses import asdict
from pathlib import Path

from llmbook.core.store import Store, file_digest, file_stamp, key, version
from llmbook.core.store_namespaces import RESULTS
from llmbook.execute.shell.display import Display
from llmbook.execute.shell.figures import Figure
from llmbook.execute.stages.block_errors import Raised
from llmbook.execute.stages.collect import PageSource
from llmbook.execute.stages.provenance import Record
from llmbook.execute.stages.run import BlockResult, RunResult

__all__ = [
    "FileHashes",
    "PageCache",
    "page_key",
    "result_digest",
]

_FORMAT = 11  # 2: the files a page used are stored with its result; 3: display outputs;
# 4: stderr as stream outputs, `clear_output`, display handles (IPython's shell); 5: native
# output (descriptors 1 and 2), files beside a notebook; 6: the characters cut from an output;
# 7: an untitled notebook figure's description in every language (`Figure.alts`); 8: no
# language: such a figure keeps its cell and axes, described when a page renders; 9: the page
# runs on past a raising block, its errors kept (`RunResult.raised`), the threads in the key;
# 10: what computed the page (`RunResult.record`: its imported distributions' versions);
# 11: a `;` before a trailing comment hides the last expression, as in IPython
NAMESPACE = RESULTS


def page_key(
    page: PageSource,
    *,
    seed: int,
    preamble: str,
    env: Mapping[str, str] | None = None,
    show_last: bool = False,
    ipython: bool = True,
    output_limit: int = 100_000,
    threads: int = 1,
) -> str:
    """The key of a page's results; `env`: the variables passed to it by name, whose values
    the code may read (kept only as part of the key's digest); `output_limit`: where a block's
    output was cut (`execute_output_limit`)."""
    parts = {
        "output_limit": output_limit,
        "threads": threads,  # float sums differ in their last digits with the thread count
        "env": sorted((env or {}).items()),
        "format": _FORMAT,
        "src": page.src,
        "seed": seed,
        "preamble": preamble,
        "show_last": show_last or page.cells is not None,
        "ipython": version("ipython") if ipython else "off",
        "python": sys.version,
        "torch": version("torch"),
        "matplotlib": version("matplotlib"),
        "blocks": [
            [b.line, b.mode, b.code, *(["raises"] if b.raises else [])]
            for b in page.blocks
            if b.runs
        ],
        "bound": [[b.line, b.expr] for b in page.bound],
    }
    return key(parts)


class FileHashes:
    """Content hashes of the project's files, each read once per build."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)
        self._known: dict[str, str] = {}

    def unchanged(self, used: dict[str, str]) -> bool:
        """Whether every file a cached result used still has the content it had then."""
        return not self.changed(used)

    def changed(self, used: dict[str, str]) -> list[str]:
        """The files of `used` whose content here is not the one recorded (a cluster worker's
        result checked against this build's files too)."""
        found = []
        for name, digest in used.items():
            if name not in self._known:
                # an installed file was keyed by size and mtime (deps), not read
                cheap = digest.startswith("stat:")
                path = self.root / name
                self._known[name] = file_stamp(path) if cheap else file_digest(path)
            if self._known[name] != digest:
                found.append(name)
        return found


class PageCache:
    """Each page's results in the store's "results" namespace, checked against the page's key."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def load(self, src: str, page_key: str) -> RunResult | None:
        data = self._store.slot(NAMESPACE, src).get(page_key)
        if data is None:
            return None
        try:
            blocks = {
                int(pos): BlockResult(
                    b["output"],
                    [
                        Figure(
                            f["svg"], f["alt"], f.get("cell"), tuple(map(tuple, f.get("axes", ())))
                        )
                        for f in b["figures"]
                    ],
                    error=_error(b.get("error")),
                    displays=[Display(*d) for d in b.get("displays", [])],
                    cut=int(b.get("cut", 0)),
                )
                for pos, b in data["blocks"].items()
            }
            used = {str(name): str(digest) for name, digest in data["used"].items()}
            raised = [
                Raised(int(line), str(problem), str(fix), bool(allowable))
                for line, problem, fix, allowable in data.get("raised", [])
            ]
            record = Record(**data["record"]) if "record" in data else None
            return RunResult(blocks, list(data["values"]), used, raised, record)
        except (ValueError, KeyError, TypeError, AttributeError):
            return None  # a whole entry of another shape (an older format)

    def store(self, src: str, page_key: str, result: RunResult) -> None:
        data = {
            "src": src,
            "blocks": {
                str(pos): {
                    "output": b.output,
                    "figures": [vars(f) for f in b.figures],
                    **({"error": list(b.error)} if b.error else {}),
                    **({"displays": [_display(d) for d in b.displays]} if b.displays else {}),
                    **({"cut": b.cut} if b.cut else {}),
                }
                for pos, b in result.blocks.items()
            },
            "values": result.values,
            "used": result.used,
            **(
                {"raised": [list(vars(r).values()) for r in result.raised]} if result.raised else {}
            ),
            **({"record": asdict(result.record)} if result.record is not None else {}),
        }
        self._store.slot(NAMESPACE, src).put(page_key, data)


def _error(data: list | None) -> tuple[str, str, list[str]] | None:
    """A kept `raises-exception` error: (name, value, traceback lines)."""
    if data is None:
        return None
    name, value, lines = data
    return str(name), str(value), [str(line) for line in lines]


def _display(d: Display) -> list:
    return [d.at, d.data, d.metadata, d.kind]


def result_digest(result: RunResult | None) -> str:
    """A page's execution results as one hash (outputs, figures, values)."""
    if result is None:
        return "none"
    data = {
        "blocks": {
            str(pos): [b.output, b.cut, [[f.svg, f.alt] for f in b.figures]]
            + ([list(b.error)] if b.error else [])
            + ([[_display(d) for d in b.displays]] if b.displays else [])
            for pos, b in sorted(result.blocks.items())
        },
        "values": result.values,
    }
    return key(data)

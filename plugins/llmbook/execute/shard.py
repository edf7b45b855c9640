"""CI sharding without a cluster: `LLMBOOK_SHARD=i/N` (or the `execute_shard` option) lets N
machines each run a share of the book's pages, filling their own cache folders; the folders merge
by copying, and one build with LLMBOOK_EXECUTE=0 assembles the site (docs/guide/executable.md).

A page's shard is the SHA-256 of its path relative to docs_dir, modulo N: the same on every run,
machine and Python version (Python's `hash()` of a string changes with every process).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from llmbook.errors import LLMBookError

__all__ = ["Shard", "read_shard", "shard_number"]

T = TypeVar("T")
_FORM = re.compile(r"(\d+)/(\d+)")


def shard_number(page: str, count: int) -> int:
    """The shard (0 to count - 1) of `page`, its '/'-separated path relative to docs_dir."""
    digest = hashlib.sha256(page.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % count


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count`: a build that runs only the pages whose `shard_number` it is."""

    index: int
    count: int

    def holds(self, page: str) -> bool:
        return shard_number(page, self.count) == self.index

    def split(self, pages: Iterable[T], path: Callable[[T], str]) -> tuple[list[T], list[T]]:
        """(the pages of this shard, the others), `path` giving each page's path."""
        mine: list[T] = []
        others: list[T] = []
        for page in pages:
            (mine if self.holds(path(page)) else others).append(page)
        return mine, others

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def summary(self, ran: int, left_out: int) -> str:
        """The build's line about its shard (an info line: `--strict` fails on warnings)."""
        return (
            f"shard {self}: {ran} pages of this shard run; {left_out} pages of other shards "
            "neither run nor checked (shown without outputs: this site is not for publishing; "
            "merge the shards' cache folders and build with LLMBOOK_EXECUTE=0)"
        )


def read_shard(option: str, env: str | None, *, execute: bool) -> Shard | None:
    """The build's shard: `env` (LLMBOOK_SHARD) when it is set and not empty, else the
    `execute_shard` option; None (every page runs) when both are empty. LLMBookError naming the
    setting and how to fix it when the value is no shard, or when execution is off (`execute`
    false): a build that runs nothing cannot run a share of the pages."""
    if env is not None and env.strip():
        text, name = env.strip(), "LLMBOOK_SHARD"
        where = f"LLMBOOK_SHARD={text}"
    else:
        text, name = str(option).strip(), "`execute_shard` in mkdocs.yml"
        where = f"mkdocs.yml: `execute_shard: {text}`"
    if not text:
        return None
    match = _FORM.fullmatch(text)
    index, count = (int(match[1]), int(match[2])) if match else (0, 0)
    if match is None:
        problem = "is not a shard: write it i/N, shard i (counted from 0) of N"
    elif count == 0:
        problem = "asks for 0 shards: there must be at least 1"
    elif index >= count:
        problem = f"names no shard: the {count} shards are counted from 0, 0/{count} to {count - 1}/{count}"
    elif not execute:
        raise LLMBookError(
            f"{where} runs a share of the pages, but execution is switched off "
            "(LLMBOOK_EXECUTE=0 or `execute: false` in mkdocs.yml). Fix: leave "
            f"{name} unset in the build that assembles the site from the merged caches, "
            "and switch execution on in each shard's build"
        )
    else:
        return Shard(index, count)
    raise LLMBookError(
        f"{where} {problem}. Fix: give each of N machines its own i/N, i from 0 to N - 1 "
        f"(0/2 and 1/2 on two machines), or leave {name} unset to run every page"
    )

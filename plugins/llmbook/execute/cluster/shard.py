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
from dataclasses import dataclass, field
from typing import TypeVar

from llmbook.core.errors import LLMBookError

__all__ = ["Shard", "read_shard", "shard_number"]

T = TypeVar("T")
_FORM = re.compile(r"(\d+)/(\d+)")


def shard_number(page: str, count: int) -> int:
    """The shard (0 to count - 1) of `page`, its '/'-separated path relative to docs_dir."""
    return int(hashlib.sha256(page.encode("utf-8")).hexdigest(), 16) % count


@dataclass(frozen=True)
class Shard:
    """Shard `index` of `count`: a build that runs only the pages whose `shard_number` it is."""

    index: int
    count: int
    where: str = field(default="", compare=False)  # the setting as written: `LLMBOOK_SHARD=0/2`
    name: str = field(default="", compare=False)  # the setting's name

    def check_build(self, *, execute: bool, cache: bool) -> None:
        """LLMBookError when the build cannot do a shard's work: it runs nothing (execution
        off: the assembling build must not inherit a shard, or it would leave pages out instead
        of failing), or it keeps nothing (the cache off)."""
        if not execute:
            raise LLMBookError(
                f"{self.where} runs a share of the pages, but execution is switched off "
                "(LLMBOOK_EXECUTE=0 or `execute: false` in mkdocs.yml). Fix: leave "
                f"{self.name} unset in the build that assembles the site from the merged "
                "caches, and switch execution on in each shard's build"
            )
        if not cache:
            raise LLMBookError(
                f"{self.where} runs a share of the pages to fill the cache, but the cache is off "
                "(LLMBOOK_CACHE=0 or `cache: false` in mkdocs.yml), so the build would keep "
                "none of their results. Fix: switch the cache on in each shard's build"
            )

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


def read_shard(option: str, env: str | None) -> Shard | None:
    """The build's shard: `env` (LLMBOOK_SHARD) when it is set and not empty, else the
    `execute_shard` option; None (every page runs) when both are empty. LLMBookError naming the
    setting and how to fix it when the value is no shard."""
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
        last = f"{count - 1}/{count}"
        problem = f"names no shard: the {count} shards are counted from 0, 0/{count} to {last}"
    else:
        return Shard(index, count, where, name)
    raise LLMBookError(
        f"{where} {problem}. Fix: give each of N machines its own i/N, i from 0 to N - 1 "
        f"(0/2 and 1/2 on two machines), or leave {name} unset to run every page"
    )

"""Which guards a build puts around page code, decided once per build from what the machine
offers and what mkdocs.yml asks (`execute_sandbox`: auto, required, off; `execute_read`).

Landlock confines files (writes, and reads of the home folders) and TCP; seccomp takes internet
sockets (UDP too); capabilities are dropped and the environment allowlisted everywhere. `auto`
applies what the machine has and says once what it lacks; `required` stops the build instead.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass

from mkdocs.plugins import get_plugin_logger

from llmbook.core.errors import LLMBookError
from llmbook.execute.sandbox.landlock import landlock_abi
from llmbook.execute.sandbox.seccomp import seccomp_available

__all__ = ["Guards", "machine_guards", "read_grants"]

log = get_plugin_logger(__name__)


@dataclass(frozen=True)
class Guards:
    landlock: bool  # files (writes; reads of the home folders) and, on ABI 4+, TCP
    sockets: bool  # seccomp: no internet socket for a page without the network

    @classmethod
    def available(cls) -> Guards:
        """Every guard this machine can apply."""
        return cls(landlock=landlock_abi() > 0, sockets=seccomp_available())


def _missing(landlock: bool, sockets: bool, network: str) -> list[str]:
    missing = []
    if not landlock:
        missing.append(
            "this kernel has no Landlock (Linux 5.13 or later), so pages could write and read "
            "anywhere the build can"
        )
    if not sockets and network != "all":
        missing.append(
            "this machine has no seccomp filters, so pages could send UDP (and TCP without "
            "Landlock ABI 4)"
        )
    return missing


def machine_guards(mode: str, network: str) -> Guards:
    """The guards for `execute_sandbox: mode` on this machine (`network`: `execute_network`)."""
    if mode == "off":
        return Guards(landlock=False, sockets=False)
    guards = Guards.available()
    missing = _missing(guards.landlock, guards.sockets, network)
    if missing and mode == "required":
        raise LLMBookError(
            "mkdocs.yml: `execute_sandbox: required`, but this machine cannot guard page code: "
            + "; ".join(missing)
            + ". Fix: build on Linux 5.13 or later with Landlock and seccomp enabled (`landlock` "
            "in /sys/kernel/security/lsm), or set `execute_sandbox: auto`"
        )
    for problem in missing:
        log.info(f"page code runs with a guard less: {problem}")
    return guards


def read_grants(paths: Sequence[str], root: str) -> tuple[str, ...]:
    """The `execute_read` option's paths (`~` expanded, relative ones from the project), checked."""
    found = []
    for path in paths:
        full = os.path.join(root, os.path.expanduser(path))
        if not os.path.exists(full):
            raise LLMBookError(
                f"mkdocs.yml: `execute_read` names {path!r}, which does not exist ({full}). Fix: "
                "list files or folders that pages may read, absolute, from `~` or from the project"
            )
        found.append(os.path.realpath(full))
    return tuple(found)

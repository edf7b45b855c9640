"""Landlock (Linux >= 5.13): the file and TCP rules a page's process applies to itself.

An unprivileged process restricts itself and everything it starts afterwards, for good; native
code included, as the kernel checks each open, connect and bind. Rights are granted beneath
folders (or on single files); a right the ruleset handles is denied wherever no rule grants it.
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys
from collections.abc import Iterable

from llmbook.execute.sandbox.sandbox import checked, libc

__all__ = ["confine", "landlock_abi"]

# Syscall numbers are the same on every Linux architecture for these (added after the unification).
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_RULESET_VERSION = 1
_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
_WRITE_FILE, _READ_FILE, _READ_DIR, _TRUNCATE = 1 << 1, 1 << 2, 1 << 3, 1 << 14
_READS = _READ_FILE | _READ_DIR
# Every right that changes the file system, by the ABI that introduced it (REFER: 2, TRUNCATE: 3).
# Executing is never handled: a program may run wherever it may be read.
_WRITES_ABI1 = sum(1 << bit for bit in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))
_REFER = 1 << 13
_TCP_BIND, _TCP_CONNECT = 1 << 0, 1 << 1  # handled_access_net (ABI 4)
# scoped (ABI 6): no connecting to abstract unix sockets, no signals, outside the page's domain
_SCOPE_ABSTRACT_UNIX, _SCOPE_SIGNAL = 1 << 0, 1 << 1


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # the kernel's struct landlock_path_beneath_attr is packed (12 bytes)
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where there is none (not Linux, too old, disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    version = libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _RULESET_VERSION)
    return max(0, int(version))


def _writes(abi: int) -> int:
    rights = _WRITES_ABI1
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    return rights


def _check(result: int, what: str) -> int:
    return checked(result, f"Landlock {what}")


def _ruleset(lib: ctypes.CDLL, abi: int, fs: int, network: bool) -> int:
    # struct landlock_ruleset_attr: handled_access_fs, handled_access_net (ABI 4), scoped (ABI 6)
    net = _TCP_BIND | _TCP_CONNECT if not network and abi >= 4 else 0
    scoped = _SCOPE_ABSTRACT_UNIX | _SCOPE_SIGNAL if abi >= 6 else 0
    attr = (ctypes.c_uint64 * 3)(fs, net, scoped)
    size = 24 if scoped else 16 if net else 8
    return _check(
        lib.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0), "ruleset"
    )


def confine(
    writable: Iterable[str],
    readable: Iterable[str] | None = None,
    devices: str = "/dev",
    *,
    network: bool = True,
) -> None:
    """From now on this process and its children may change files only beneath `writable` and
    write to the existing files beneath `devices` (a GPU driver opens /dev/nvidia* for writing);
    with `readable`, read only beneath it and `writable`; without `network`, no TCP connect or
    bind (ABI 4+). On ABI 6+, no signal or abstract unix socket reaches a process outside."""
    abi = landlock_abi()
    if abi == 0:
        raise OSError("this kernel has no Landlock")
    lib, writes = libc(), _writes(abi)
    reads = _READS if readable is not None else 0
    ruleset = _ruleset(lib, abi, writes | reads, network)
    try:
        file_rights = (writes | reads) & (_WRITE_FILE | _TRUNCATE | _READ_FILE)
        rules = [(path, writes | reads) for path in writable]
        rules += [(path, reads) for path in readable or ()]
        rules.append((devices, writes & (_WRITE_FILE | _TRUNCATE)))
        for path, rights in rules:
            _add_rule(lib, ruleset, path, rights, file_rights)
        _check(lib.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(lib.syscall(_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)


def _add_rule(lib: ctypes.CDLL, ruleset: int, path: str, rights: int, file_rights: int) -> None:
    """Grant `rights` beneath `path`; on a file, only the rights a file can have (no creating,
    removing, renaming or listing)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # gone, or not ours to name: nothing to grant
    try:
        if not stat.S_ISDIR(os.fstat(fd).st_mode):
            rights &= file_rights
        if rights:
            rule = _PathBeneath(rights, fd)
            _check(lib.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, ctypes.byref(rule), 0), path)
    finally:
        os.close(fd)

"""What a page's process may do to the machine: where it may write, how big a file, how long its
children live.

Writes are confined with Landlock (Linux >= 5.13), which an unprivileged process applies to itself
and to everything it starts afterwards; reads stay free. The page may write its scratch directory
(its working directory, removed after the page), the temp directory and the user's cache directory,
never the project or the site. The page's process is a child subreaper, so every process it starts,
detached ones included, stays below it and is killed when the page ends.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import sys
import tempfile
from dataclasses import dataclass

__all__ = [
    "Confinement",
    "end_descendants",
    "landlock_abi",
    "limit_file_size",
    "reap_children",
    "restrict_writes",
    "scratch_plan",
    "become_subreaper",
]

# Syscall numbers are the same on every Linux architecture for these (added after the unification).
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_RULESET_VERSION = 1
_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS, _PR_SET_CHILD_SUBREAPER = 38, 36
_WRITE_FILE, _TRUNCATE = 1 << 1, 1 << 14
# Every right that changes the file system, by the ABI that introduced it (REFER: 2, TRUNCATE: 3).
# Reading and executing are not handled, so they stay allowed everywhere.
_WRITES_ABI1 = sum(1 << bit for bit in (1, 4, 5, 6, 7, 8, 9, 10, 11, 12))
_REFER = 1 << 13
_TCP_BIND, _TCP_CONNECT = 1 << 0, 1 << 1  # handled_access_net (ABI 4)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # the kernel's struct landlock_path_beneath_attr is packed (12 bytes)
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version; 0 where there is none (not Linux, too old, disabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), _RULESET_VERSION)
    return max(0, int(version))


def _handled(abi: int) -> int:
    rights = _WRITES_ABI1
    if abi >= 2:
        rights |= _REFER
    if abi >= 3:
        rights |= _TRUNCATE
    return rights


def _check(result: int, what: str) -> int:
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"Landlock {what}: {os.strerror(errno)}")
    return result


def restrict_writes(writable: list[str], devices: str = "/dev", *, network: bool = True) -> None:
    """From now on this process and its children may change files only beneath `writable`, and
    write to the existing files beneath `devices` (a GPU driver opens /dev/nvidia* for writing);
    without `network`, no TCP connect or bind either (Landlock ABI 4+; UDP is not covered)."""
    abi = landlock_abi()
    if abi == 0:
        raise OSError("this kernel has no Landlock")
    libc, handled = _libc(), _handled(abi)
    # struct landlock_ruleset_attr: handled_access_fs, then (ABI 4+) handled_access_net; a net
    # right handled with no rule granting it is denied everywhere.
    net = _TCP_BIND | _TCP_CONNECT if not network and abi >= 4 else 0
    attr = (ctypes.c_uint64 * 2)(handled, net)
    size = ctypes.c_size_t(16 if net else 8)
    ruleset = _check(libc.syscall(_CREATE_RULESET, ctypes.byref(attr), size, 0), "ruleset")
    try:
        files_only = handled & (_WRITE_FILE | _TRUNCATE)  # no creating, removing or renaming
        rules = [(path, handled if os.path.isdir(path) else files_only) for path in writable]
        for path, rights in [*rules, (devices, files_only)]:
            try:
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
            except FileNotFoundError:
                continue
            try:
                rule = _PathBeneath(rights, fd)
                _check(libc.syscall(_ADD_RULE, ruleset, _PATH_BENEATH, ctypes.byref(rule), 0), path)
            finally:
                os.close(fd)
        _check(libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
        _check(libc.syscall(_RESTRICT_SELF, ruleset, 0), "restrict_self")
    finally:
        os.close(ruleset)


@dataclass(frozen=True)
class Confinement:
    """A page process's limits, decided by the parent (which checked the kernel once per build)."""

    landlock: bool  # confine writes (the kernel has Landlock and the sandbox is not off)
    protected: tuple[str, ...]  # the project root and the site directory
    file_size_mb: int = 0  # largest file the page may write; 0 = no cap


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _user_cache_dir() -> str:
    return os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")


def scratch_plan(scratch: str, protected: tuple[str, ...]) -> tuple[list[str], str]:
    """(the folders the page may write, its temp directory) for a page whose scratch is `scratch`.

    A temp or cache directory that holds the project (a project under /tmp) would open the project
    to writes: it is left out, and the page's temp directory is then a folder of its scratch.
    """
    temp = os.path.realpath(tempfile.gettempdir())
    cache = os.path.realpath(_user_cache_dir())
    guarded = [os.path.realpath(p) for p in protected]
    writable = [scratch, "/dev/shm"]  # shm: multiprocessing's semaphores
    page_temp = temp
    if any(_inside(p, temp) for p in guarded):
        page_temp = os.path.join(scratch, "tmp")
        os.makedirs(page_temp, exist_ok=True)
    else:
        writable.append(temp)
    if not any(_inside(p, cache) for p in guarded):
        try:
            os.makedirs(cache, exist_ok=True)
            writable.append(cache)
        except OSError:
            pass  # no home to write in: the page has no cache directory either
    return writable, page_temp


def limit_file_size(megabytes: int) -> None:
    """Cap every file this process writes: a write past it fails with EFBIG (Python ignores SIGXFSZ)."""
    if megabytes > 0:
        limit = megabytes * 2**20
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def become_subreaper() -> None:
    """Orphans of this process's descendants (a detached process) are re-parented to it, not init."""
    if sys.platform.startswith("linux"):
        _check(_libc().prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "subreaper")


def _parents() -> dict[int, int]:
    """pid → parent pid of every live (not zombie) process."""
    found: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
        except OSError:
            continue  # it ended meanwhile
        try:
            stat = os.read(fd, 512)
        except OSError:
            continue
        finally:
            os.close(fd)
        state, ppid = stat[stat.rindex(b")") + 2 :].split()[:2]  # the name may hold spaces
        if state != b"Z":
            found[int(name)] = int(ppid)
    return found


def _descendants(root: int) -> list[int]:
    parents = _parents()
    below, frontier = [], {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier}
        below += sorted(frontier)
    return below


def end_descendants(root: int) -> None:
    """SIGKILL every process below `root`. A process with SIGKILL pending can fork no more, so
    looking again until no new one appears finds every child made meanwhile (a dying parent's
    children move up to the subreaper `root`, still below it)."""
    if not sys.platform.startswith("linux"):
        return
    killed: set[int] = set()
    while True:
        fresh = [pid for pid in _descendants(root) if pid not in killed]
        if not fresh:
            return
        for pid in fresh:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        killed.update(fresh)


def reap_children() -> None:
    """Collect the exit status of this process's ended children (no zombies left behind)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return

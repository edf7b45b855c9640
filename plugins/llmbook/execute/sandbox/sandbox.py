"""What a page's process may do to the machine: where it may write, how big a file, how long its
children live.

Files are guarded with Landlock (`landlock.py`), sockets with seccomp (`seccomp.py`), both of
which a process applies to itself and to everything it starts afterwards. The page may write its
scratch directory (its working directory, removed after the page), the temp directory and the
user's cache directory, never the project or the site; it may read all but the home folders, and
in those the project, Python's packages and the cache folder (`reads.py`). The page's process is a child subreaper, so every process it starts,
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
from pathlib import Path

__all__ = [
    "Confinement",
    "become_subreaper",
    "checked",
    "die_with_parent",
    "drop_capabilities",
    "end_descendants",
    "inside",
    "libc",
    "limit_file_size",
    "reap_children",
    "scratch_plan",
    "user_cache_dir",
]

_PR_SET_CHILD_SUBREAPER, _PR_CAPBSET_DROP, _CAP_SETPCAP, _CAP_LAST = 36, 24, 8, 63
_PR_SET_PDEATHSIG = 1


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [(name, ctypes.c_uint32) for name in ("effective", "permitted", "inheritable")]


def libc() -> ctypes.CDLL:
    """The C library, its errno kept for `checked` (Landlock, seccomp and prctl are called by hand)."""
    return ctypes.CDLL(None, use_errno=True)


def checked(result: int, what: str) -> int:
    """`result` of a C call; an OSError naming `what` when it failed."""
    if result < 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")
    return result


def drop_capabilities() -> None:
    """Give up every capability, for good (a build run as root): without them root's page can no
    longer read the build's `/proc/PID/environ` or pass the file rules of other users, and a
    program it starts gains none back (the bounding set is empty)."""
    if not sys.platform.startswith("linux"):
        return
    lib = libc()
    for cap in [c for c in range(_CAP_LAST + 1) if c != _CAP_SETPCAP] + [_CAP_SETPCAP]:
        lib.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0)  # EINVAL past the kernel's last: nothing held
    header, data = _CapHeader(0x20080522, 0), (_CapData * 2)()  # _LINUX_CAPABILITY_VERSION_3
    checked(lib.capset(ctypes.byref(header), data), "capset")


@dataclass(frozen=True)
class Confinement:
    """A page process's limits, decided by the parent once per build (what the kernel offers,
    what mkdocs.yml allows)."""

    landlock: bool  # confine writes and reads (the kernel has Landlock, the sandbox is not off)
    protected: tuple[str, ...]  # the project root and the site directory
    file_size_mb: int = 0  # largest file the page may write; 0 = no cap
    readable: tuple[str, ...] | None = None  # where a page may read (reads.py); None: anywhere
    hidden: tuple[str, ...] = ()  # the home folders, hidden from pages but for what is granted
    sockets: bool = False  # seccomp takes internet sockets from a page without the network


def inside(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or beneath it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def user_cache_dir() -> str:
    return os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")


def scratch_plan(
    scratch: str, protected: tuple[str, ...], hidden: tuple[str, ...] = ()
) -> tuple[list[str], str]:
    """(the folders the page may write, its temp directory) for a page whose scratch is `scratch`.

    A temp or cache directory that holds the project (a project under /tmp) would open the project
    to writes: it is left out, and the page's temp directory is then a folder of its scratch. So
    is a temp directory that holds a hidden home folder, which would open it to reads.
    """
    temp = os.path.realpath(tempfile.gettempdir())
    cache = os.path.realpath(user_cache_dir())
    guarded = [os.path.realpath(p) for p in protected]
    writable = [scratch, "/dev/shm"]  # shm: multiprocessing's semaphores
    page_temp = temp
    if any(inside(p, temp) for p in [*guarded, *hidden]):
        page_temp = os.path.join(scratch, "tmp")
        os.makedirs(page_temp, exist_ok=True)
    else:
        writable.append(temp)
    if not any(inside(p, cache) for p in guarded):
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
        checked(libc().prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "subreaper")


def die_with_parent() -> None:
    """SIGKILL this process when its parent ends: a page outlives no process that watches it (a
    cluster worker killed mid-page takes its page server, and with it the page, down)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    checked(libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
    if os.getppid() != parent:  # it ended before the call
        os.kill(os.getpid(), signal.SIGKILL)


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


def link_beside(scratch: str, root: str, folder: str) -> str:
    """The notebook's folder `folder` (relative to the project `root`) mirrored in its scratch
    folder; returns the mirror, the page's working directory. Each folder from the root down to
    the notebook's is a real folder of the scratch holding links to the project's entries, so
    `open("x.csv")`, `Image("logo.png")` and `Image("../images/logo.png")` find what they find
    in Jupyter (which runs a notebook in its own folder), while what the page writes still
    lands in the scratch folder. Only where Landlock keeps the project read-only: a write
    through a link would otherwise change the author's file."""
    parts = Path(folder).parts
    if Path(folder).is_absolute() or ".." in parts:  # not under the root: its own folder only
        parts = ()
        root = os.path.join(root, folder)
    mirror, source = scratch, root
    for part in parts:  # the folder on the way down is a real one, its siblings links
        _link_entries(mirror, source, skip=part)
        mirror, source = os.path.join(mirror, part), os.path.join(source, part)
        os.mkdir(mirror)
    _link_entries(mirror, source, skip=None)
    return mirror


def _link_entries(mirror: str, folder: str, skip: str | None) -> None:
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else ():
        target = os.path.join(mirror, name)
        if name != skip and not os.path.lexists(target):
            os.symlink(os.path.join(folder, name), target)

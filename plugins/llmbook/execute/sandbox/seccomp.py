"""A seccomp filter that leaves a page's process no internet socket: no UDP, no raw packets and no
TCP, whichever Landlock ABI the kernel has (its network rules cover TCP only).

The filter makes `socket(AF_INET | AF_INET6 | AF_PACKET, …)` fail with EACCES (PermissionError
in Python), and `io_uring_setup`, whose rings could open sockets past the filter. Unix sockets stay
(multiprocessing needs them). It holds for every process the page starts and for native code, as
the kernel checks each system call. Chosen over a network namespace because a stock Ubuntu runner
(24.04) forbids unprivileged user namespaces, while seccomp works everywhere Docker does.
"""

from __future__ import annotations

import ctypes
import errno
import platform
import sys

from llmbook.execute.sandbox.sandbox import libc

__all__ = ["deny_internet_sockets", "seccomp_available"]

_PR_SET_NO_NEW_PRIVS, _PR_GET_SECCOMP, _PR_SET_SECCOMP = 38, 21, 22
_SECCOMP_MODE_FILTER = 2
# machine → (AUDIT_ARCH_*, socket, io_uring_setup, first syscall number of a foreign ABI or 0)
_ARCHES = {
    "x86_64": (0xC000003E, 41, 425, 0x40000000),  # x32 numbers start at 0x40000000
    "aarch64": (0xC00000B7, 198, 425, 0),
}
_AF_INET, _AF_INET6, _AF_PACKET = 2, 10, 17
# BPF: load word at absolute offset, jump if equal / greater or equal, return
_LD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW, _DENY = 0x7FFF0000, 0x00050000 | errno.EACCES  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO
_KILL = 0x80000000  # SECCOMP_RET_KILL_PROCESS: a 32-bit or x32 call could name another socket
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args[0]'s low half: little-endian)


class _Instruction(ctypes.Structure):
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def seccomp_available() -> bool:
    """Whether this machine can install the filter (Linux with seccomp filters, a known CPU)."""
    if not sys.platform.startswith("linux") or platform.machine() not in _ARCHES:
        return False
    return libc().prctl(_PR_GET_SECCOMP, 0, 0, 0, 0) >= 0


def _program(
    arch: int, socket: int, io_uring: int, foreign: int
) -> list[tuple[int, int, int, int]]:
    """(code, jump if true, jump if false, k) instructions; jumps count the instructions skipped."""
    head = [(_LD, 0, 0, _ARCH), (_JEQ, 1, 0, arch), (_RET, 0, 0, _KILL), (_LD, 0, 0, _NR)]
    if foreign:
        head += [(_JGE, 0, 1, foreign), (_RET, 0, 0, _KILL)]
    body = [
        (_JEQ, 0, 1, io_uring),
        (_RET, 0, 0, _DENY),
        (_JEQ, 1, 0, socket),
        (_RET, 0, 0, _ALLOW),
        (_LD, 0, 0, _ARG0),
        (_JEQ, 3, 0, _AF_INET),
        (_JEQ, 2, 0, _AF_INET6),
        (_JEQ, 1, 0, _AF_PACKET),
        (_RET, 0, 0, _ALLOW),
        (_RET, 0, 0, _DENY),
    ]
    return head + body


def deny_internet_sockets() -> None:
    """From now on this process and its children can open no internet or packet socket."""
    if not seccomp_available():
        raise OSError("this machine has no seccomp filters")
    code = _program(*_ARCHES[platform.machine()])
    instructions = (_Instruction * len(code))(*[_Instruction(*step) for step in code])
    program = _Program(len(code), instructions)
    lib = libc()
    for call, args in (
        (_PR_SET_NO_NEW_PRIVS, (1, 0, 0, 0)),
        (_PR_SET_SECCOMP, (_SECCOMP_MODE_FILTER, ctypes.byref(program), 0, 0)),
    ):
        if lib.prctl(call, *args) != 0:
            number = ctypes.get_errno()
            raise OSError(number, f"seccomp: {errno.errorcode.get(number, number)}")

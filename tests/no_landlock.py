"""Run a command as on a kernel without Landlock (older than 5.13, or built without it, as on
Gradescope's runners and many managed Kubernetes nodes).

    python no_landlock.py COMMAND...

A seccomp filter, inherited by everything the command starts, answers Landlock's three system
calls with ENOSYS, which is what such a kernel says; nothing else changes. x86_64 only.
"""

from __future__ import annotations

import ctypes
import os
import platform
import sys

LANDLOCK_CALLS = (444, 445, 446)  # landlock_create_ruleset, landlock_add_rule, landlock_restrict_self
AUDIT_ARCH_X86_64 = 0xC000003E
ENOSYS = 38
PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
LOAD_WORD, JUMP_IF_EQUAL, RETURN = 0x20, 0x15, 0x06
ALLOW, ERRNO = 0x7FFF0000, 0x00050000


class _Instruction(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8), ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


def _filter() -> list[tuple[int, int, int, int]]:
    """Allow everything but Landlock's calls (other architectures' numbers pass untouched)."""
    count = len(LANDLOCK_CALLS)
    program = [(LOAD_WORD, 0, 0, 4), (JUMP_IF_EQUAL, 0, count + 1, AUDIT_ARCH_X86_64), (LOAD_WORD, 0, 0, 0)]
    program += [(JUMP_IF_EQUAL, count - index, 0, number) for index, number in enumerate(LANDLOCK_CALLS)]
    return program + [(RETURN, 0, 0, ALLOW), (RETURN, 0, 0, ERRNO | ENOSYS)]


def main(command: list[str]) -> int:
    if not command or platform.machine() != "x86_64":
        print(__doc__, file=sys.stderr)
        return 2
    instructions = _filter()
    array = (_Instruction * len(instructions))(*[_Instruction(*instruction) for instruction in instructions])
    program = _Program(len(instructions), array)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) or libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                                                                 ctypes.byref(program), 0, 0):
        print(f"no_landlock: the filter could not be installed: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
        return 2
    os.execvp(command[0], command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

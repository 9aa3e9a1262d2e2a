"""Run a command where no user namespace can be made, as on a machine that forbids them.

    python no_user_namespaces.py COMMAND...      (as root)

Made for the kit's tests, without touching the machine's settings: the command runs in a user
namespace of its own that maps every uid to itself, whose limit on further user namespaces is
0 (the limit applies to that namespace and everything below it). Root there may still drop to
another user (setpriv), who then cannot create a user namespace: ENOSPC.
"""

from __future__ import annotations

import ctypes
import os
import sys

CLONE_NEWUSER = 0x10000000


def main(command: list[str]) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    to_child, from_parent = os.pipe()
    to_parent, from_child = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(from_parent)
        os.close(to_parent)
        if libc.unshare(CLONE_NEWUSER) != 0:
            raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
        os.write(from_child, b"ready")
        os.read(to_child, 1)  # until the parent has written the maps
        os.setresgid(0, 0, 0)
        os.setresuid(0, 0, 0)
        with open("/proc/sys/user/max_user_namespaces", "w") as limit:
            limit.write("0")
        os.execvp(command[0], command)
    os.close(from_child)
    os.close(to_child)
    os.read(to_parent, 5)
    for name in ("uid_map", "gid_map"):
        with open(f"/proc/{pid}/{name}", "w") as mapping:
            mapping.write("0 0 4294967295")  # every id is itself
    os.write(from_parent, b"go")
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Run a command in a fresh session keyring that holds a secret, as a grader started by a systemd
service or a ``pam_keyinit`` login would be (workers must not inherit it).

    python in_session_keyring.py DESCRIPTION PAYLOAD -- COMMAND...
"""

from __future__ import annotations

import ctypes
import os
import sys

ADD_KEY, KEYCTL = 248, 250  # x86_64
KEYCTL_JOIN_SESSION_KEYRING = 1
KEY_SPEC_SESSION_KEYRING = -3


def main(argv: list[str]) -> None:
    description, payload, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: in_session_keyring.py DESCRIPTION PAYLOAD -- COMMAND...")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    if libc.syscall(KEYCTL, KEYCTL_JOIN_SESSION_KEYRING, None) < 0:
        raise SystemExit(f"cannot join a new session keyring: {os.strerror(ctypes.get_errno())}")
    secret = payload.encode()
    if libc.syscall(ADD_KEY, b"user", description.encode(), secret, len(secret), KEY_SPEC_SESSION_KEYRING) < 0:
        raise SystemExit(f"cannot add the key: {os.strerror(ctypes.get_errno())}")
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])

"""What ps, top and the out-of-memory killer's log call the kit's processes (15 characters at most)."""

from __future__ import annotations

import ctypes

SERVER_NAME = "kit-forkserver"
SHARD_NAME = "kit-shard"
SUPERVISOR_NAME = "kit-supervisor"
WORKER_NAME = "kit-worker"
_PR_SET_NAME = 15


def name_process(name: str) -> None:
    """Name the calling process (its threads keep their own names)."""
    ctypes.CDLL(None).prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)

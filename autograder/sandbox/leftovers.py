"""Processes that workers of a grader's own users may leave behind, and how they are cleared.

A worker is killed with everything it started when its tests are done (``session``); the sweep
also clears what is left when the grader itself stops early (a refusal, a dead shard) and no
shard got to close its workers. Nothing here imports torch: the grading command uses it.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable

import psutil


def kill_until_none_left(victims: Callable[[], list[psutil.Process]], pause: float) -> None:
    """Kill the processes ``victims()`` finds, again and again while a fork bomb adds more
    (at most 100 rounds, ``pause`` seconds apart)."""
    for _ in range(100):
        found = victims()
        if not found:
            return
        for process in found:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        time.sleep(pause)


def sweep_user(uid: int) -> None:
    """Kill every process of a worker's own user (those that escaped with setsid, say).

    Its uids are read from each process's status (psutil), not from the owner of /proc/<pid>,
    which is root for a process that made itself non-dumpable.
    """
    kill_until_none_left(lambda: [process for process in psutil.process_iter(["uids", "status"])
                                  if uid in (process.info["uids"] or ())
                                  and process.info["status"] != psutil.STATUS_ZOMBIE], pause=0.01)

"""Processes that workers of a grader's own users may leave behind, and how they are cleared.

A worker is killed with everything it started when its tests are done (``session``); the sweep
also clears what is left when the grader itself stops early (a refusal, a dead shard) and no
shard got to close its workers. Nothing here imports torch: the grading command uses it.
"""

from __future__ import annotations

import contextlib
import time

import psutil


def sweep_user(uid: int) -> None:
    """Kill every process of a worker's own user (those that escaped with setsid, say).

    Its uids are read from each process's status (psutil), not from the owner of /proc/<pid>,
    which is root for a process that made itself non-dumpable.
    """
    for _ in range(100):
        victims = [process for process in psutil.process_iter(["uids", "status"])
                   if uid in (process.info["uids"] or ()) and process.info["status"] != psutil.STATUS_ZOMBIE]
        if not victims:
            return
        for process in victims:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.kill()
        time.sleep(0.01)


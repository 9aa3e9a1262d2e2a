"""What workers of a grader's own users may leave behind, and how it is cleared.

A worker is killed with everything it started when its tests are done (``session``); these
sweeps also clear what is left when the grader itself stops early (a refusal, a dead shard)
and no shard got to close its workers. Nothing here imports torch: the grading command uses it.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
import time
from pathlib import Path

import psutil

# What a scratch folder made by worker.confinement outside namespaces is called (mkdtemp).
SCRATCH_PREFIX = "attention-worker-"


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


def remove_scratch_of(uids: set[int]) -> None:
    """Remove the scratch folders that workers of ``uids`` made in the machine's temporary folder."""
    for folder in Path(tempfile.gettempdir()).glob(f"{SCRATCH_PREFIX}*"):
        with contextlib.suppress(OSError):
            if folder.is_dir() and not folder.is_symlink() and folder.stat().st_uid in uids:
                shutil.rmtree(folder, ignore_errors=True)

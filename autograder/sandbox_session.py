"""Open one notebook as a Submission in a sandboxed worker (for running hidden tests by hand)."""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from autograder.forkserver import ForkServer
from autograder.notebook_code import extract_notebook_file
from autograder.paths import KIT_ROOT
from autograder.probe_client import Submission
from autograder.sandbox import SandboxConfig
from autograder.worker_session import WorkerSession

# Each job slot of the engine runs its workers as a user of its own (base + slot), so a sweep
# of that user kills only its workers; hand-run tests use a uid apart from those slots.
WORKER_UID_BASE = 61000
MANUAL_WORKER_UID = 61999


def standard_sandbox(uid: int, hide: list[str], memory_bytes: int = 4 * 2**30) -> SandboxConfig:
    """The worker's sandbox: out of sight are the kit (solutions, hidden tests, git history),
    the grader's home folder and ``hide`` (submissions, outputs); the Python installation stays
    visible read-only so student imports work. ``uid`` is used only when running as root."""
    keep = sorted({sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))})
    return SandboxConfig(memory_bytes=memory_bytes, uid=uid if os.geteuid() == 0 else None,
                         hide_paths=[str(KIT_ROOT), str(Path.home()), *hide], keep_paths=keep)


@contextlib.contextmanager
def open_notebook_submission(path: Path, timeout: float = 10.0):
    """A Submission for ``path``; the worker and its fork server are gone on exit."""
    code = extract_notebook_file(path)
    forkserver = ForkServer()
    sandbox = standard_sandbox(MANUAL_WORKER_UID, [str(path.resolve().parent)])
    session = WorkerSession(forkserver, code, sandbox, timeout)
    try:
        ready = session.start()
        yield Submission(session, set(ready["defined"]), code.problems + ready["problems"])
    finally:
        session.close()
        forkserver.close()

"""What a worker sees and who it runs as: the standard sandbox of a grading run, and worker uids."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from autograder.course.paths import KIT_ROOT
from autograder.worker.config import SandboxConfig

# Workers run as users of their own: each grader process gets a block of uids (from its pid)
# and each of its job slots one uid in it, so sweeping a uid kills that slot's workers and no
# one else's, even with several graders on one machine. Hand-run tests use the block's last uid.
WORKER_UID_BASE = 200_000
UIDS_PER_GRADER = 64
MANUAL_SLOT = UIDS_PER_GRADER - 1
_GRADER_BLOCKS = 100_000


def worker_uids_of(grader_pid: int) -> range:
    """The uids the workers of the grader process ``grader_pid`` may run as."""
    first = WORKER_UID_BASE + (grader_pid % _GRADER_BLOCKS) * UIDS_PER_GRADER
    return range(first, first + UIDS_PER_GRADER)


def worker_uid(slot: int) -> int:
    """The uid of job slot ``slot`` (0 to UIDS_PER_GRADER - 2) of this grader process."""
    return worker_uids_of(os.getpid())[slot]


def is_worker_uid(uid: int) -> bool:
    """Whether ``uid`` belongs to some grader's worker (for checks that nothing is left)."""
    return WORKER_UID_BASE <= uid < WORKER_UID_BASE + _GRADER_BLOCKS * UIDS_PER_GRADER


# The top-level folders a worker sees: the system's programs, libraries and configuration.
# Every other one (/home, /root, /opt, /srv, /work, /mnt, ...) is covered, so a second copy of
# the kit or another course's files elsewhere on the machine stay out of sight too.
SYSTEM_FOLDERS = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "sys",
                  "tmp", "var", "run"}


def _other_top_level_folders() -> list[str]:
    return sorted(str(path) for path in Path("/").iterdir()
                  if path.name not in SYSTEM_FOLDERS and path.is_dir() and not path.is_symlink())


def python_paths() -> list[str]:
    """The Python installation a worker needs: resolved like the hidden paths, or a kit reached
    through a symlink would hide its own venv."""
    paths = (sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable)))
    return sorted({os.path.realpath(path) for path in paths})


def standard_sandbox(uid: int, hide: list[str], memory_bytes: int = 4 * 2**30) -> SandboxConfig:
    """The worker's sandbox: out of sight are the kit (solutions, hidden tests, git history),
    the grader's home folder, every top-level folder but the system's, and ``hide``
    (submissions, outputs); the Python installation stays visible read-only so student imports
    work. ``uid`` is used only when running as root."""
    return SandboxConfig(memory_bytes=memory_bytes, uid=uid if os.geteuid() == 0 else None,
                         hide_paths=[str(KIT_ROOT), str(Path.home()), *_other_top_level_folders(), *hide],
                         keep_paths=python_paths())


def closed_to_others(path: str) -> tuple[str, int] | None:
    """The first folder on the way to ``path`` (or ``path`` itself) that a user of its own cannot
    pass through or read, with its mode; None when every step is open to others."""
    current = Path("/")
    for part in [*Path(path).parts[1:], None]:
        try:
            mode = current.stat().st_mode
        except OSError:
            return str(current), 0
        needed = 0o001 if part is not None else 0o005  # pass through folders; read the last one
        if mode & needed != needed:
            return str(current), mode & 0o777
        if part is not None:
            current = current / part
    return None

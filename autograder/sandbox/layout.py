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


def worker_uid(slot: int) -> int:
    """The uid of job slot ``slot`` (0 to UIDS_PER_GRADER - 2) of this grader process."""
    return WORKER_UID_BASE + (os.getpid() % _GRADER_BLOCKS) * UIDS_PER_GRADER + slot


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


def standard_sandbox(uid: int, hide: list[str], memory_bytes: int = 4 * 2**30) -> SandboxConfig:
    """The worker's sandbox: out of sight are the kit (solutions, hidden tests, git history),
    the grader's home folder, every top-level folder but the system's, and ``hide``
    (submissions, outputs); the Python installation stays visible read-only so student imports
    work. ``uid`` is used only when running as root."""
    # Resolved like the hidden paths, or a kit reached through a symlink would hide its own venv.
    python_paths = (sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable)))
    keep = sorted({os.path.realpath(path) for path in python_paths})
    return SandboxConfig(memory_bytes=memory_bytes, uid=uid if os.geteuid() == 0 else None,
                         hide_paths=[str(KIT_ROOT), str(Path.home()), *_other_top_level_folders(), *hide],
                         keep_paths=keep)

"""What a worker sees and who it runs as: the standard sandbox of a grading run, and worker uids."""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import replace
from pathlib import Path

from autograder.paths import KIT_ROOT
from autograder.worker.config import SandboxConfig
from autograder.worker.nvidia import CUDA_ENVIRONMENT, nvidia_device_nodes

# Workers run as users of their own: each grader process gets a block of uids and each of its
# job slots one uid in it, so sweeping a uid kills that slot's workers and no one else's, even
# with several graders on one machine. Hand-run tests use the block's last uid. The block comes
# from the grader's pid and its PID namespace: graders in two containers on one host often have
# the same pid, and must still not share uids (a fork bomb in one would use up the other's
# process limit, which counts per uid). ``ATTENTION_KIT_UID_BLOCK`` chooses the block instead.
WORKER_UID_BASE = 200_000
UIDS_PER_GRADER = 64
MANUAL_SLOT = UIDS_PER_GRADER - 1
GRADER_BLOCKS = 100_000
UID_BLOCK_VARIABLE = "ATTENTION_KIT_UID_BLOCK"


def _pid_namespace() -> int:
    try:
        return os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return 0


def worker_uids_of(grader_pid: int) -> range:
    """The uids the workers of the grader process ``grader_pid`` (of this PID namespace) may run as."""
    chosen = os.environ.get(UID_BLOCK_VARIABLE, "")
    block = int(chosen) if chosen.isdigit() else grader_pid + 7919 * _pid_namespace()
    first = WORKER_UID_BASE + (block % GRADER_BLOCKS) * UIDS_PER_GRADER
    return range(first, first + UIDS_PER_GRADER)


def worker_uid(slot: int) -> int:
    """The uid of job slot ``slot`` (0 to UIDS_PER_GRADER - 2) of this grader process."""
    return worker_uids_of(os.getpid())[slot]


def is_worker_uid(uid: int) -> bool:
    """Whether ``uid`` belongs to some grader's worker (for checks that nothing is left)."""
    return WORKER_UID_BASE <= uid < WORKER_UID_BASE + GRADER_BLOCKS * UIDS_PER_GRADER


# The top-level folders a worker sees: the system's programs, libraries and configuration.
# Every other one (/home, /root, /opt, /srv, /work, /mnt, ...) is covered, so a second copy of
# the kit or another course's files elsewhere on the machine stay out of sight too.
SYSTEM_FOLDERS = {"bin", "sbin", "lib", "lib32", "lib64", "libx32", "usr", "etc", "dev", "proc", "sys",
                  "tmp", "var", "run"}


def _other_top_level_folders() -> list[str]:
    return sorted(str(path) for path in Path("/").iterdir()
                  if path.name not in SYSTEM_FOLDERS and path.is_dir() and not path.is_symlink())


# The installed packages every worker imports (the fork server preloads them).
WORKER_PACKAGES = ("torch", "numpy", "matplotlib")


def python_paths() -> list[str]:
    """The Python installation a worker needs, and the folders its packages were installed in
    where a ``.pth`` file adds them from elsewhere (a venv over a GPU image's Python): resolved like
    the hidden paths, or a kit reached through a symlink would hide its own venv."""
    paths = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    for package in WORKER_PACKAGES:
        spec = importlib.util.find_spec(package)  # found, not imported
        if spec and spec.origin:
            paths.append(os.path.dirname(os.path.dirname(spec.origin)))
    return sorted({os.path.realpath(path) for path in paths})


def python_probe_files() -> list[str]:
    """A file of the standard library and one of torch: a worker that cannot read them cannot run
    correct code (found without importing torch, which the grading command never does)."""
    torch_spec = importlib.util.find_spec("torch")
    files = [os.__file__, *([torch_spec.origin] if torch_spec and torch_spec.origin else [])]
    return [os.path.realpath(path) for path in files]


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


# The share of a GPU's memory that all of a run's workers may take together (the rest is left to
# the shards' references and to CUDA itself); each of ``slots`` concurrent workers gets its part.
GPU_MEMORY_SHARE = 0.8


def with_cuda(sandbox: SandboxConfig, slots: int) -> SandboxConfig:
    """``sandbox`` for a worker that tests CUDA: the NVIDIA device nodes open to it, its part of
    the GPU's memory, the devices CUDA_VISIBLE_DEVICES names, and no address-space limit."""
    return replace(sandbox, cuda=True, device_nodes=nvidia_device_nodes(), gpu_memory_fraction=GPU_MEMORY_SHARE / slots,
                   environment={name: os.environ[name] for name in CUDA_ENVIRONMENT if name in os.environ})

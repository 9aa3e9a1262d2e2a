"""Each worker in memory and process cgroups of its own, under the grading run's.

Address-space limits (RLIMIT_AS) do not count memory a worker holds outside its address space
(memfd pages, tmpfs files, kernel memory); a cgroup does, and its limit makes the kernel's
out-of-memory killer pick the worker, never the grader. The grading command makes the run's
groups (``make_run_groups``, as root); each worker, still root and before any student code,
makes its own group inside them and joins it (``join``). Both cgroup versions are handled: v1
with a ``memory`` and a ``pids`` hierarchy, v2 with one unified hierarchy.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
# Room beyond the worker's own memory allowance for its supervisor and the kernel's bookkeeping.
_OVERHEAD_BYTES = 64 * 2**20


def _current(controller: str | None) -> str:
    """This process's cgroup path in the hierarchy of ``controller`` (None: the v2 hierarchy)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if (controller is None and controllers == "") or (controller and controller in controllers.split(",")):
            return path.lstrip("/")
    raise OSError(f"this process is in no {controller or 'unified'} cgroup")


def make_run_groups(name: str) -> list[str]:
    """The run's groups, made under this process's own (so a container's limit still applies to
    the workers): one folder per hierarchy. Raises OSError where cgroups cannot be made."""
    if (CGROUP_ROOT / "cgroup.controllers").is_file():  # v2
        group = CGROUP_ROOT / _current(None) / name
        group.mkdir(exist_ok=True)
        (group / "cgroup.subtree_control").write_text("+memory +pids")
        return [str(group)]
    groups = []
    for controller in ("memory", "pids"):
        group = CGROUP_ROOT / controller / _current(controller) / name
        group.mkdir(exist_ok=True)
        groups.append(str(group))
    return groups


def join(run_groups: list[str], memory_bytes: int, max_processes: int) -> list[str]:
    """Make this process's own group in each of the run's, set its limits, and join it; returns
    the groups made (the grader removes them once the worker is gone)."""
    own = []
    name = f"worker-{os.getpid()}"
    for run_group in run_groups:
        group = Path(run_group) / name
        group.mkdir()
        own.append(str(group))
        limits = {"memory.max": memory_bytes + _OVERHEAD_BYTES, "memory.swap.max": 0, "pids.max": max_processes,
                  "memory.limit_in_bytes": memory_bytes + _OVERHEAD_BYTES,
                  "memory.memsw.limit_in_bytes": memory_bytes + _OVERHEAD_BYTES}
        for file, value in limits.items():
            if (group / file).is_file():
                (group / file).write_text(str(value))
        (group / "cgroup.procs").write_text(str(os.getpid()))
    return own


def remove(groups: list[str]) -> None:
    """Remove groups whose processes are gone (a group that still holds one stays)."""
    for group in groups:
        with contextlib.suppress(OSError):
            os.rmdir(group)

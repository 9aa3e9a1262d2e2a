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
from enum import Enum
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
# Room beyond the worker's own memory allowance for its supervisor and the kernel's bookkeeping.
WORKER_OVERHEAD_BYTES = 64 * 2**20


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
        limits = {"memory.max": memory_bytes + WORKER_OVERHEAD_BYTES, "memory.swap.max": 0, "pids.max": max_processes,
                  "memory.limit_in_bytes": memory_bytes + WORKER_OVERHEAD_BYTES,
                  "memory.memsw.limit_in_bytes": memory_bytes + WORKER_OVERHEAD_BYTES}
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


class OomKill(Enum):
    """Why the out-of-memory killer took a worker: its own limit, or memory pressure from outside
    (the container or machine it runs in: another process's use, not this student's)."""

    OWN_LIMIT = "own limit"
    FROM_OUTSIDE = "from outside"


def oom_kill(groups: list[str]) -> OomKill | None:
    """Whether the out-of-memory killer took a process of these (a worker's own) groups, and
    whose limit was reached; None when it took none (or nothing can be read).

    The kernel counts a kill in the victim's group (v1: ``memory.oom_control``'s oom_kill; v2:
    ``memory.events``' oom_kill), whichever group's limit was reached. A worker whose own group
    never came to its limit (its peak usage stayed below it) was killed for a limit further up: the
    container's or the machine's, that is, for memory that others used.
    """
    killed = own_limit = False
    for group in map(Path, groups):
        events = _counters(group, "memory.events") or _counters(group, "memory.oom_control")
        if events.get("oom_kill", 0) > 0:
            killed = True
            own_limit = own_limit or events.get("max", 0) > 0 or any(
                _number(group / peak) >= _number(group / limit) - _LIMIT_SLACK_BYTES > 0
                for peak, limit in _PEAK_AND_LIMIT)
    if not killed:
        return None
    return OomKill.OWN_LIMIT if own_limit else OomKill.FROM_OUTSIDE


# Files of a group's peak memory use and of its limit, per cgroup version, and how close to the
# limit a peak counts as reaching it (the kernel charges in batches of pages).
_PEAK_AND_LIMIT = (("memory.max_usage_in_bytes", "memory.limit_in_bytes"),
                   ("memory.memsw.max_usage_in_bytes", "memory.memsw.limit_in_bytes"),
                   ("memory.peak", "memory.max"))
_LIMIT_SLACK_BYTES = 2 * 2**20


def _counters(group: Path, name: str) -> dict[str, int]:
    try:
        lines = (group / name).read_text().splitlines()
    except OSError:
        return {}
    return {key: int(value) for key, _, value in (line.partition(" ") for line in lines) if value.isdigit()}


def _number(path: Path) -> int:
    try:
        return int(path.read_text())
    except (OSError, ValueError):
        return 0

"""How much memory each worker may use: what the container (or machine) leaves the grader, less
what the grader's own processes need, shared among the job slots.

A worker's own limit must always trip before the container's: then a student who allocates too
much loses their own test, named as a memory limit. Were the container's limit reached first,
the kernel would kill a worker that was within its own allowance, which the grader must read as
the machine's failure (memory others used) and stop the run. ``--memory-gib`` can only lower the
figure planned here; the doctor prints it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from autograder.worker.cgroups import CGROUP_ROOT, WORKER_OVERHEAD_BYTES

MiB = 2**20
# What a grading shard adds once it runs (pytest, the references, replies in flight), beyond the
# warm fork server it shares its pages with: about 70 MiB measured on the example class.
SHARD_BYTES = 128 * MiB
# Left free besides: the grading command's own growth while it writes the outputs, and the kernel.
MARGIN_BYTES = 32 * MiB
# Below this a worker cannot run the references' tests (they need a few MiB of their own).
MIN_WORKER_BYTES = 16 * MiB
_NO_LIMIT = 2**60  # cgroup v1 writes "no limit" as a huge number


@dataclass(frozen=True)
class MemoryPlan:
    """Each worker's memory and where the figure comes from."""

    fits: int  # bytes a worker's own allocations may take within the container (or machine)
    asked: int  # --memory-gib
    free: int  # what the container (or machine) had left when the grader was warm
    within: str  # "the container's memory limit of 768 MiB" / "the machine's memory"
    slots: int

    @property
    def per_worker(self) -> int:
        """The limit each worker gets: what fits, or less when --memory-gib asks for less."""
        return max(0, min(self.asked, self.fits))

    @property
    def enough(self) -> bool:
        return self.per_worker >= MIN_WORKER_BYTES

    def text(self) -> str:
        """One line for the doctor and the grader's refusal."""
        if self.asked < self.fits:
            source = f"as --memory-gib asks ({self.asked / 2**30:g} GiB; {_mib(self.fits)} would fit)"
        else:
            source = (f"what is free within {self.within} ({_mib(self.free)} once the grader was started), less"
                      f" {_mib(SHARD_BYTES)} per grading shard and {_mib(MARGIN_BYTES)} to spare, shared among"
                      f" {self.slots} job slot{'s' if self.slots != 1 else ''}")
        return f"{_mib(self.per_worker)} per worker: {source}"


def _mib(value: int) -> str:
    return f"{max(0, value) // MiB} MiB"


def plan_memory(asked: int, slots: int) -> MemoryPlan:
    """The plan for ``slots`` concurrent workers, asked ``asked`` bytes each; call it once the fork
    server is warm (it counts what is in use then)."""
    free, within = _free_memory()
    fits = (free - slots * SHARD_BYTES - MARGIN_BYTES) // slots - WORKER_OVERHEAD_BYTES
    return MemoryPlan(fits, asked, free, within, slots)


def _free_memory() -> tuple[int, str]:
    """Bytes free for the grader's workers and shards, and what bounds them: the tightest memory
    cgroup around this process (a container's limit), or the machine's available memory."""
    free, within = _meminfo("MemAvailable"), "the machine's memory"
    for group in _enclosing_groups():
        limit, used = _limit_and_use(group)
        if limit is not None and limit - used < free:
            free, within = limit - used, f"the container's memory limit of {_mib(limit)}"
    return free, within


def _enclosing_groups() -> list[Path]:
    """This process's memory cgroup and each one above it, up to the hierarchy's root."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if controllers == "" and (CGROUP_ROOT / "cgroup.controllers").is_file():  # v2
            root = CGROUP_ROOT
        elif "memory" in controllers.split(","):  # v1
            root = CGROUP_ROOT / "memory"
        else:
            continue
        group = root / path.lstrip("/")
        groups = [group, *group.parents]
        return [folder for folder in groups if folder.is_relative_to(root) and folder.is_dir()]
    return []


def _limit_and_use(group: Path) -> tuple[int | None, int]:
    """A group's memory limit (None: none) and what it uses that cannot be reclaimed: its use less
    its file cache, active or not. The kernel drops clean file pages before it kills anyone, and a
    fresh container is charged for every page of torch's libraries it reads first (about 240 MiB),
    so counting them would refuse a container that the same files, cached, leave room in."""
    for limit_file, use_file, prefix in (("memory.max", "memory.current", ""),
                                         ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_")):
        try:
            text = (group / limit_file).read_text().strip()
        except OSError:
            continue
        limit = None if text == "max" or int(text) >= _NO_LIMIT else int(text)
        try:
            used = int((group / use_file).read_text())
            stats = dict(line.split() for line in (group / "memory.stat").read_text().splitlines())
            used -= sum(int(stats.get(f"{prefix}{lru}_file", 0)) for lru in ("active", "inactive"))
        except (OSError, ValueError):
            used = 0
        return limit, max(0, used)
    return None, 0


def _meminfo(field: str) -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value.split()[0]) * 1024
    return 0

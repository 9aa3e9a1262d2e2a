"""Run a command as a container runs it: root without CAP_SYS_ADMIN (so no namespaces for the
grader to make), in a memory cgroup with a CPU quota. Gradescope's defaults: 768 MB, half a CPU.

Needs root, ``setpriv`` and cgroups (v1 or v2); ``container_skip_reason`` says when they are missing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.course.paths import KIT_ROOT
from autograder.sandbox.layout import closed_to_others

CGROUP_ROOT = Path("/sys/fs/cgroup")
DROP_SYS_ADMIN = ["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"]


@dataclass
class ContainerRun:
    result: subprocess.CompletedProcess
    peak_mb: float  # the most memory the container held that the kernel could not reclaim (no page cache)


def container_skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "simulating a container needs root"
    if shutil.which("setpriv") is None:
        return "setpriv (util-linux) is needed to drop CAP_SYS_ADMIN"
    if not (CGROUP_ROOT / "memory").is_dir() and not (CGROUP_ROOT / "cgroup.controllers").is_file():
        return "no memory cgroup to limit the container's memory"
    closed = closed_to_others(os.path.realpath(sys.prefix)) or closed_to_others(str(KIT_ROOT))
    if closed:
        folder, mode = closed
        return (f"the kit or its virtual environment sits behind {folder} (mode {mode:o}), closed to other users:"
                " a container's workers cannot read it, so the grader rightly refuses to grade here"
                " (test_fallback_isolation's private-python mode checks that refusal)")
    return None


@contextlib.contextmanager
def _cgroups(memory_mb: int, cpu: float) -> Iterator[tuple[list[Path], Path]]:
    """Fresh cgroups with the limits; yields the files to write a pid into, and a function that
    reads the memory the cgroup holds now (what the kernel cannot reclaim: anonymous and shared)."""
    name = f"attention-kit-test-{os.getpid()}"
    quota = int(cpu * 100_000)
    if (CGROUP_ROOT / "memory").is_dir():  # cgroups v1
        memory, cpu_group = CGROUP_ROOT / "memory" / name, CGROUP_ROOT / "cpu" / name
        memory.mkdir()
        cpu_group.mkdir()
        (memory / "memory.limit_in_bytes").write_text(str(memory_mb * 2**20))
        (cpu_group / "cpu.cfs_period_us").write_text("100000")
        (cpu_group / "cpu.cfs_quota_us").write_text(str(quota))
        groups, stat, held = [memory / "tasks", cpu_group / "tasks"], memory / "memory.stat", ("rss", "shmem")
        folders = [memory, cpu_group]
    else:  # cgroups v2
        group = CGROUP_ROOT / name
        group.mkdir()
        (group / "memory.max").write_text(f"{memory_mb}M")
        (group / "cpu.max").write_text(f"{quota} 100000")
        groups, stat, held, folders = [group / "cgroup.procs"], group / "memory.stat", ("anon", "shmem"), [group]

    def holding() -> int:
        values = dict(line.split() for line in stat.read_text().splitlines())
        return sum(int(values.get(key, 0)) for key in held)

    try:
        yield groups, holding
    finally:
        for folder in folders:
            with contextlib.suppress(OSError):
                folder.rmdir()


def run_as_container(command: list[str], *, memory_mb: int = 768, cpu: float = 0.5, timeout: float = 600,
                     **kwargs) -> ContainerRun:
    """Run ``command`` inside fresh cgroups, without CAP_SYS_ADMIN; returns its result and the
    peak of the memory it held (sampled every 20 ms: page cache, which the kernel reclaims before
    it kills anything, is not counted)."""
    with _cgroups(memory_mb, cpu) as (groups, holding):
        join = "; ".join(f"echo $$ > {group}" for group in groups)
        wrapped = ["bash", "-c", f'{join}; exec "$@"', "bash", *DROP_SYS_ADMIN, *command]
        peak, done = [0], threading.Event()

        def sample() -> None:
            while not done.wait(0.02):
                peak[0] = max(peak[0], holding())

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        try:
            result = subprocess.run(wrapped, capture_output=True, text=True, timeout=timeout, **kwargs)
        finally:
            done.set()
            sampler.join()
    return ContainerRun(result, peak[0] / 2**20)

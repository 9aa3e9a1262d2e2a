"""Run a command as a container runs it: root without CAP_SYS_ADMIN (so no namespaces for the
grader to make), in a memory cgroup with a CPU quota. Gradescope's defaults: 768 MB, half a CPU.

In a container the Python installation is the image's, readable by every user (Gradescope's
``setup.sh`` makes ``/autograder/venv``). The kit's own checkout may sit in a private folder (a
clone into ``mktemp -d``, pyenv under root's 0700 home), where a worker of another user could not
read it: ``open_to_others`` makes it readable as an image's would be, in a private mount
namespace only (nothing on the machine changes), so the container tests run wherever CI clones.

Needs root, ``setpriv``, ``unshare`` and cgroups (v1 or v2); ``container_skip_reason`` says when
they are missing.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.paths import KIT_ROOT

CGROUP_ROOT = Path("/sys/fs/cgroup")
# Runs a command as on a kernel without Landlock (Gradescope's runners, many Kubernetes nodes).
NO_LANDLOCK = Path(__file__).resolve().with_name("no_landlock.py")
DROP_SYS_ADMIN = ["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"]


@dataclass
class ContainerRun:
    result: subprocess.CompletedProcess
    peak_mb: float  # the most memory the container held that the kernel could not reclaim (no page cache)


def container_skip_reason() -> str | None:
    if os.geteuid() != 0:
        return "simulating a container needs root"
    if shutil.which("setpriv") is None or shutil.which("unshare") is None:
        return "setpriv and unshare (util-linux) are needed to drop CAP_SYS_ADMIN and open the Python installation"
    if not (CGROUP_ROOT / "memory").is_dir() and not (CGROUP_ROOT / "cgroup.controllers").is_file():
        return "no memory cgroup to limit the container's memory"
    return None


def _closed_ancestor(path: Path) -> Path | None:
    """The outermost folder above ``path`` that other users cannot pass through (root's home)."""
    for ancestor in reversed(path.parents):
        if not os.stat(ancestor).st_mode & 0o001:
            return ancestor
    return None


def open_to_others(then: list[str]) -> list[str]:
    """A command prefix that runs ``then`` and the rest with the kit and its Python installation
    reachable by every user, as in a container image. Run it in a private mount namespace (it
    mounts): each folder closed to others above them (root's home, a ``mktemp -d`` folder) is
    covered by an empty tmpfs of mode 0755, with the kit and the installation bound back in."""
    needed = sorted({Path(os.path.realpath(p)) for p in (sys.base_prefix, sys.prefix)} | {KIT_ROOT})
    moves = [(path, closed, f"/tmp/.open-to-others-{os.getpid()}-{index}")
             for index, path in enumerate(needed) if (closed := _closed_ancestor(path)) is not None]
    quote = lambda path: shlex.quote(str(path))  # noqa: E731
    script = ["set -e"]
    script += [f"mkdir -p {staging} && mount --bind {quote(path)} {staging}" for path, _, staging in moves]
    script += [f"mount -t tmpfs -o mode=0755 tmpfs {quote(closed)}" for closed in sorted({c for _, c, _ in moves})]
    script += [f"mkdir -p {quote(path)} && mount --move {staging} {quote(path)} && rmdir {staging}"
               for path, _, staging in moves]
    script.append(f'exec {" ".join(shlex.quote(part) for part in then)} "$@"')
    return ["sh", "-c", "\n".join(script), "sh"]


# A private mount namespace for ``open_to_others``, left before the command runs.
PRIVATE_MOUNTS = ["unshare", "--mount", "--propagation", "private"]


def _remove_empty_tree(group: Path) -> None:
    """Remove a cgroup and the groups under it, deepest first (the kernel keeps any that holds a
    process, and then the mkdir that follows says so)."""
    for child in group.iterdir():
        if child.is_dir():
            _remove_empty_tree(child)
    with contextlib.suppress(OSError):
        group.rmdir()


@contextlib.contextmanager
def fresh_cgroups(memory_mb: int, cpu: float) -> Iterator[tuple[list[Path], Path]]:
    """Fresh cgroups with the limits; yields the files to write a pid into, and a function that
    reads the memory the cgroup holds now (what the kernel cannot reclaim: anonymous and shared)."""
    name = f"attention-kit-test-{os.getpid()}"
    quota = int(cpu * 100_000)
    for stale in CGROUP_ROOT.glob(f"*/{name}"):  # left by a killed run whose pid was this one's
        _remove_empty_tree(stale)
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
        for folder in folders:  # with what a grader killed inside made under it
            _remove_empty_tree(folder)


@contextlib.contextmanager
def busy_host(processes: int = 4, weight: int = 10) -> Iterator[None]:
    """Other tenants of the host, busy: ``processes`` CPU-bound processes in a cgroup of their own,
    beside the containers of ``run_as_container``, weighing ``weight`` times as much as each of
    them (so the containers get less than their quota, as on a busy machine). Ours alone, stopped
    and removed after."""
    name = f"attention-kit-busy-host-{os.getpid()}"
    if (CGROUP_ROOT / "cpu").is_dir():  # cgroups v1
        group = CGROUP_ROOT / "cpu" / name
        group.mkdir()
        (group / "cpu.shares").write_text(str(1024 * weight))
        join = group / "tasks"
    else:  # cgroups v2
        group = CGROUP_ROOT / name
        group.mkdir()
        (group / "cpu.weight").write_text(str(min(10_000, 100 * weight)))
        join = group / "cgroup.procs"
    burners = [subprocess.Popen(["bash", "-c", f'echo $$ > {join}; exec "$@"', "bash", sys.executable, "-c",
                                 "while True: pass"]) for _ in range(processes)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
        with contextlib.suppress(OSError):
            group.rmdir()


def run_as_container(command: list[str], *, memory_mb: int = 768, cpu: float = 0.5, timeout: float = 600,
                     **kwargs) -> ContainerRun:
    """Run ``command`` inside fresh cgroups, without CAP_SYS_ADMIN; returns its result and the
    peak of the memory it held (sampled every 20 ms: page cache, which the kernel reclaims before
    it kills anything, is not counted)."""
    with fresh_cgroups(memory_mb, cpu) as (groups, holding):
        join = "; ".join(f"echo $$ > {group}" for group in groups)
        wrapped = ["bash", "-c", f'{join}; exec "$@"', "bash", *PRIVATE_MOUNTS, *open_to_others(DROP_SYS_ADMIN),
                   *command]
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

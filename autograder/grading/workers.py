"""Where student code runs, as the grading command sees it: shards to start, each with the
workers of its job slot.

``SandboxedWorkers`` is what grading uses: one fork server (the only process that imports
torch before any shard exists) forks every shard and every worker; each job slot's workers run
as a user of their own, in a sandbox that hides the submissions and the outputs. The benchmark's
in-process floor (``tools/inprocess.py``, outside the installed package) is the other kind. Nothing here imports torch.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import socket
import tempfile
from contextlib import AbstractContextManager
from dataclasses import replace
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Protocol

from autograder.probes.errors import SandboxError
from autograder.records.jobs import GradeOptions, ShardJob, tested_devices
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import standard_sandbox, with_cuda, worker_uid
from autograder.sandbox.leftovers import sweep_user
from autograder.sandbox.memory import MemoryPlan, plan_memory
from autograder.worker import cgroups
from autograder.worker.config import SandboxConfig


class StartedShard:
    """A running shard: the link it reports through, and how to stop it."""

    def __init__(self, link: Connection, pid: int):
        self.link, self.pid = link, pid

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)


class Workers(Protocol):
    """A context manager, entered before any shard starts."""

    def __enter__(self) -> Workers: ...

    def __exit__(self, *exc: object) -> None: ...

    def devices(self, option: str) -> list[str]:
        """The devices the hidden tests run on, for ``--device option``."""

    def sandbox(self, slot: int, devices: list[str]) -> SandboxConfig | None:
        """The sandbox of job slot ``slot``, for tests on ``devices`` (None: student code runs without one)."""

    def start_shard(self, job: ShardJob) -> StartedShard:
        """Start a shard on ``job``."""

    @property
    def pids(self) -> list[int]:
        """The grader's own processes that no student may signal (besides the command's)."""


class SandboxedWorkers(AbstractContextManager):
    """The grader's workers: a fork server with a channel per job slot; per slot, a sandbox of its
    own (its own uid) that hides the submissions and the outputs."""

    def __init__(self, slots: int, submitted: Path, out: Path, options: GradeOptions):
        self._slots, self._submitted, self._out, self._options = slots, submitted, out, options
        self._forkserver: ForkServer | None = None
        self._cgroups: list[str] = []
        self._cgroup_problem = ""
        self._memory: MemoryPlan | None = None

    def __enter__(self) -> SandboxedWorkers:
        self._forkserver = ForkServer(slots=self._slots)
        # The run's own folder for the scratch folders of workers without namespaces: others may
        # pass through it but not list it, and it goes, whole, with the run.
        self._scratch_root = tempfile.mkdtemp(prefix="attention-kit-run-")
        os.chmod(self._scratch_root, 0o711)
        if os.geteuid() == 0:
            try:
                self._cgroups = cgroups.make_run_groups(f"attention-kit-{os.getpid()}-{secrets.randbelow(10**9)}")
            except OSError as error:
                self._cgroup_problem = f"cgroups cannot be made here ({error.strerror or error})"
        return self

    @property
    def _server(self) -> ForkServer:
        """The fork server, which entering the workers starts."""
        if self._forkserver is None:
            raise RuntimeError("the workers are used before they are entered (with SandboxedWorkers(...) as ...)")
        return self._forkserver

    def __exit__(self, *exc: object) -> None:
        self._server.close()
        # Workers die with the fork server; when a run stops early (a refusal, a dead shard), no
        # shard closed its workers, so what they may have left is cleared here.
        if os.geteuid() == 0:
            for uid in {worker_uid(slot) for slot in range(2 * self._slots)}:  # each slot and its neighbour
                sweep_user(uid)
        shutil.rmtree(self._scratch_root, ignore_errors=True)
        for run_group in self._cgroups:
            cgroups.remove([str(group) for group in Path(run_group).glob("worker-*")] + [run_group])

    def devices(self, option: str) -> list[str]:
        return tested_devices(option, self._server.accelerators)

    @property
    def machine(self) -> dict:
        """What the machine offers torch, as the fork server found it (``worker.accelerators``)."""
        return self._server.machine

    @property
    def memory(self) -> MemoryPlan:
        """Each worker's memory, planned once the fork server is warm (``sandbox.memory``)."""
        if self._memory is None:
            self._server.machine  # noqa: B018 - waits until the server is warm, so that its memory counts
            self._memory = plan_memory(self._options.memory_bytes, self._slots)
        return self._memory

    def sandbox(self, slot: int, devices: list[str]) -> SandboxConfig:
        if not self.memory.enough:
            raise SandboxError(f"There is not enough memory to grade here: {self.memory.text()}. Give the container"
                               " (or machine) more memory, or grade with fewer --jobs.")
        # A single notebook's whole folder is hidden (tmpfs covers folders, not files).
        submissions = self._submitted if self._submitted.is_dir() else self._submitted.parent
        hide = [str(submissions.resolve()), str(self._out.resolve())]
        sandbox = replace(standard_sandbox(worker_uid(slot), hide, self.memory.per_worker), cgroups=self._cgroups,
                          cgroup_problem=self._cgroup_problem, scratch_root=self._scratch_root)
        return with_cuda(sandbox, self._slots) if "cuda" in devices else sandbox

    @property
    def pids(self) -> list[int]:
        return [self._server.pid]

    def start_shard(self, job: ShardJob) -> StartedShard:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        pid = self._server.launch_shard(theirs, job.slot)
        theirs.close()
        link = Connection(ours.detach())
        link.send(job)
        return StartedShard(link, pid)

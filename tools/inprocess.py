"""Workers that answer probes in the shard's own process: the benchmark's floor, and nothing else.

They run student code in the same process as the hidden tests, so they offer no isolation at
all: the grader never uses them. Every message still round-trips through bytes, so probes
behave exactly as they do over a sandboxed worker's socket; what is left is the cost of the
checks themselves.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterator

import torch

from autograder.grading import shard
from autograder.grading.workers import StartedShard
from autograder.probes.client import Submission
from autograder.records.jobs import PreparedSubmission, ShardJob, tested_devices
from autograder.sandbox.session import Consult, load_problem
from autograder.worker.accelerators import machine_report
from autograder.worker.probe_server import ProbeServer, load_definitions
from autograder.worker.protocol import Message, pack, unpack


class InProcessTransport:
    """Runs the probe server on the caller's thread; see the module docstring. A consulted
    stand-in's questions are answered in between, as over a worker's socket."""

    generation = 0

    def __init__(self, namespace: dict):
        self._server = ProbeServer(namespace, exchange=self._exchange)
        self._consult: Consult | None = None

    def request(self, header: dict, tensors: dict[str, torch.Tensor], consult: Consult | None = None) -> Message:
        self._consult = consult
        reply_header, reply_tensors = self._server.handle(unpack(pack(header, tensors)))
        return unpack(pack(reply_header, reply_tensors))

    def _exchange(self, header: dict, tensors: dict[str, torch.Tensor]) -> Message:
        question = unpack(pack(header, tensors))
        answer = self._consult(question) if self._consult is not None else ({"declined": True}, {})
        return unpack(pack(*answer))


class InProcessOpener:
    """Opens a submission by running its definitions in this very process (no sandbox)."""

    @contextlib.contextmanager
    def __call__(self, prepared: PreparedSubmission) -> Iterator[Submission]:
        namespace, problems = load_definitions([vars(block) for block in prepared.code.blocks])
        defined = {name for name in namespace if not name.startswith("__")}
        yield Submission(InProcessTransport(namespace), defined,
                         prepared.code.problems + [load_problem(problem) for problem in problems])

    def finish(self) -> None:
        """Nothing is left running."""


class InProcessWorkers(contextlib.AbstractContextManager):
    """``Workers`` for ``grade_entries`` whose shards are forked from this process (torch
    imported here) and run student code in themselves, through an ``InProcessOpener``."""

    pids: list[int] = []

    def __init__(self, slots: int = 1):
        self.slots = slots

    def __exit__(self, *exc) -> None:
        return None

    def devices(self, option: str) -> list[str]:
        # Asked without initialising CUDA: the shards are forked from this process.
        return tested_devices(option, machine_report()["accelerators"])

    def sandbox(self, slot: int, devices: list[str]) -> None:
        return None

    @staticmethod
    def run_shard(job: ShardJob, link) -> None:
        """What a forked shard runs: the hidden tests, with student code in this very process."""
        shard.run(job, link, InProcessOpener(), None)

    def start_shard(self, job: ShardJob) -> StartedShard:
        ours, theirs = multiprocessing.get_context("fork").Pipe()
        process = multiprocessing.get_context("fork").Process(target=self.run_shard, args=(job, theirs), daemon=True)
        process.start()
        theirs.close()
        return StartedShard(ours, process.pid)

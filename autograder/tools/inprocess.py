"""Workers that answer probes in the shard's own process: the benchmark's floor, and nothing else.

They run student code in the same process as the hidden tests, so they offer no isolation at
all: the grader never uses them. Every message still round-trips through bytes, so probes
behave exactly as they do over a sandboxed worker's socket; what is left is the cost of the
checks themselves.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from autograder.grading.plugin import PreparedSubmission
from autograder.probes.client import Submission
from autograder.sandbox.session import load_problem
from autograder.worker.probe_server import ProbeServer, load_definitions
from autograder.worker.protocol import Message, pack, unpack


class InProcessTransport:
    """Runs the probe server on the caller's thread; see the module docstring."""

    generation = 0

    def __init__(self, server: ProbeServer):
        self._server = server

    def request(self, header: dict, tensors: dict[str, torch.Tensor]) -> Message:
        reply_header, reply_tensors = self._server.handle(unpack(pack(header, tensors)))
        return unpack(pack(reply_header, reply_tensors))


class InProcessOpener:
    """Opens a submission by running its definitions in this very process (no sandbox)."""

    @contextlib.contextmanager
    def __call__(self, prepared: PreparedSubmission) -> Iterator[Submission]:
        namespace, problems = load_definitions([vars(block) for block in prepared.code.blocks])
        defined = {name for name in namespace if not name.startswith("__")}
        yield Submission(InProcessTransport(ProbeServer(namespace)), defined,
                         prepared.code.problems + [load_problem(problem) for problem in problems])

    def finish(self) -> None:
        """Nothing is left running."""


class InProcessWorkers(contextlib.AbstractContextManager):
    """``Workers`` for ``grade_entries`` that give every shard an ``InProcessOpener``."""

    def __init__(self, slots: int = 1):
        self.slots = slots

    def __exit__(self, *exc) -> None:
        return None

    def opener(self, slot: int) -> InProcessOpener:
        return InProcessOpener()

    def verify(self, targets) -> None:
        """No sandbox, so nothing to prove."""
        return None

"""Open a submission in a sandboxed worker: how the grader gives the hidden tests a notebook."""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from pathlib import Path

import torch

from autograder.probes.client import Submission
from autograder.probes.errors import ProbeTimeout, WorkerCrashed, WorkerProblem
from autograder.reading.notebook import extract_notebook_file
from autograder.records.jobs import PreparedSubmission
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, with_cuda, worker_uid
from autograder.sandbox.session import Consult, ForkServerChannel, WorkerReady, WorkerSession, wait_for_killed_workers
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.worker import protocol
from autograder.worker.config import SandboxConfig


class _BrokenTransport:
    """Stands in for a worker that could not even load the notebook: every probe re-raises."""

    generation = 1

    def __init__(self, error: WorkerProblem):
        self._error = error

    def request(self, header: dict, tensors: dict[str, torch.Tensor],
                consult: Consult | None = None) -> protocol.Message:
        raise self._error


class SandboxedOpener:
    """Opens submissions in sandboxed workers forked through one fork-server channel: a worker per
    student, whose notebooks come one after the other (the grading plugin orders them so), each
    loaded in a namespace of its own. A student's worker never serves another student.

    A worker that cannot even load the notebook (it loops or crashes while loading) still gives
    a Submission: each of its tests then fails with what happened. A ``SandboxError`` (the
    grader's own setup failing) propagates.
    """

    def __init__(self, forkserver: ForkServerChannel, sandbox: SandboxConfig, timeout: float,
                 budget: float | None = None):
        """``timeout``: seconds per answer; ``budget``: seconds for all of a notebook's answers."""
        self._forkserver = forkserver
        self._sandbox = sandbox
        self._timeout = timeout
        self._budget = budget
        self._kept: tuple[str, WorkerSession] | None = None  # the last student's worker

    @contextlib.contextmanager
    def __call__(self, prepared: PreparedSubmission) -> Iterator[Submission]:
        if self._kept is not None and self._kept[0] == prepared.student_id:
            session = self._kept[1]
            loading: Callable[[], WorkerReady] = functools.partial(session.load, prepared.code)
        else:
            self._release()
            session = WorkerSession(self._forkserver, prepared.code, self._sandbox, self._timeout, self._budget)
            loading = session.start
        self._kept = (prepared.student_id, session)
        try:
            ready = loading()
            submission = Submission(session, ready.defined, prepared.code.problems + ready.load_problems,
                                    ready.isolation, ready.cuda)
        except (ProbeTimeout, WorkerCrashed) as error:
            submission = Submission(_BrokenTransport(error), set(), prepared.code.problems)
        yield submission

    def _release(self) -> None:
        if self._kept is not None:
            self._kept[1].close(wait=False)  # waited for together, in finish()
            self._kept = None

    def finish(self) -> None:
        self._release()
        wait_for_killed_workers()


@contextlib.contextmanager
def open_notebook_submission(path: Path, timeout: float = 10.0) -> Iterator[Submission]:
    """A Submission for the notebook at ``path`` (for running hidden tests by hand); the worker and
    its fork server are gone on exit."""
    prepared = PreparedSubmission(0, "manual", path.stem,
                                  extract_notebook_file(path, STAGES_BY_ASSIGNMENT.get(path.stem)))
    forkserver = ForkServer()
    sandbox = standard_sandbox(worker_uid(MANUAL_SLOT), [str(path.resolve().parent)])
    if forkserver.accelerators["cuda"]:
        sandbox = with_cuda(sandbox, slots=1)
    opener = SandboxedOpener(ForkServerChannel(forkserver.control(0)), sandbox, timeout)
    try:
        with opener(prepared) as submission:
            yield submission
        opener.finish()
    finally:
        forkserver.close()

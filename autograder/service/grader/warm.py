"""A warm grader: one fork server and one shard that stay alive between submissions.

It starts as ``grade`` does (``autograder.grading``): the fork server imports torch once, the
shard proves the guarantees from real sandboxed workers and grades every assignment's canary;
then it keeps serving (``ShardJob.keep_serving``): each submission is sent to the same shard,
whose references and hidden tests are already loaded, and graded by a fresh confined worker,
then scored by ``engine.graded_row`` exactly as ``grade`` scores it. Start it again (``restart``)
to prove the guarantees and pass the canaries anew.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from multiprocessing import connection
from pathlib import Path

from autograder.grading import trust
from autograder.grading.engine import GradingError, graded_row
from autograder.grading.link import RecordsReady, ShardFailed, ShardMessage, SubmissionDone, TrustProved, Untrusted
from autograder.grading.workers import SandboxedWorkers, StartedShard
from autograder.reading.notebook import NotebookError, extract_notebook_file
from autograder.records.jobs import GradeOptions, PreparedSubmission, ShardJob, SubmissionRecord
from autograder.records.results import GradedRow, RowKind, RowStatus, RunTrust
from autograder.records.submissions import SubmissionKey
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT


class WarmGrader:
    """Grades one submission at a time through a shard kept warm (use as a context manager)."""

    def __init__(self, options: GradeOptions):
        self._options = options
        self._workers: SandboxedWorkers | None = None
        self._shard: StartedShard | None = None
        self.trust = RunTrust(None)
        self.devices: list[str] = []
        self.started_at = 0.0

    def __enter__(self) -> WarmGrader:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Start the sandbox, prove the guarantees, grade the canaries. Raises GraderUntrusted
        (it must not grade) or GradingError (it could not start)."""
        self._folder = Path(tempfile.mkdtemp(prefix="attention-kit-service-"))
        self._submitted, out = self._folder / "submitted", self._folder / "out"
        self._submitted.mkdir()
        out.mkdir()
        # A stand-in submission, so that the start-up checks try to read a student's file.
        stand_in = self._submitted / "student" / ASSIGNMENTS[0] / f"{ASSIGNMENTS[0]}.ipynb"
        stand_in.parent.mkdir(parents=True)
        stand_in.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}\n')
        try:
            self._workers = SandboxedWorkers(1, self._submitted, out, self._options).__enter__()
            self.devices = self._workers.devices(self._options.device)
            targets = trust.targets(list(ASSIGNMENTS), [stand_in], self._submitted, out, self._workers.pids)
            canaries = trust.canaries(list(ASSIGNMENTS), 1)[0]
            job = ShardJob(0, canaries, self._options, self.devices, self._workers.sandbox(0, self.devices),
                           self._workers.sandbox(1, self.devices), targets, keep_serving=True)
            self._shard = self._workers.start_shard(job)
            records = self._receive()
            trust.check_canaries(records, [canary.key for canary in canaries])
        except BaseException:
            self.close()
            raise
        self.started_at = time.monotonic()

    def _receive(self) -> dict[SubmissionKey, SubmissionRecord]:
        """What the shard reports for the submissions just sent: its records."""
        link = self._shard.link
        while True:
            if not connection.wait([link], timeout=600):
                raise GradingError("the grading shard gave no answer in 10 minutes")
            try:
                message: ShardMessage = link.recv()
            except EOFError:
                raise GradingError("the grading shard stopped (killed by a signal or by the out-of-memory"
                                   " killer?)") from None
            match message:
                case TrustProved(proved):
                    self.trust = proved
                case RecordsReady(records):
                    return records
                case Untrusted(reason):
                    raise trust.GraderUntrusted(reason)
                case ShardFailed(reason):
                    raise GradingError(f"the grading shard failed:\n{reason}")
                case SubmissionDone():
                    pass  # progress: the service follows its gradings in the database

    def grade(self, index: int, student_id: str, assignment_id: str, notebook: bytes) -> GradedRow:
        """The row of one notebook, as ``grade`` would write it before the term, graded in a pytest
        session of its own by a confined worker of its own. ``index`` is unique among the
        submissions this grader sees."""
        path = self._submitted / str(index) / assignment_id / f"{assignment_id}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(notebook)
        try:
            code = extract_notebook_file(path, STAGES_BY_ASSIGNMENT[assignment_id])
        except NotebookError as error:
            return GradedRow(student_id, assignment_id, RowStatus(RowKind(error.row_kind), str(error)), 0.0,
                             _max_score(assignment_id), devices=tuple(self.devices))
        finally:
            shutil.rmtree(path.parent.parent, ignore_errors=True)
        submission = PreparedSubmission(index, f"{student_id}#{index}", assignment_id, code)
        self._shard.link.send([submission])
        records = self._receive()
        return graded_row(student_id, assignment_id, records[submission.key], code, self.trust, self.devices)

    def close(self) -> None:
        if self._shard is not None:
            self._shard.link.close()
            self._shard.kill()
            self._shard = None
        if self._workers is not None:
            self._workers.__exit__(None, None, None)
            self._workers = None
        shutil.rmtree(self._folder, ignore_errors=True)


def _max_score(assignment_id: str) -> float:
    from autograder.course import rubric

    return rubric.max_score(assignment_id)

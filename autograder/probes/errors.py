"""What can go wrong when a hidden test asks a student's code something.

``StudentError`` is the student's code raising; ``ProbeTimeout`` and ``WorkerCrashed`` are the
worker running too long or stopping, each with its finding for the student. ``SandboxError`` is
the grader's own setup failing: never the student's fault, it stops the run. ``GraderOverloaded``
is the machine stopping a test: never the student's fault either, the test is run again.
"""

from __future__ import annotations

from autograder.findings.finding import FindingError


class StudentError(Exception):
    """The student's code raised an exception while answering a probe.

    ``undefined_name`` is set when the probe asked for a name the notebook does not define.
    ``behind``: what the same code raised when a test ran it again on an input where this
    exception cannot happen (sizes that fit whichever way they are multiplied, say), so that a
    fault this one hides shows; each is read as a fault of its own where it names another mistake.
    ``found_behind``: likewise, what such a run's values showed (a ``Finding`` that names a mistake).
    """

    def __init__(self, type_name: str, message: str, student_traceback: str = "",
                 undefined_name: str | None = None):
        super().__init__(message)
        self.type_name = type_name
        self.message = message
        self.student_traceback = student_traceback
        self.undefined_name = undefined_name
        self.behind: list[StudentError] = []
        self.found_behind: list = []  # Findings; a list of them, to keep this module free of the findings' types


class WorkerProblem(FindingError):
    """The worker could not answer; ``finding`` tells the student what became of their code."""


class ProbeTimeout(WorkerProblem):
    """The worker did not answer within the time limit and was killed (or the test was not run)."""


class WorkerCrashed(WorkerProblem):
    """The worker died (exit, crash, memory limit) or sent something that is not an answer."""


class SandboxError(Exception):
    """The sandbox itself failed (a grader setup problem, never the student's fault)."""


class GraderOverloaded(Exception):
    """The machine, not the student's code, stopped a test: the out-of-memory killer took a worker
    for memory pressure from outside it (the container's), or the grader's own GPU ran out of
    memory. The test is run again; if it happens again, the run fails as the grader's error."""

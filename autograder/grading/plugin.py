"""The pytest plugin that runs the hidden tests over many submissions in one session.

The ``student`` fixture is parametrised (module scope) over the submissions of each test
module's assignment, so pytest runs every test of one student before the next and each
student's worker lives exactly as long as their tests. Outcomes are recorded here, in the
trusted process; nothing a worker prints is ever read.
"""

from __future__ import annotations

import contextlib
import re
import time
from dataclasses import dataclass, field

import pytest

from autograder.notebooks.reading import ExtractedCode
from autograder.probes.client import ProbeTimeout, StudentError, Submission, WorkerCrashed
from autograder.sandbox.forkserver import ForkServerChannel
from autograder.sandbox.session import SandboxError, WorkerSession, wait_for_killed_workers
from autograder.student.curriculum import all_stages
from autograder.tools.inprocess import open_in_process
from autograder.worker.config import SandboxConfig

_STAGES = set(all_stages())
# After this many stages ran out of time, a notebook's remaining tests are not run: grading
# time stays bounded even when every stage loops forever.
MAX_TIMED_OUT_STAGES = 4
# A notebook's tests together may take this many per-probe timeouts; code that stays just under
# the limit on every probe cannot stretch grading without bound.
NOTEBOOK_BUDGET_TIMEOUTS = 6


@dataclass
class PreparedSubmission:
    """A readable notebook waiting for its tests."""

    index: int
    student_id: str
    assignment_id: str
    code: ExtractedCode

    @property
    def param_id(self) -> str:
        return f"submission{self.index}"


@dataclass
class TestOutcome:
    """What one test instance gave for one submission."""

    name: str
    function: str
    stage: str
    status: str  # passed | failed | error | timeout
    message: str = ""


@dataclass
class SubmissionRecord:
    outcomes: list[TestOutcome] = field(default_factory=list)
    recorded: set[str] = field(default_factory=set)  # names in outcomes, for a quick lookup
    isolation: str = ""
    load_problems: list[str] = field(default_factory=list)


GRADING_PLUGIN = pytest.StashKey["GradingPlugin"]()


class _BrokenTransport:
    """Stands in for a worker that could not even load the notebook: every probe re-raises."""

    generation = 1

    def __init__(self, error: Exception):
        self._error = error

    def request(self, header, tensors):
        raise self._error


def stage_of(item: pytest.Item) -> str:
    stages = [marker.name for marker in item.iter_markers() if marker.name in _STAGES]
    if len(stages) != 1:
        raise pytest.UsageError(f"{item.nodeid} must carry exactly one stage marker, has {stages}")
    return stages[0]


def _hint_for(error: StudentError, stage: str, submission: Submission) -> str:
    if error.type_name == "NotImplementedError":
        return f"{stage} is not implemented yet: the stub still raises NotImplementedError."
    if error.type_name == "NameError" and error.message.endswith("is not defined in your notebook"):
        text = f"{error.message}: define it in its answer cell, with exactly this name."
    else:
        text = f"Your code raised {error.type_name}: {error.message}"
    if error.type_name == "NameError" and error.message.startswith("name "):
        text += (". Only imports, functions, classes and simple constants are loaded for grading:"
                 " your function must not use a variable made in a demo cell.")
    if error.type_name == "NameError" and submission.load_problems:
        text += " While loading your notebook: " + "; ".join(submission.load_problems)
    if error.student_traceback:
        text += "\n" + error.student_traceback
    return text


def describe_failure(excinfo: pytest.ExceptionInfo, stage: str, submission: Submission) -> tuple[str, str]:
    """(status, message) for a failed test, in words a student can act on."""
    error = excinfo.value
    if isinstance(error, ProbeTimeout):
        return "timeout", str(error)
    if isinstance(error, WorkerCrashed):
        return "error", str(error)
    if isinstance(error, StudentError):
        return "error", _hint_for(error, stage, submission)
    if isinstance(error, AssertionError):
        return "failed", str(error) or f"{stage} did not pass a hidden check."
    return "error", (f"The grader could not check {stage} ({type(error).__name__}); your code may"
                     " return something unexpected. Tell your instructor if this persists.")


class GradingPlugin:
    """Kept in ``config.stash[GRADING_PLUGIN]``; the hidden tests' ``student`` fixture asks it for workers."""

    def __init__(self, submissions: list[PreparedSubmission], spawner: ForkServerChannel | None,
                 sandbox: SandboxConfig,
                 timeout: float, on_submission_done=lambda submission: None, unsandboxed_floor: bool = False):
        self._by_assignment: dict[str, list[PreparedSubmission]] = {}
        for submission in submissions:
            self._by_assignment.setdefault(submission.assignment_id, []).append(submission)
        self._sandbox = sandbox
        self._timeout = timeout
        self._on_done = on_submission_done
        # The benchmark's floor only: student code in this very process, no isolation at all.
        self._unsandboxed_floor = unsandboxed_floor
        self._spawner = spawner
        self._started: dict[int, float] = {}  # when each submission's tests began
        self._open: dict[int, Submission] = {}
        self._timed_out_stages: set[tuple[int, str]] = set()
        self.records: dict[int, SubmissionRecord] = {s.index: SubmissionRecord() for s in submissions}
        # Why the session could not run (pytest's terminal report is switched off in grading).
        self.problems: list[str] = []

    # -- pytest hooks ---------------------------------------------------------------
    def pytest_configure(self, config: pytest.Config) -> None:
        config.stash[GRADING_PLUGIN] = self

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "student" in metafunc.fixturenames:
            submissions = self._by_assignment.get(metafunc.module.ASSIGNMENT, [])
            metafunc.parametrize("student", submissions, indirect=True, scope="module",
                                 ids=[s.param_id for s in submissions])

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        submission = self._submission_of(item)
        if submission is None:
            return
        timed_out = [stage for index, stage in self._timed_out_stages if index == submission.index]
        if stage_of(item) in timed_out:
            raise ProbeTimeout("not run: an earlier test of this stage already ran out of time")
        if len(timed_out) >= MAX_TIMED_OUT_STAGES:
            raise ProbeTimeout(f"not run: {len(timed_out)} stages of this notebook already ran out of time"
                               " (an endless loop shared by several stages?)")
        budget = NOTEBOOK_BUDGET_TIMEOUTS * self._timeout
        if time.monotonic() - self._started.get(submission.index, time.monotonic()) > budget:
            raise ProbeTimeout(f"not run: this notebook's tests already took more than {budget:g} s in all")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport | None:
        """Record the outcome, and report it without formatting a traceback nobody reads."""
        submission = self._submission_of(item)
        if submission is None or (call.excinfo is not None and call.excinfo.errisinstance(pytest.skip.Exception)):
            return None  # pytest's own report
        stage = stage_of(item)
        if call.excinfo is None:
            status, message = "passed", ""
        else:
            status, message = describe_failure(call.excinfo, stage, self._open.get(submission.index))
        if call.when == "call" or (call.when == "setup" and status != "passed"):
            self._record(item, submission, stage, status, message)
        return pytest.TestReport(item.nodeid, item.location, {}, "passed" if status == "passed" else "failed",
                                 message or None, call.when, (), call.duration, call.start, call.stop)

    def pytest_sessionfinish(self) -> None:
        wait_for_killed_workers()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.problems.append(f"{report.nodeid or 'collection'}: {report.longreprtext}")

    def pytest_internalerror(self, excrepr) -> None:
        self.problems.append(str(excrepr))

    def _record(self, item: pytest.Item, submission: PreparedSubmission, stage: str, status: str,
                message: str) -> None:
        record = self.records[submission.index]
        name = self._test_name(item, submission)
        if name in record.recorded:
            return
        if status == "timeout":
            self._timed_out_stages.add((submission.index, stage))
        record.outcomes.append(TestOutcome(name, item.originalname, stage, status, message))
        record.recorded.add(name)

    # -- used by the hidden tests' conftest -----------------------------------------------
    @contextlib.contextmanager
    def open_submission(self, prepared: PreparedSubmission):
        """A Submission backed by a fresh sandboxed worker, killed when the module is done."""
        if self._unsandboxed_floor:
            yield open_in_process(prepared.code)
            self._on_done(prepared)
            return
        session = WorkerSession(self._spawner, prepared.code, self._sandbox, self._timeout)
        record = self.records[prepared.index]
        try:
            ready = session.start()
            submission = Submission(session, set(ready["defined"]),
                                    prepared.code.problems + ready["problems"])
            record.isolation = ready["isolation"]
        except (ProbeTimeout, WorkerCrashed) as error:
            submission = Submission(_BrokenTransport(error), set(), prepared.code.problems)
        except SandboxError as error:
            self.problems.append(str(error))
            pytest.exit(str(error), returncode=3)  # every worker would fail the same way: stop
        record.load_problems = submission.load_problems
        self._open[prepared.index] = submission
        self._started[prepared.index] = time.monotonic()
        try:
            yield submission
        finally:
            session.close(wait=False)  # waited for together, in pytest_sessionfinish
            del self._open[prepared.index]
            self._on_done(prepared)

    # -- helpers ------------------------------------------------------------------------
    @staticmethod
    def _submission_of(item: pytest.Item) -> PreparedSubmission | None:
        callspec = getattr(item, "callspec", None)
        return callspec.params.get("student") if callspec else None

    @staticmethod
    def _test_name(item: pytest.Item, submission: PreparedSubmission) -> str:
        """The test's name without the submission's id, the same for every student."""
        name = re.sub(rf"-?\b{submission.param_id}\b-?", "-", item.name)
        return name.replace("[-", "[").replace("-]", "]").replace("[]", "")

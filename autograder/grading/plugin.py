"""The pytest plugin that runs the hidden tests over many submissions in one session.

The ``student`` fixture is parametrised (module scope) over the submissions of each test
module's assignment, so pytest runs every test of one student before the next and each
student's worker lives exactly as long as their tests. How a submission is opened is given
to the plugin (a sandboxed worker when grading; in-process for the benchmark's floor).
Outcomes are recorded here, in the trusted process, as findings (what a failure says is
``autograder.hidden.failures``'); nothing a worker prints is ever read.
"""

from __future__ import annotations

import contextlib
import gc
import inspect
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Protocol

import pytest

from autograder.course import rubric
from autograder.findings.finding import Failure, Finding, finding
from autograder.grading import repairs
from autograder.hidden import failures, loading, observations
from autograder.probes.client import Submission
from autograder.probes.errors import GraderOverloaded, ProbeTimeout, SandboxError, StudentError
from autograder.records.jobs import PreparedSubmission, SubmissionRecord, TestOutcome
from autograder.records.results import TestStatus
from autograder.records.submissions import SubmissionKey
from autograder.student.curriculum import all_stages
from autograder.student.reading.exceptions import read_exception
from autograder.worker.precision import float32_settings

_STAGES = set(all_stages())
# After this many stages ran out of time, a notebook's remaining tests are not run: grading
# time stays bounded even when every stage loops forever.
MAX_TIMED_OUT_STAGES = 4
# A test that the machine stopped (GraderOverloaded: memory pressure from outside a worker, a worker
# kept from the CPU, the shard's GPU out of memory) runs this many times in all before the run
# fails as the grader's.
TRIES_WHEN_OVERLOADED = 3
# A notebook's tests together may take this many per-probe timeouts; code that stays just under
# the limit on every probe cannot stretch grading without bound. The worker's session caps each
# answer at what is left of it (``SandboxedOpener``), and no test starts once it is spent.
NOTEBOOK_BUDGET_TIMEOUTS = 6
class SubmissionOpener(Protocol):
    """Opens a submission for its tests: a context manager giving its ``Submission``."""

    def __call__(self, prepared: PreparedSubmission) -> AbstractContextManager[Submission]: ...

    def finish(self) -> None:
        """Called once the session's tests are done (wait for what was left to end)."""


GRADING_PLUGIN = pytest.StashKey["GradingPlugin"]()


def stage_of(item: pytest.Item) -> str:
    stages = [marker.name for marker in item.iter_markers() if marker.name in _STAGES]
    if len(stages) != 1:
        raise pytest.UsageError(f"{item.nodeid} must carry exactly one stage marker, has {stages}")
    return stages[0]


def _overloaded(error: Exception) -> str | None:
    """What overloaded the machine, when ``error`` is the machine's doing rather than the student's:
    a worker killed for memory pressure from outside it, or the grader's own GPU out of memory
    (the student's own errors arrive as StudentError, never as torch's)."""
    if isinstance(error, GraderOverloaded):
        return str(error)
    if type(error).__name__ == "OutOfMemoryError":
        return f"the grader's GPU ran out of memory: {str(error)[:200]}"
    return None


def _arguments(item: pytest.Function) -> dict[str, object]:
    """What the test function takes, from the fixtures pytest set up for it: its parameters without a
    default, as pytest passes them (read from the function's signature, not pytest's private
    ``_fixtureinfo``; ``funcargs`` also holds autouse fixtures the function does not take)."""
    parameters = inspect.signature(item.obj).parameters.values()
    return {parameter.name: item.funcargs[parameter.name] for parameter in parameters
            if parameter.default is parameter.empty and parameter.name in item.funcargs}


def _recover_memory() -> None:
    """Give memory back before a test runs again (the GPU's cached blocks, Python's garbage)."""
    gc.collect()
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_initialized():
        torch.cuda.empty_cache()
    time.sleep(1.0)


def _has_share(stage: str, mistake: str | None) -> bool:
    """Whether ``mistake`` is a fault of one of ``stage``'s behaviours (``rubric.toml``'s
    ``[faults]``): only then can a repaired slip cost its share alone, as its text says."""
    return rubric.fault_behaviours(stage).get(mistake or "") in rubric.behaviour_shares(stage)


class GradingPlugin:
    """Kept in ``config.stash[GRADING_PLUGIN]``; the hidden tests' ``student`` fixture asks it to
    open submissions."""

    def __init__(self, submissions: list[PreparedSubmission], opener: SubmissionOpener, timeout: float,
                 on_submission_done: Callable[[PreparedSubmission], None] = lambda submission: None,
                 memory_limit: str | None = None):
        self._order = submissions
        self._by_assignment: dict[str, list[PreparedSubmission]] = {}
        for submission in submissions:
            self._by_assignment.setdefault(submission.assignment_id, []).append(submission)
        self._opener = opener
        self._timeout = timeout
        self._on_done = on_submission_done
        self._memory_limit = memory_limit  # each worker's, "512 MiB" (None: no worker, the bench's floor)
        self._open: dict[SubmissionKey, Submission] = {}
        self._loaded: dict[SubmissionKey, loading.LoadedNotebook] = {}  # what became of each one's definitions
        self._timed_out_stages: set[tuple[SubmissionKey, str]] = set()
        self._canary_failed = False  # then nothing else is worth running: no grade will be written
        self.records: dict[SubmissionKey, SubmissionRecord] = {s.key: SubmissionRecord() for s in submissions}
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

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        """Run the tests submission by submission, in the shard's order (its canaries, then each
        student's notebooks one after the other, so that one worker serves a student's notebooks),
        whatever module each test is in; within a submission, the tests keep pytest's order."""
        position = {submission.param_id: index for index, submission in enumerate(self._order)}

        def order(item: pytest.Item) -> int:
            submission = self._submission_of(item)
            return position[submission.param_id] if submission is not None else -1

        items.sort(key=order)  # stable

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        submission = self._submission_of(item)
        if submission is None:
            return
        observations.take()  # what the previous test observed is no concern of this one
        if (opened := self._open.get(submission.key)) is not None:
            opened.take_calls()  # nor the calls it made
        if self._canary_failed:
            pytest.skip("the reference solution failed in the sandbox: nothing will be graded")
        timed_out = [stage for key, stage in self._timed_out_stages if key == submission.key]
        if stage_of(item) in timed_out:
            raise ProbeTimeout(finding("stage_timed_out"))
        if len(timed_out) >= MAX_TIMED_OUT_STAGES:
            raise ProbeTimeout(finding("stages_timed_out", count=len(timed_out)))
        budget = NOTEBOOK_BUDGET_TIMEOUTS * self._timeout
        opened = self._open.get(submission.key)
        if opened is not None and opened.students_seconds > budget:  # the student's time, not the machine's
            raise ProbeTimeout(finding("notebook_budget", budget=f"{budget:g}"))

    @pytest.hookimpl(tryfirst=True)
    def pytest_pyfunc_call(self, pyfuncitem: pytest.Function) -> bool | None:
        """Run a hidden test; run it again when the machine, not the student, stopped it."""
        if self._submission_of(pyfuncitem) is None:
            return None  # pytest's own call
        arguments = _arguments(pyfuncitem)
        for attempt in range(1, TRIES_WHEN_OVERLOADED + 1):
            try:
                pyfuncitem.obj(**arguments)
                return True
            except Exception as error:
                overloaded = _overloaded(error)
                if overloaded is None:
                    if isinstance(error, StudentError):
                        self._run_repaired(pyfuncitem, arguments, error)
                    raise
                if attempt == TRIES_WHEN_OVERLOADED:
                    raise GraderOverloaded(f"{pyfuncitem.name} was stopped {attempt} times by the machine, not by the"
                                           f" student's code ({overloaded}). Give the grader more memory or CPU, or"
                                           " grade with fewer --jobs.") from None
                _recover_memory()
        return True

    def _run_repaired(self, item: pytest.Function, arguments: dict[str, object], error: StudentError) -> None:
        """Run the test again with the line that raised repaired as the named mistake's fix says
        (``repairs``); raise ``RepairedSlip`` when it then passes, or when it then fails on its values
        for a mistake of another name (the slip's line is no longer what stops it: that fault is
        told too), and return when it does not. A slip that no share of the stage stands for is
        repaired too, only to find what it hides: passing then changes nothing (it costs its tests,
        as it did), and a further fault is told beside it."""
        prepared = self._submission_of(item)
        submission = self._open.get(prepared.key) if prepared is not None else None
        if prepared is None or submission is None:
            return
        stage = stage_of(item)
        sources = [block.source for block in prepared.code.blocks]
        reading = read_exception(stage, error.type_name, error.message, error.student_traceback, sources)
        repaired = repairs.repaired_line(reading.mistake, stage, error.student_traceback, prepared.code.blocks)
        if repaired is None:
            return
        lines = {repaired.line: repaired.text}
        further: list[tuple[StudentError, str]] = []  # the slips each rerun met, each repaired in turn
        observed = observations.take()  # the first run's: the rerun's own are dropped
        try:
            for attempt in range(repairs.MOST_REPAIRED_LINES + 1):
                try:
                    with submission.redefined(stage, repaired.cell, lines):
                        item.obj(**arguments)
                    break
                except StudentError as again:
                    # A slip on another line of the definition (x @ layer.weight on each projection's
                    # line), or on the repaired line itself (a maximum's keepdim beside its .values):
                    # repaired too, and the test run again.
                    mistake = read_exception(stage, again.type_name, again.message, again.student_traceback,
                                             sources).mistake
                    more = repairs.repaired_line(mistake, stage, again.student_traceback, prepared.code.blocks,
                                                 lines)
                    if mistake is None or more is None or more.cell != repaired.cell or \
                            attempt == repairs.MOST_REPAIRED_LINES or not _has_share(stage, mistake):
                        return  # no repair, or as many as a slip is given: it stays what it was
                    lines[more.line] = more.text
                    if mistake != reading.mistake and all(mistake != seen for _, seen in further):
                        further.append((again, mistake))
        except Failure as still:
            # Once repaired the test runs, and its values show another fault (named, or stated): both are told.
            named = {reading.mistake, *(mistake for _, mistake in further)}
            if still.finding.mistake in named:
                return
            raise failures.RepairedSlip(error, reading.mistake, further, still=still.finding) from error
        except ProbeTimeout:
            return
        finally:
            observations.take()
            observations.restore(observed)
        if _has_share(stage, reading.mistake):  # otherwise the slip costs its tests, as it did
            raise failures.RepairedSlip(error, reading.mistake, further) from error

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo) -> pytest.TestReport | None:
        """Record the outcome, and report it without formatting a traceback nobody reads."""
        submission = self._submission_of(item)
        if (submission is None or not isinstance(item, pytest.Function)
                or (call.excinfo is not None and call.excinfo.errisinstance(pytest.skip.Exception))):
            return None  # pytest's own report
        if call.excinfo is not None and call.excinfo.errisinstance((SandboxError, GraderOverloaded)):
            # The grader's own failure (its fork server is gone, say): never the student's result.
            self.problems.append(str(call.excinfo.value))
            item.session.shouldstop = str(call.excinfo.value)
            return None
        stage = stage_of(item)
        observed = observations.take() if call.when == "call" else observations.Observations()
        if call.excinfo is None:
            status, found = TestStatus.PASSED, observed.notes[0] if observed.notes else None
        else:
            sources = [block.source for block in submission.code.blocks]
            opened = self._open.get(submission.key)
            status, found = failures.describe_failure(call.excinfo, stage, opened, self._memory_limit,
                                                      self._loaded.get(submission.key), sources)
            calls = opened.take_calls() if opened is not None and call.when in ("setup", "call") else []
            if status is not TestStatus.TIMEOUT:
                found = failures.with_changed_defaults(found, stage, getattr(item.module, "ASSIGNMENT", None), sources,
                                                       calls)
                found = failures.with_code_read(found, stage, sources)
            found = found.within()  # every test's share of the results file and the feedback page
        if call.when == "call" or (call.when == "setup" and status is not TestStatus.PASSED):
            self._record(item, submission, stage, status, found, observed.largest_difference)
        when = call.when
        assert when != "collect"  # a test's own phases (pytest's TestReport.from_item_and_call asserts it too)
        return pytest.TestReport(nodeid=item.nodeid, location=item.location, keywords={},
                                 outcome="passed" if status is TestStatus.PASSED else "failed",
                                 longrepr=str(found) if found else None, when=when, duration=call.duration,
                                 start=call.start, stop=call.stop)

    def pytest_sessionfinish(self) -> None:
        self._opener.finish()

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            self.problems.append(f"{report.nodeid or 'collection'}: {report.longreprtext}")

    def pytest_internalerror(self, excrepr: object) -> None:
        self.problems.append(str(excrepr))

    def _record(self, item: pytest.Function, submission: PreparedSubmission, stage: str, status: TestStatus,
                found: Finding | None, largest_difference: float | None = None) -> None:
        record = self.records[submission.key]
        name = self._test_name(item, submission)
        if name in record.recorded:
            return
        if status is TestStatus.TIMEOUT:
            self._timed_out_stages.add((submission.key, stage))
        callspec = getattr(item, "callspec", None)
        device = str(callspec.params.get("device", "cpu")) if callspec else "cpu"
        record.outcomes.append(TestOutcome(name, item.originalname, stage, status, found, device, largest_difference))
        record.recorded.add(name)

    # -- used by the hidden tests' conftest -----------------------------------------------
    @contextlib.contextmanager
    def open_submission(self, prepared: PreparedSubmission) -> Iterator[Submission]:
        """The submission, opened by the plugin's opener for the tests of one module."""
        record = self.records[prepared.key]
        try:
            with self._opener(prepared) as submission:
                record.isolation = submission.isolation
                record.cuda = submission.cuda
                record.float32_settings = float32_settings()
                loaded = loading.placed(list(submission.load_problems), prepared.code)
                record.load_problems = loaded.problems
                self._loaded[prepared.key] = loaded
                self._open[prepared.key] = submission
                try:
                    yield submission
                finally:
                    del self._open[prepared.key]
        except SandboxError as error:
            self.problems.append(str(error))
            pytest.exit(str(error), returncode=3)  # every worker would fail the same way: stop
        finally:
            if prepared.canary and not all(o.status is TestStatus.PASSED for o in record.outcomes):
                self._canary_failed = True
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

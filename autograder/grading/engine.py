"""Grade a class: find the submissions, run the hidden tests over them, score them.

The trusted grading runs in forked shard processes (one per ``--jobs``), each running one pytest
session over its share of the submissions. Student code runs only in the workers that the
``Workers`` give each shard (sandboxed workers forked by one fork server, unless the caller
injects others: the benchmark's in-process floor). A shard that dies is noticed at once, and
the run fails as the grader's error instead of waiting for it.
"""

from __future__ import annotations

import multiprocessing
import traceback
import warnings
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from multiprocessing import connection
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Protocol

import pytest
import torch

from autograder.course import rubric
from autograder.course.paths import HIDDEN_TESTS_DIR, KIT_ROOT
from autograder.course.reference import load_reference
from autograder.grading import trust
from autograder.grading.discovery import SubmissionEntry, discover
from autograder.grading.plugin import (
    GradingPlugin,
    PreparedSubmission,
    SubmissionKey,
    SubmissionOpener,
    SubmissionRecord,
    TestOutcome,
)
from autograder.grading.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus
from autograder.notebooks.reading import NotebookError, extract_notebook_file
from autograder.sandbox.forkserver import ForkServer
from autograder.sandbox.guarantees import Targets, check_guarantees
from autograder.sandbox.layout import MANUAL_SLOT, python_paths, standard_sandbox, worker_uid
from autograder.sandbox.opener import SandboxedOpener
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.config import SandboxConfig
from autograder.worker.isolation import GuaranteeReport
from autograder.worker.warmup import warm_up_torch

ProgressCallback = Callable[[str, str], None]  # (student_id, assignment_id) of a finished submission


@dataclass
class GradeOptions:
    """The knobs of ``python -m autograder grade``."""

    assignment: str | None = None
    jobs: int = 1
    timeout: float = 10.0
    device: str = "auto"  # auto | cpu | cuda
    memory_bytes: int = 4 * 2**30
    accept_readable_secrets: bool = False  # grade although student code could read them (trust.UNSAFE_FLAG)


class GradingError(Exception):
    """The grader itself failed (a broken hidden test, rubric or master notebook, a dead shard)."""


class Workers(Protocol):
    """Where student code runs: a context manager (started before the shards fork) that gives each
    shard slot its ``SubmissionOpener``."""

    def __enter__(self) -> Workers: ...

    def __exit__(self, *exc) -> None: ...

    def opener(self, slot: int) -> SubmissionOpener: ...

    def verify(self, targets: Targets) -> GuaranteeReport | None:
        """Prove the guarantees from real workers (None: these workers have no sandbox)."""


class SandboxedWorkers(AbstractContextManager):
    """The grader's workers: one fork server with a channel per shard, and per shard slot a
    sandbox of its own (its own uid) that hides the submissions and the outputs."""

    def __init__(self, slots: int, submitted: Path, out: Path, options: GradeOptions):
        self._slots, self._submitted, self._out, self._options = slots, submitted, out, options
        self._forkserver: ForkServer | None = None

    def __enter__(self) -> SandboxedWorkers:
        # Started first: its torch import overlaps the grader's own start-up work.
        self._forkserver = ForkServer(channels=self._slots)
        return self

    def __exit__(self, *exc) -> None:
        self._forkserver.close()

    def sandbox(self, slot: int) -> SandboxConfig:
        # A single notebook's whole folder is hidden (tmpfs covers folders, not files).
        submissions = self._submitted if self._submitted.is_dir() else self._submitted.parent
        hide = [str(submissions.resolve()), str(self._out.resolve())]
        return standard_sandbox(worker_uid(slot), hide, self._options.memory_bytes)

    def opener(self, slot: int) -> SubmissionOpener:
        return SandboxedOpener(self._forkserver.channels[slot], self.sandbox(slot), self._options.timeout)

    def verify(self, targets: Targets) -> GuaranteeReport:
        # Through the first shard's channel, before any shard exists to use it.
        return check_guarantees(self._forkserver.channels[0], self.sandbox,
                                replace(targets, pids=[*targets.pids, self._forkserver.pid]))


def devices_to_test(device: str) -> list[str]:
    """The devices the hidden tests run on: the CPU always, accelerators when asked and present."""
    if device == "cpu":
        return ["cpu"]
    present = {"cuda": torch.cuda.is_available(), "mps": torch.backends.mps.is_available()}
    return ["cpu"] + [name for name, available in present.items() if available]


def _pytest_args(assignments: set[str], device: str) -> list[str]:
    files = [str(HIDDEN_TESTS_DIR / f"test_{a}.py") for a in ASSIGNMENTS if a in assignments]
    # Plugins that cost time on every test and give the grader nothing are switched off: the
    # terminal report alone costs about 0.5 ms per test (GradingPlugin keeps what went wrong),
    # and unraisableexception and threadexception run full garbage collections.
    args = ["--capture=no", "--assert=plain", "--import-mode=importlib", "-o", "addopts=", "--rootdir", str(KIT_ROOT)]
    for plugin in ("terminal", "cacheprovider", "logging", "warnings", "junitxml", "doctest", "pastebin", "stepwise",
                   "unraisableexception", "threadexception"):
        args += ["-p", f"no:{plugin}"]
    # Devices not tested are deselected up front: cheaper than a skip in every test.
    absent = [name for name in ("cuda", "mps") if name not in devices_to_test(device)]
    if absent:
        args += ["-k", " and ".join(f"not {name}" for name in absent)]
    return args + files


# What a shard process inherits from the grader when it is forked: the workers (their fork
# server's channels cannot be pickled).
_inherited: dict = {}


def _shard_main(slot: int, prepared: list[PreparedSubmission], options: GradeOptions, report: Connection) -> None:
    """One pytest session over a share of the class, in a forked shard process; everything it has to
    say goes back through ``report``, in order: each finished submission, then the records."""
    try:
        torch.set_num_threads(1)
        warnings.simplefilter("ignore")  # a reference's UserWarning is no student's business
        plugin = GradingPlugin(prepared, _inherited["workers"].opener(slot), options.timeout,
                               on_submission_done=lambda s: s.canary or report.send(("done", s.key)))
        exit_code = pytest.main(_pytest_args({s.assignment_id for s in prepared}, options.device), plugins=[plugin])
        if exit_code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            report.send(("failed", f"the hidden tests could not run (pytest exit code {int(exit_code)}):\n"
                                   + "\n".join(plugin.problems)[-4000:]))
        else:
            report.send(("records", plugin.records))
    except BaseException:  # noqa: BLE001 - the grader must hear about any failure
        report.send(("failed", traceback.format_exc()[-4000:]))
    finally:
        report.close()


def _run_shards(shards: list[list[PreparedSubmission]], workers: Workers, options: GradeOptions,
                progress: ProgressCallback) -> dict[SubmissionKey, SubmissionRecord]:
    """Run every shard in a forked process and gather their records.

    A small pool of our own rather than ``concurrent.futures``: each shard reports through one
    pipe, so its progress arrives in order before its records, a shard that dies is noticed at
    once (its pipe closes), and on any failure the other shards are killed instead of waited for.
    """
    context = multiprocessing.get_context("fork")
    _inherited["workers"] = workers
    running: dict[Connection, multiprocessing.process.BaseProcess] = {}
    records: dict[SubmissionKey, SubmissionRecord] = {}
    try:
        for slot, shard in enumerate(shards):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_shard_main, args=(slot, shard, options, sender), daemon=True)
            process.start()
            sender.close()
            running[receiver] = process
        while running:
            for ready in connection.wait(list(running)):
                try:
                    kind, payload = ready.recv()
                except EOFError:
                    raise GradingError("a grading shard stopped without reporting (killed by a signal or by the"
                                       " out-of-memory killer?); no grades were written") from None
                if kind == "done":
                    progress(*payload)
                elif kind == "records":
                    records.update(payload)
                    running.pop(ready).join()
                else:
                    raise GradingError(f"a grading shard failed:\n{payload}")
    finally:
        for process in running.values():
            process.kill()
            process.join()
        _inherited.clear()
    return records


def _prepare(entries: list[SubmissionEntry]) -> tuple[list[PreparedSubmission], dict[SubmissionKey, RowStatus]]:
    """Read every notebook in the trusted process; unreadable ones get their status now."""
    prepared, problems = [], {}
    for index, entry in enumerate(entries):
        if entry.problem:
            problems[entry.key] = entry.problem
            continue
        try:
            code = extract_notebook_file(entry.path)
        except NotebookError as error:
            problems[entry.key] = RowStatus(RowKind.UNREADABLE, str(error))
            continue
        except (RecursionError, MemoryError) as error:  # one hostile file must not stop the class
            problems[entry.key] = RowStatus(RowKind.UNREADABLE, "the notebook is too large or nested to read"
                                            f" ({type(error).__name__})")
            continue
        prepared.append(PreparedSubmission(index, entry.student_id, entry.assignment_id, code))
    return prepared, problems


def score_outcomes(assignment_id: str, outcomes: list[TestOutcome]) -> tuple[ScoredTest, ...]:
    """Each outcome with its share of its test function's points (see ``autograder.course.rubric``)."""
    shares = rubric.shares(assignment_id, [outcome.function for outcome in outcomes])
    return tuple(ScoredTest(outcome.name, outcome.stage, share if outcome.status is TestStatus.PASSED else 0.0,
                            share, outcome.status, outcome.finding)
                 for outcome, share in zip(outcomes, shares, strict=True))


def grade_class(submitted: Path, out: Path, options: GradeOptions | None = None,
                progress: ProgressCallback = lambda student, assignment: None) -> list[GradedRow]:
    """Grade every submission under ``submitted``; one GradedRow per grades.csv row."""
    options = options or GradeOptions()
    return grade_entries(discover(submitted, options.assignment), submitted, out, options, progress)


def grade_entries(entries: list[SubmissionEntry], submitted: Path, out: Path, options: GradeOptions,
                  progress: ProgressCallback, workers: Callable[[int], Workers] | None = None) -> list[GradedRow]:
    """Grade discovered submissions (``submitted`` and ``out`` are hidden from the workers).

    ``workers`` makes the Workers for a number of shard slots (default: sandboxed workers).
    Raises GraderUntrusted when the run cannot prove its guarantees or its canary fails.
    """
    prepared, problems = _prepare(entries)
    jobs = max(1, min(options.jobs, len(prepared), MANUAL_SLOT - 1))  # one uid per job slot (and one spare)
    assignments = [a for a in ASSIGNMENTS if a in {s.assignment_id for s in prepared}]
    # Spread each assignment's submissions over the shards so each shard has a similar load;
    # each shard grades its canaries first.
    ordered = sorted(prepared, key=lambda s: (s.assignment_id, s.student_id))
    canaries = trust.canaries(assignments, jobs) if prepared else [[] for _ in range(jobs)]
    shards = [canaries[slot] + ordered[slot::jobs] for slot in range(jobs)]
    records, run_trust = {}, trust.RunTrust(None)
    if prepared:
        make_workers = workers or (lambda slots: SandboxedWorkers(slots, submitted, out, options))
        with make_workers(jobs) as started:
            out.mkdir(parents=True, exist_ok=True)
            report = started.verify(trust.targets(assignments, [entry.path for entry in entries if not entry.problem],
                                                  submitted, out))
            if report is not None:
                run_trust = trust.require(report, options.accept_readable_secrets)
            for assignment in assignments:
                load_reference(assignment)  # loaded once, before forking, and shared by every shard
            warm_up_torch()  # while the fork server warms up on another core, not in every shard
            records = _run_shards(shards, started, options, progress)
        trust.check_canaries(records, [canary.key for shard in canaries for canary in shard], python_paths())
    languages = {submission.key: submission.code.language for submission in prepared}
    for key in problems:
        progress(*key)
    rows = []
    for entry in entries:
        max_score = rubric.max_score(entry.assignment_id)
        if entry.key in problems:
            rows.append(GradedRow(entry.student_id, entry.assignment_id, problems[entry.key], 0.0, max_score))
            continue
        record = records[entry.key]
        tests = score_outcomes(entry.assignment_id, record.outcomes)
        rows.append(GradedRow(entry.student_id, entry.assignment_id, RowStatus(RowKind.GRADED),
                              round(sum(test.points for test in tests), 2), max_score, tests,
                              tuple(record.load_problems), record.isolation, languages[entry.key], run_trust))
    return rows

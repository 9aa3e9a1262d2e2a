"""Grade a class: find the submissions, run the hidden tests over them, score them.

The grading command's process stays light: it reads the notebooks (JSON and ``ast`` only),
shares them out, and writes the rows; it never imports torch. The hidden tests run in shards,
forked by the fork server (one per ``--jobs``), each a pytest session over its share;
student code runs only in the workers each shard's job slot gets (``autograder.grading.workers``).
Every shard grades a canary first and proves the guarantees before that; a shard that dies is
noticed at once, and the run then fails as the grader's error instead of waiting for it.
"""

from __future__ import annotations

from collections.abc import Callable
from multiprocessing import connection
from pathlib import Path

from autograder.course import rubric
from autograder.grading import dependencies, trust
from autograder.grading.discovery import SubmissionEntry, discover
from autograder.grading.jobs import (
    GradeOptions,
    PreparedSubmission,
    ShardJob,
    SubmissionKey,
    SubmissionRecord,
    TestOutcome,
)
from autograder.grading.results import GradedRow, RowKind, RowStatus, RunTrust, ScoredTest, TestStatus
from autograder.grading.workers import SandboxedWorkers, StartedShard, Workers
from autograder.notebooks.reading import NotebookError, extract_notebook_file
from autograder.sandbox.layout import MANUAL_SLOT, python_paths
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT

ProgressCallback = Callable[[str, str], None]  # (student_id, assignment_id) of a finished submission


class GradingError(Exception):
    """The grader itself failed (a broken hidden test, rubric or master notebook, a dead shard)."""


def _run_shards(jobs: list[ShardJob], workers: Workers, progress: ProgressCallback
                ) -> tuple[dict[SubmissionKey, SubmissionRecord], RunTrust]:
    """Start every shard and gather what they report, in order: trust, progress, records.

    Each shard reports through one link, so its progress arrives before its records, a shard that
    dies is noticed at once (its link closes), and on any failure the others are killed, not
    waited for.
    """
    running: dict[object, StartedShard] = {}
    records: dict[SubmissionKey, SubmissionRecord] = {}
    trusts: list[RunTrust] = []
    try:
        for job in jobs:
            shard = workers.start_shard(job)
            running[shard.link] = shard
        while running:
            for ready in connection.wait(list(running)):
                try:
                    kind, payload = ready.recv()
                except EOFError:
                    raise GradingError("a grading shard stopped without reporting (killed by a signal or by the"
                                       " out-of-memory killer?); no grades were written") from None
                if kind == "done":
                    progress(*payload)
                elif kind == "trust":
                    trusts.append(payload)
                elif kind == "records":
                    records.update(payload)
                    running.pop(ready).link.close()
                elif kind == "untrusted":
                    raise trust.GraderUntrusted(payload)
                else:
                    raise GradingError(f"a grading shard failed:\n{payload}")
    finally:
        for shard in running.values():
            shard.kill()
            shard.link.close()
    return records, trust.combined(trusts)


def _prepare(entries: list[SubmissionEntry]) -> tuple[list[PreparedSubmission], dict[SubmissionKey, RowStatus]]:
    """Read every notebook in the trusted process; unreadable ones get their status now."""
    prepared, problems = [], {}
    for index, entry in enumerate(entries):
        if entry.problem:
            problems[entry.key] = entry.problem
            continue
        try:
            code = extract_notebook_file(entry.path, STAGES_BY_ASSIGNMENT[entry.assignment_id])
        except NotebookError as error:
            problems[entry.key] = RowStatus(RowKind(error.row_kind), str(error))
            continue
        except Exception as error:  # noqa: BLE001 - whatever one hostile file does costs only its row
            problems[entry.key] = RowStatus(RowKind.UNREADABLE, "the notebook could not be read"
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
                  progress: ProgressCallback, workers: Callable[[int], Workers] | None = None,
                  on_devices: Callable[[list[str]], None] = lambda devices: None) -> list[GradedRow]:
    """Grade discovered submissions (``submitted`` and ``out`` are hidden from the workers).

    ``workers`` makes the Workers for a number of job slots (default: sandboxed workers);
    ``on_devices`` hears which devices the tests run on, once that is known.
    Raises GraderUntrusted when the run cannot prove its guarantees or its canary fails.
    """
    make_workers = workers or (lambda slots: SandboxedWorkers(slots, submitted, out, options))
    prepared, problems = _prepare(entries)
    # Each job slot gets a uid, and a neighbour's (the workers-apart guarantee is tried across two).
    jobs = max(1, min(options.jobs, len(prepared), MANUAL_SLOT // 2))
    records, run_trust = {}, RunTrust(None)
    if prepared:
        with make_workers(jobs) as started:  # the fork server warms up while the notebooks are read
            devices = started.devices(options.device)
            on_devices(devices)
            out.mkdir(parents=True, exist_ok=True)
            assignments = [a for a in ASSIGNMENTS if a in {s.assignment_id for s in prepared}]
            targets = trust.targets(assignments, [entry.path for entry in entries if not entry.problem],
                                    submitted, out, started.pids)
            canaries = trust.canaries(assignments, jobs)
            # Spread each assignment's submissions over the shards so each shard has a similar load;
            # each shard grades its canaries first.
            ordered = sorted(prepared, key=lambda s: (s.assignment_id, s.student_id))
            shard_jobs = [ShardJob(slot, canaries[slot] + ordered[slot::jobs], options, devices, started.sandbox(slot),
                                   started.sandbox(jobs + slot), targets) for slot in range(jobs)]
            try:
                records, run_trust = _run_shards(shard_jobs, started, progress)
            finally:
                (out / trust.READABILITY_PROBE).unlink(missing_ok=True)
        trust.check_canaries(records, [canary.key for shard in canaries for canary in shard], python_paths())
    codes = {submission.key: submission.code for submission in prepared}
    for key in problems:
        progress(*key)
    rows = []
    for entry in entries:
        max_score = rubric.max_score(entry.assignment_id)
        if entry.key in problems:
            rows.append(GradedRow(entry.student_id, entry.assignment_id, problems[entry.key], 0.0, max_score))
            continue
        record = records[entry.key]
        outcomes = dependencies.counted_behaviour_checks(record.outcomes, rubric.behaviour_tests(entry.assignment_id))
        code = codes[entry.key]
        called = dependencies.stages_called(code, STAGES_BY_ASSIGNMENT[entry.assignment_id])
        tests = score_outcomes(entry.assignment_id, dependencies.pointed_to_failing_stages(outcomes, called))
        rows.append(GradedRow(entry.student_id, entry.assignment_id, RowStatus(RowKind.GRADED),
                              round(sum(test.points for test in tests), 2), max_score, tests,
                              tuple(record.load_problems), record.isolation, code.language, run_trust,
                              tuple(code.notes)))
    return rows

"""Grade a class: find the submissions, run the hidden tests over them, score them.

The grading command's process stays light: it reads the notebooks (JSON and ``ast`` only),
shares them out, and writes the rows; it never imports torch. The hidden tests run in shards,
forked by the fork server (one per ``--jobs``), each a pytest session over its share;
student code runs only in the workers each shard's job slot gets (``autograder.grading.workers``).
Every shard grades a canary first and proves the guarantees before that; a shard that dies is
noticed at once, and the run then fails as the grader's error instead of waiting for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing import connection
from multiprocessing.connection import Connection
from pathlib import Path

from autograder.course import predictions, rubric
from autograder.grading import dependencies, partial_credit, purpose, trust
from autograder.grading.discovery import discover
from autograder.grading.link import RecordsReady, ShardFailed, ShardMessage, SubmissionDone, TrustProved, Untrusted
from autograder.grading.workers import SandboxedWorkers, StartedShard, Workers
from autograder.reading.notebook import ExtractedCode, NotebookError, extract_notebook_file
from autograder.records.hint_charges import hint_charges
from autograder.records.jobs import GradeOptions, PreparedSubmission, ShardJob, SubmissionRecord, TestOutcome
from autograder.records.results import (
    GradedRow,
    HintUse,
    PredictionResult,
    RowKind,
    RowStatus,
    RunTrust,
    ScoredTest,
    TestStatus,
    ThinkAnswer,
    assignment_position,
)
from autograder.records.submissions import SubmissionEntry, SubmissionKey
from autograder.sandbox.layout import MANUAL_SLOT
from autograder.student import think_about_it
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
    running: dict[Connection, StartedShard] = {}
    records: dict[SubmissionKey, SubmissionRecord] = {}
    trusts: list[RunTrust] = []
    try:
        for job in jobs:
            shard = workers.start_shard(job)
            running[shard.link] = shard
        while running:
            ready = connection.wait(list(running))
            for link in [link for link in running if link in ready]:
                try:
                    message: ShardMessage = link.recv()
                except EOFError:
                    raise GradingError("a grading shard stopped without reporting (killed by a signal or by the"
                                       " out-of-memory killer?); no grades were written") from None
                match message:
                    case SubmissionDone(key):
                        progress(*key)
                    case TrustProved(proved):
                        trusts.append(proved)
                    case RecordsReady(shard_records):
                        records.update(shard_records)
                        running.pop(link).link.close()
                    case Untrusted(reason):
                        raise trust.GraderUntrusted(reason)
                    case ShardFailed(reason):
                        raise GradingError(f"a grading shard failed:\n{reason}")
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


# The note of a passed test that matched the reference at float32's precision only (``hidden.compare``).
FLOAT32_GUESS = "note.float32_precision"


def score_outcomes(assignment_id: str, outcomes: list[TestOutcome]) -> tuple[ScoredTest, ...]:
    """Each outcome with its share of its test function's points (see ``autograder.course.rubric``).

    Only the CPU instances share the points: an instance on a GPU is reported, for no points, so
    that a notebook scores the same on every machine (the meta-device checks, which run
    everywhere, are what a device mistake costs). A failure pinned to behaviours of its stage
    loses only their shares (``partial_credit``); any other failure loses its share. A stage whose
    failures show it misses its purpose keeps at most the rubric's share of its points (``purpose``).
    """
    on_cpu = [outcome for outcome in outcomes if outcome.device == "cpu"]
    share_of = dict(zip(map(id, on_cpu), rubric.shares(assignment_id, [o.function for o in on_cpu]), strict=True))
    lost_to = partial_credit.losses(assignment_id, outcomes, share_of)
    failing = {outcome.stage for outcome in outcomes if outcome.status is not TestStatus.PASSED}
    scored = []
    for outcome in outcomes:
        share = share_of.get(id(outcome), 0.0)
        lost = lost_to.get(id(outcome), ())
        if outcome.status is TestStatus.PASSED:
            points = share
        else:  # a pinned failure keeps what its behaviours' shares leave; any other keeps nothing
            points = round(share - sum(loss.points for loss in lost), 4) if lost else 0.0
        found = outcome.finding
        if outcome.stage in failing and found is not None and found.key == FLOAT32_GUESS:
            # Right at float32's precision only is a guess of where precision was lost; a stage that
            # fails elsewhere may be off by a little here for its own fault (a sum not divided by,
            # close to 1): its failures say what, and the guess would name a false cause.
            found = None
        scored.append(ScoredTest(outcome.name, outcome.stage, points, share, outcome.status, found,
                                 outcome.largest_difference, lost))
    return purpose.capped(tuple(scored))


@dataclass(frozen=True)
class GradingRun:
    """What the shards of a run gave: each submission's record (the canaries' too), the run's
    trust, and the devices the tests ran on."""

    records: dict[SubmissionKey, SubmissionRecord]
    trust: RunTrust
    devices: list[str]


def run_shards_on(started: Workers, jobs: int, devices: list[str], prepared: list[PreparedSubmission],
                  assignments: list[str], submission_paths: list[Path], submitted: Path, out: Path,
                  options: GradeOptions, progress: ProgressCallback) -> GradingRun:
    """Run the hidden tests over ``prepared`` in ``jobs`` shards, each proving the guarantees and
    grading the canaries of ``assignments`` first. Raises GraderUntrusted when the run cannot be
    trusted (``python -m autograder doctor`` runs this with no student at all)."""
    out.mkdir(parents=True, exist_ok=True)
    targets = trust.targets(assignments, submission_paths, submitted, out, started.pids)
    canaries = trust.canaries(assignments, jobs)
    # Students are dealt out to the shards in turn, each with all their notebooks, one after the
    # other (one worker serves a student's notebooks: see SandboxedOpener); each shard grades its
    # canaries first.
    students = sorted({submission.student_id for submission in prepared})
    slot_of = {student: index % jobs for index, student in enumerate(students)}
    ordered = sorted(prepared, key=lambda s: (s.student_id, assignment_position(s.assignment_id)))
    shard_jobs = [ShardJob(slot, canaries[slot] + [s for s in ordered if slot_of[s.student_id] == slot], options,
                           devices, started.sandbox(slot, devices), started.sandbox(jobs + slot, devices), targets)
                  for slot in range(jobs)]
    try:
        records, run_trust = _run_shards(shard_jobs, started, progress)
    finally:
        (out / trust.READABILITY_PROBE).unlink(missing_ok=True)
    trust.check_canaries(records, [canary.key for shard in canaries for canary in shard])
    return GradingRun(records, run_trust, devices)


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
    rubric.hint_prices()  # a rubric whose hint charges cannot be used stops the run before it grades
    prepared, problems = _prepare(entries)
    # Each job slot gets a uid, and a neighbour's (the workers-apart guarantee is tried across two).
    jobs = max(1, min(options.jobs, len(prepared), MANUAL_SLOT // 2))
    run = GradingRun({}, RunTrust(None), [])
    if prepared:
        with make_workers(jobs) as started:  # the fork server warms up while the notebooks are read
            devices = started.devices(options.device)
            on_devices(devices)
            assignments = [a for a in ASSIGNMENTS if a in {s.assignment_id for s in prepared}]
            run = run_shards_on(started, jobs, devices, prepared, assignments,
                                [entry.path for entry in entries if not entry.problem], submitted, out, options,
                                progress)
    records, run_trust, devices = run.records, run.trust, run.devices
    codes = {submission.key: submission.code for submission in prepared}
    for key in problems:
        progress(*key)
    rows = []
    for entry in entries:
        max_score = rubric.max_score(entry.assignment_id)
        if entry.key in problems:
            rows.append(GradedRow(entry.student_id, entry.assignment_id, problems[entry.key], 0.0, max_score,
                                  devices=tuple(devices)))
            continue
        rows.append(graded_row(entry.student_id, entry.assignment_id, records[entry.key], codes[entry.key], run_trust,
                               devices))
    return rows


def graded_row(student_id: str, assignment_id: str, record: SubmissionRecord, code: ExtractedCode,
               run_trust: RunTrust, devices: list[str]) -> GradedRow:
    """The row of one graded notebook from what its tests gave, with the hint tiers and predictions
    its notebook records and what the rubric charges for those hints (the submission service
    builds its rows here too, so that it scores exactly as ``grade`` does)."""
    behaviour = rubric.behaviour_tests(assignment_id)
    # A note worth fixing that stops at the student's error (a ValueError for p = 0) judges no values.
    unscored = {function for function, points in rubric.points_by_test(assignment_id).items() if not points}
    outcomes = dependencies.counted_behaviour_checks(
        record.outcomes, behaviour, partial_credit.stages_pinned(record.outcomes, behaviour | unscored), unscored)
    called = dependencies.stages_called(code, STAGES_BY_ASSIGNMENT[assignment_id])
    tests = score_outcomes(assignment_id, dependencies.pointed_to_failing_stages(outcomes, called))
    hints, judged = learning(assignment_id, code)
    row = GradedRow(student_id, assignment_id, RowStatus(RowKind.GRADED), 0.0, rubric.max_score(assignment_id),
                    tests, tuple(record.load_problems), record.isolation, code.language, run_trust,
                    tuple(code.notes), tuple(devices), hints=hints, predictions=judged,
                    think_answers=think_answers(assignment_id, code),
                    float32_settings=record.float32_settings)
    charged = dataclasses.replace(row, hint_charges=hint_charges(row, rubric.hint_prices()))
    return dataclasses.replace(charged, score=max(0.0, charged.before_term))


def think_answers(assignment_id: str, code: ExtractedCode) -> tuple[ThinkAnswer, ...]:
    """The notebook's answers to its think-about-it questions, in its order (none scored)."""
    answers = code.records.think_answers
    return tuple(ThinkAnswer(question.id, answers[question.id])
                 for question in think_about_it.questions_of(assignment_id) if question.id in answers)


def learning(assignment_id: str, code: ExtractedCode) -> tuple[tuple[HintUse, ...], tuple[PredictionResult, ...]]:
    """The hint tiers the notebook records, in stage order, and its predictions judged."""
    tiers = code.records.hint_tiers
    hints = tuple(HintUse(stage, tiers[stage]) for stage in STAGES_BY_ASSIGNMENT[assignment_id] if stage in tiers)
    return hints, predictions.judged(assignment_id, code.records.predictions)

"""Grade a class: find the submissions, run the hidden tests over them, score and write.

The trusted grading runs in forked shard processes (one per ``--jobs``), each running one
pytest session over its share of the submissions; student code runs only in the sandboxed
workers that each shard's fork server spawns.
"""

from __future__ import annotations

import multiprocessing
import traceback
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import torch

from autograder.course import rubric
from autograder.course.paths import HIDDEN_TESTS_DIR, KIT_ROOT
from autograder.course.reference import load_reference
from autograder.grading.discovery import SubmissionEntry, discover
from autograder.grading.plugin import GradingPlugin, PreparedSubmission, SubmissionRecord
from autograder.notebooks.reading import NotebookError, extract_notebook_file
from autograder.sandbox.forkserver import ForkServer, ForkServerChannel
from autograder.sandbox.layout import MANUAL_SLOT, standard_sandbox, worker_uid
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.config import SandboxConfig
from autograder.worker.confinement import ISOLATION_FULL
from autograder.worker.warmup import warm_up_torch


@dataclass
class GradeOptions:
    """The knobs of ``python -m autograder grade``."""

    assignment: str | None = None
    jobs: int = 1
    timeout: float = 10.0
    device: str = "auto"  # auto | cpu | cuda
    memory_bytes: int = 4 * 2**30
    unsandboxed_floor: bool = False  # the benchmark's floor: no workers, no isolation


@dataclass
class GradedSubmission:
    """The outcome for one (student, assignment) row of grades.csv."""

    student_id: str
    assignment_id: str
    status: str
    score: float
    max_score: float
    tests: list[dict] = field(default_factory=list)
    isolation: str = ""
    load_problems: list[str] = field(default_factory=list)

    @property
    def graded(self) -> bool:
        """The notebook was graded (whatever the isolation); otherwise status says what went wrong."""
        return self.status.startswith("graded")
    language: str = "en"  # the notebook's language: the feedback page's, never the results'


def sandbox_for(slot: int, submitted: Path, out: Path, options: GradeOptions) -> SandboxConfig:
    # A single notebook's whole folder is hidden (tmpfs covers folders, not files).
    submissions = submitted if submitted.is_dir() else submitted.parent
    hide = [str(submissions.resolve()), str(out.resolve())]
    return standard_sandbox(worker_uid(slot), hide, options.memory_bytes)


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


class GradingError(Exception):
    """The grader itself failed (a broken hidden test, rubric or master notebook)."""


def _run_shard(prepared: list[PreparedSubmission], spawner: ForkServerChannel | None, sandbox: SandboxConfig,
               options: GradeOptions, progress) -> dict[int, SubmissionRecord]:
    """One pytest session over a share of the class (runs in a forked shard process)."""
    plugin = GradingPlugin(prepared, spawner, sandbox, options.timeout,
                           on_submission_done=lambda s: progress(s.student_id, s.assignment_id),
                           unsandboxed_floor=options.unsandboxed_floor)
    exit_code = pytest.main(_pytest_args({s.assignment_id for s in prepared}, options.device), plugins=[plugin])
    if exit_code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        raise GradingError(f"the hidden tests could not run (pytest exit code {int(exit_code)}):\n"
                           + "\n".join(plugin.problems)[-4000:])
    return plugin.records


def _shard_process(slot, prepared, spawner, sandbox, options, queue) -> None:
    try:
        torch.set_num_threads(1)
        warnings.simplefilter("ignore")  # a reference's UserWarning is no student's business
        records = _run_shard(prepared, spawner, sandbox, options,
                             lambda student, assignment: queue.put(("done", student, assignment)))
        queue.put(("records", slot, records))
    except BaseException:  # noqa: BLE001 - the parent must hear about any failure
        queue.put(("failed", slot, traceback.format_exc()))
    finally:
        queue.close()
        queue.join_thread()


def _run_shards(shards: list[list[PreparedSubmission]], submitted: Path, out: Path,
                options: GradeOptions, progress: Callable[[str, str], None]) -> dict[int, SubmissionRecord]:
    # The fork server starts first: its torch import overlaps the grader's own start-up work.
    forkserver = None if options.unsandboxed_floor else ForkServer(channels=len(shards))
    try:
        return _collect_shards(shards, forkserver, submitted, out, options, progress)
    finally:
        if forkserver is not None:
            forkserver.close()


def _collect_shards(shards, forkserver: ForkServer | None, submitted: Path, out: Path, options: GradeOptions,
                    progress: Callable[[str, str], None]) -> dict[int, SubmissionRecord]:
    for assignment in {s.assignment_id for shard in shards for s in shard}:
        load_reference(assignment)  # loaded once, before forking, and shared by every shard
    warm_up_torch()  # while the fork server warms up on another core, not in every shard
    context = multiprocessing.get_context("fork")
    queue = context.Queue()
    processes = [
        context.Process(target=_shard_process,
                        args=(slot, shard, forkserver.channels[slot] if forkserver else None,
                              sandbox_for(slot, submitted, out, options), options, queue))
        for slot, shard in enumerate(shards) if shard
    ]
    for process in processes:
        process.start()
    records: dict[int, SubmissionRecord] = {}
    failures = []
    remaining = len(processes)
    while remaining:
        message = queue.get()
        if message[0] == "done":
            progress(message[1], message[2])
        elif message[0] == "records":
            records.update(message[2])
            remaining -= 1
        else:
            failures.append(message[2])
            remaining -= 1
    for process in processes:
        process.join()
    if failures:
        raise GradingError("a grading shard failed:\n" + "\n".join(failures))
    return records


def _prepare(entries: list[SubmissionEntry]) -> tuple[list[PreparedSubmission], dict[int, str]]:
    """Read every notebook in the trusted process; unreadable ones get their status now."""
    prepared, problems = [], {}
    for index, entry in enumerate(entries):
        if entry.problem:
            problems[index] = entry.problem
            continue
        try:
            code = extract_notebook_file(entry.path)
        except NotebookError as error:
            problems[index] = f"unreadable: {error}"
            continue
        except (RecursionError, MemoryError) as error:  # one hostile file must not stop the class
            problems[index] = f"unreadable: the notebook is too large or nested to read ({type(error).__name__})"
            continue
        prepared.append(PreparedSubmission(index, entry.student_id, entry.assignment_id, code))
    return prepared, problems


def _graded_status(record: SubmissionRecord) -> str:
    """``graded``, or ``graded (weaker isolation: ...)`` so that grades.csv shows the warning too."""
    if record.isolation in ("", ISOLATION_FULL):  # "" is the benchmark's floor, never a real run
        return "graded"
    return f"graded (weaker isolation: {record.isolation})"


def grade_class(submitted: Path, out: Path, options: GradeOptions | None = None,
                progress: Callable[[str, str], None] = lambda student, assignment: None,
                ) -> list[GradedSubmission]:
    """Grade every submission under ``submitted``; one GradedSubmission per grades.csv row."""
    options = options or GradeOptions()
    return grade_entries(discover(submitted, options.assignment), submitted, out, options, progress)


def grade_entries(entries: list[SubmissionEntry], submitted: Path, out: Path, options: GradeOptions,
                  progress: Callable[[str, str], None]) -> list[GradedSubmission]:
    """Grade discovered submissions (``submitted`` and ``out`` are hidden from the workers)."""
    prepared, problems = _prepare(entries)
    jobs = max(1, min(options.jobs, len(prepared), MANUAL_SLOT))  # one uid per job slot
    # Spread each assignment's submissions over the shards so each shard has a similar load.
    ordered = sorted(prepared, key=lambda s: (s.assignment_id, s.student_id))
    shards = [ordered[slot::jobs] for slot in range(jobs)]
    records = _run_shards(shards, submitted, out, options, progress) if prepared else {}
    languages = {submission.index: submission.code.language for submission in prepared}
    for index in problems:
        progress(entries[index].student_id, entries[index].assignment_id)
    graded = []
    for index, entry in enumerate(entries):
        max_score = rubric.max_score(entry.assignment_id)
        if index in problems:
            graded.append(GradedSubmission(entry.student_id, entry.assignment_id, problems[index],
                                           0.0, max_score))
            continue
        record = records[index]
        tests = rubric.score_tests(entry.assignment_id, record.outcomes)
        score = round(sum(test["points"] for test in tests), 2)
        graded.append(GradedSubmission(entry.student_id, entry.assignment_id, _graded_status(record), score,
                                       max_score, tests, record.isolation, record.load_problems,
                                       languages[index]))
    return graded

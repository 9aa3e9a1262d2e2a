"""A grading shard: one pytest session over a share of the class, in a trusted process of its own.

The grading command's process forks no shard itself: it asks the fork server, whose warm torch
each shard then shares (``autograder.worker.forkserver``; trusted code is imported here, in
the shard, never in the server). A shard first proves the guarantees from real workers of its
job slot, then loads the references, runs the hidden tests (the canaries first) and reports,
in order, through its link to the grading command: the run's trust, each finished submission,
then the records (typed messages: ``autograder.grading.link``). Whatever fails is reported as
the grader's failure, never as a student's.
"""

from __future__ import annotations

import os
import socket
import traceback
import warnings
from multiprocessing.connection import Connection

import pytest

from autograder.course.reference import load_reference
from autograder.grading import trust
from autograder.grading.link import RecordsReady, ShardFailed, SubmissionDone, TrustProved, Untrusted
from autograder.grading.plugin import NOTEBOOK_BUDGET_TIMEOUTS, GradingPlugin, SubmissionOpener
from autograder.paths import HIDDEN_TESTS_DIR, KIT_ROOT
from autograder.probes.errors import SandboxError, WorkerProblem
from autograder.records.jobs import ACCELERATORS, PreparedSubmission, ShardJob
from autograder.records.results import RunTrust
from autograder.sandbox.guarantees import check_guarantees
from autograder.sandbox.opener import SandboxedOpener
from autograder.sandbox.session import ForkServerChannel
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.accelerators import open_cuda_context


def serve(link_fd: int, control_fd: int) -> None:
    """A shard forked by the fork server: its job arrives on the link; workers are forked
    through the job slot's control channel."""
    link = Connection(link_fd)
    job: ShardJob = link.recv()
    if job.sandbox is None:
        raise SandboxError("a shard forked by the fork server was sent a job without a sandbox")
    channel = ForkServerChannel(socket.socket(fileno=control_fd))
    budget = NOTEBOOK_BUDGET_TIMEOUTS * job.options.timeout
    run(job, link, SandboxedOpener(channel, job.sandbox, job.options.timeout, budget), channel)


def run(job: ShardJob, link: Connection, opener: SubmissionOpener, channel: ForkServerChannel | None) -> None:
    """Grade ``job`` and report through ``link`` (``channel``: where the guarantees are tried;
    None for workers without a sandbox). A shard that keeps serving (the submission service's
    warm grader) then grades each further list of submissions that arrives on ``link``, with the
    guarantees it proved and the canaries it graded at the start, until the link closes."""
    try:
        warnings.simplefilter("ignore")  # a reference's UserWarning is no student's business
        link.send(TrustProved(_proved_trust(job, channel)))
        if "cuda" in job.devices:
            _open_own_cuda_context()
        submissions = job.submissions
        while _grade(submissions, job, link, opener) and job.keep_serving:
            try:
                submissions = link.recv()  # the next submissions, once these are reported
            except EOFError:
                break
    except trust.GraderUntrusted as error:
        link.send(Untrusted(str(error)))
    except SandboxError as error:
        link.send(ShardFailed(str(error)))
    except BaseException:  # noqa: BLE001 - the grading command must hear about any failure
        link.send(ShardFailed(traceback.format_exc()[-4000:]))
    finally:
        link.close()


def _grade(submissions: list[PreparedSubmission], job: ShardJob, link: Connection, opener: SubmissionOpener) -> bool:
    """One pytest session over ``submissions``, reported through ``link``; False when it could not run."""
    assignments = {s.assignment_id for s in submissions}
    for assignment in assignments:
        load_reference(assignment)

    def report_done(submission: PreparedSubmission) -> None:
        if not submission.canary:  # the canaries are the grader's, no student's progress
            link.send(SubmissionDone(submission.key))

    plugin = GradingPlugin(submissions, opener, job.options.timeout, on_submission_done=report_done,
                           memory_limit=f"{job.sandbox.memory_bytes // 2**20} MiB" if job.sandbox else None)
    exit_code = _own_pytest(pytest_args(assignments, job.devices), plugin)
    if exit_code not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
        link.send(ShardFailed(f"the hidden tests could not run (pytest exit code {int(exit_code)}):\n"
                              + "\n".join(plugin.problems)[-4000:]))
        return False
    link.send(RecordsReady(plugin.records))
    return True


# Settings a caller's shell may hold for its own pytest runs: the hidden tests' session takes none
# of them (an instructor's PYTEST_ADDOPTS=-rs would otherwise stop every run: no terminal plugin).
_CALLERS_PYTEST_SETTINGS = ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")


def _own_pytest(args: list[str], plugin: GradingPlugin) -> int | pytest.ExitCode:
    """``pytest.main`` on ``args`` alone, whatever the environment says (in a forked shard, and in
    the benchmark's floor, which runs in the caller's own process)."""
    saved = {name: os.environ.pop(name) for name in _CALLERS_PYTEST_SETTINGS if name in os.environ}
    try:
        return pytest.main(args, plugins=[plugin])
    finally:
        os.environ.update(saved)


def _open_own_cuda_context() -> None:
    """This shard's own CUDA context, made before any test's clock starts (the fork server that
    forked it never initialises CUDA, so that its children can)."""
    try:
        open_cuda_context()
    except Exception as error:  # noqa: BLE001 - whatever CUDA raises, the run cannot test on it
        raise SandboxError(f"CUDA cannot be used in a grading shard ({type(error).__name__}: {error}). Run"
                           " `python -m autograder doctor`, or grade with --device cpu.") from None


def _proved_trust(job: ShardJob, channel: ForkServerChannel | None) -> RunTrust:
    """What the guarantees checked from this slot's workers allow (GraderUntrusted: nothing)."""
    if channel is None:
        return RunTrust(None)
    if job.sandbox is None or job.neighbour is None or job.targets is None:
        raise SandboxError("a sandboxed shard's job must give its sandbox, its neighbour's and the guarantees' targets")
    try:
        report = check_guarantees(channel, job.sandbox, job.neighbour, job.targets)
    except WorkerProblem as problem:
        raise trust.GraderUntrusted(f"a sandboxed worker could not run the start-up checks ({problem}). Run"
                                    " `python -m autograder doctor` to see what this machine can do.") from None
    return trust.require(report, job.options.accept_readable_secrets)


def pytest_args(assignments: set[str], devices: list[str]) -> list[str]:
    """A quiet pytest session over the hidden tests of ``assignments``, on ``devices`` only."""
    files = [str(HIDDEN_TESTS_DIR / f"test_{a}.py") for a in ASSIGNMENTS if a in assignments]
    # Plugins that cost time on every test and give the grader nothing are switched off: the
    # terminal report alone costs about 0.5 ms per test (GradingPlugin keeps what went wrong),
    # and unraisableexception and threadexception run full garbage collections.
    # --strict-markers: a hidden test whose stage marker the curriculum does not know (a typo) stops the
    # run, rather than scoring under no stage (autograder/grading/markers.py declares them).
    args = ["--capture=no", "--assert=plain", "--import-mode=importlib", "-o", "addopts=", "--strict-markers",
            "--rootdir", str(KIT_ROOT)]
    for plugin in ("terminal", "cacheprovider", "logging", "warnings", "junitxml", "doctest", "pastebin", "stepwise",
                   "unraisableexception", "threadexception"):
        args += ["-p", f"no:{plugin}"]
    # Devices not tested are deselected up front: cheaper than a skip in every test. On a GPU, the
    # float64 instances add nothing that the GPU's float32 and the CPU's float64 do not show (and
    # GPU instances carry no points): they are left out too.
    deselected = [f"not {name}" for name in ACCELERATORS if name not in devices]
    deselected += [f"not ({name} and float64)" for name in ACCELERATORS if name in devices]
    if deselected:
        args += ["-k", " and ".join(deselected)]
    return args + files

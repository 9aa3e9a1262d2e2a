"""Whether the grader may trust its own run: the canary, and what it proved before grading.

- **The guarantees.** Before any student's code runs, workers started exactly as a student's try
  what student code must never do (``autograder.sandbox.guarantees``). If they could read the
  secrets or other students' work, the run refuses to grade unless the instructor accepts that
  risk explicitly; if they could write into the outputs, the submissions or the kit, it refuses.
- **The canary.** Each assignment's reference solution is graded through the very path students
  take (fork server, sandbox, uid, limits), first in every shard. Unless it earns full marks,
  nothing is graded: a sandbox that breaks correct code would hand out zeros silently.
Either failure is the grader's, never a student's: no grade is written, the run exits 1, and
the message says what broke and how to fix it.
"""

from __future__ import annotations

import os
from pathlib import Path

from autograder.course.rubric import RUBRIC_FILE
from autograder.findings.render import render
from autograder.paths import HIDDEN_TESTS_DIR, KIT_ROOT, solution_notebook
from autograder.reading.notebook import extract_notebook_file
from autograder.records.jobs import PreparedSubmission, SubmissionRecord, TestOutcome
from autograder.records.results import UNSAFE_FLAG, RunTrust, TestStatus
from autograder.records.submissions import SubmissionKey
from autograder.sandbox.layout import closed_to_others, python_paths, python_probe_files
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.worker.isolation import Guarantee, GuaranteeReport, Targets

CANARY_ID = "\0canary"  # a student id no folder can have (no file name holds a NUL)
READABILITY_PROBE = ".attention-kit-readability-check"  # a file in the outputs that no worker may read
_SHOWN_FAILURES = 3


class GraderUntrusted(Exception):
    """The grader cannot trust its own run; the message says why and what to do."""


def targets(assignments: list[str], submissions: list[Path], submitted: Path, out: Path, pids: list[int]) -> Targets:
    """What the guarantees are tried against: the secrets of the graded assignments, a few
    submissions (another student's work), a file in the outputs, the folders no student may
    write into, and the grader's processes (``pids``, and this one)."""
    secrets = [solution_notebook(a) for a in assignments] + [HIDDEN_TESTS_DIR / f"test_{a}.py" for a in assignments]
    probe = out / READABILITY_PROBE  # removed again once the shards are done (see grading.engine)
    probe.write_text("an output no student may read\n")
    folder = submitted if submitted.is_dir() else submitted.parent
    return Targets(secrets=[str(path) for path in [*secrets, RUBRIC_FILE, *submissions[:3], probe]],
                   protected=[str(path) for path in (out, folder, KIT_ROOT)], pids=[os.getpid(), *pids],
                   python_files=python_probe_files())


def require(report: GuaranteeReport, accept_readable_secrets: bool) -> RunTrust:
    """The run's trust, or GraderUntrusted when it must not grade."""
    if report.unreadable_python:
        raise GraderUntrusted(unreadable_python_text(report.unreadable_python))
    written = next((what for g, what in report.broken if g is Guarantee.OUTPUTS_UNWRITABLE), None)
    if written:
        raise GraderUntrusted(f"student code could write where grades are made ({written}). Run the grader as"
                              " root (full isolation), or on a kernel with Landlock (see SECURITY.md).")
    read = next((what for g, what in report.broken if g is Guarantee.SECRETS_UNREADABLE), None)
    if read and not accept_readable_secrets:
        raise GraderUntrusted(
            f"student code could read what it must not ({read}). Run the grader as root with full isolation, or on"
            " a kernel with Landlock, or make those files unreadable to other users (chmod -R o-rwx on the kit,"
            f" the submissions and the outputs); {UNSAFE_FLAG} grades anyway and says so in every row.")
    return RunTrust(report, secrets_exposed=bool(read))


def combined(trusts: list[RunTrust]) -> RunTrust:
    """One run's trust from each shard's: a guarantee holds only where it held in every shard."""
    reports = [t.guarantees for t in trusts if t.guarantees is not None]
    if not reports:
        return RunTrust(None)
    broken = {guarantee: what for report in reports for guarantee, what in report.broken}
    held = tuple(g for g in reports[0].held if g not in broken)
    return RunTrust(GuaranteeReport(held, tuple(broken.items())), any(t.secrets_exposed for t in trusts))


def canaries(assignments: list[str], slots: int) -> list[list[PreparedSubmission]]:
    """For each shard slot, the reference solutions it grades first: every assignment once in
    all, and every slot (every worker uid) at least one."""
    per_slot: list[list[PreparedSubmission]] = [[] for _ in range(slots)]
    for index in range(max(slots, len(assignments))):
        assignment = assignments[index % len(assignments)]
        code = extract_notebook_file(solution_notebook(assignment), STAGES_BY_ASSIGNMENT[assignment])
        per_slot[index % slots].append(PreparedSubmission(-1 - index, f"{CANARY_ID}{index}", assignment, code,
                                                          canary=True))
    return per_slot


def check_canaries(records: dict[SubmissionKey, SubmissionRecord], canary_keys: list[SubmissionKey]) -> None:
    """Raise GraderUntrusted unless every canary passed every test; the message says what broke."""
    for key in canary_keys:
        record = records.get(key)
        failed = [outcome for outcome in record.outcomes if outcome.status is not TestStatus.PASSED] if record else []
        if record is not None and record.outcomes and not failed:
            continue
        lines = [f"the reference solution of {key[1]} did not earn full marks through the sandbox, so no"
                 " grade of this run could be trusted."]
        lines += [f"  {outcome.name}: {render(outcome.finding).splitlines()[0] if outcome.finding else ''}"
                  for outcome in failed[:_SHOWN_FAILURES]]
        cause = _proved_cause(failed)
        if cause:
            lines.append(cause)
        raise GraderUntrusted("\n".join(lines))


def _proved_cause(failed: list[TestOutcome]) -> str:
    """What made correct code fail, as far as the failures prove it, with the advice for that cause
    only. (A Python installation the workers cannot read is proved earlier, by the start-up checks;
    a worker killed for memory pressure from outside is the machine's, and is retried.)"""
    keys = {outcome.finding.key for outcome in failed if outcome.finding is not None}
    if "memory_limit" in keys:
        return ("The reference used more memory than each worker may use here (the container's memory, shared among"
                " the job slots, or --memory-gib): give the container more memory, grade with fewer --jobs, or with a"
                " larger --memory-gib if it was set lower.")
    if "crashed" in keys:
        return ("The worker running the reference stopped (killed by a signal, or it crashed): look for another"
                " process killing the grader's workers, then grade again.")
    if any(outcome.status is TestStatus.TIMEOUT for outcome in failed):
        return ("The reference ran out of time: this machine is slower or busier than --timeout allows (a CPU"
                " quota, other work running). Grade again with a larger --timeout, or fewer --jobs.")
    return ""


def unreadable_python_text(files: tuple[str, ...]) -> str:
    """Why nothing can be graded when a sandboxed worker could not read the Python installation
    (proved: it tried to read ``files``), and what to do."""
    closed = {path: found for path in python_paths() if (found := closed_to_others(path))}
    where = "; ".join(f"{path} (mode {mode:o} on {folder})" for path, (folder, mode) in closed.items())
    folders = " ".join(sorted({folder for folder, _ in closed.values()}))
    advice = (f"It is closed to other users: {where}. Make it readable by them (chmod o+rx {folders}), or install"
              " the kit where other users can read it" if closed else "Make it readable by other users")
    return (f"a sandboxed worker, which runs as a user of its own, could not read the Python installation"
            f" ({', '.join(files)}), so correct code would fail in it. {advice}, or run the grader with full"
            " isolation (as root with CAP_SYS_ADMIN, see SECURITY.md).")

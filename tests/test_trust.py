"""What the grader decides from what it proved: refuse, or grade and say so in every row.

The guarantees themselves are tried from real workers in tests/adversarial/ and test_grading_engine;
here the decisions are checked on every combination, including those this machine cannot
produce (a kernel without Landlock, where student code could read the secrets).
"""

from __future__ import annotations

import pytest

from autograder.findings.finding import finding
from autograder.grading import trust
from autograder.records.jobs import SubmissionRecord, TestOutcome
from autograder.records.results import UNSAFE_FLAG, GradedRow, RowKind, RowStatus, RunTrust, TestStatus
from autograder.sandbox.layout import closed_to_others
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.isolation import Guarantee, GuaranteeReport, Isolation, IsolationLevel, Layer


def _report(*broken: Guarantee) -> GuaranteeReport:
    return GuaranteeReport(tuple(g for g in Guarantee if g not in broken),
                           tuple((g, "what the worker managed") for g in broken))


def _row(isolation: Isolation, run_trust: RunTrust) -> GradedRow:
    return GradedRow("ada", ASSIGNMENTS[0], RowStatus(RowKind.GRADED), 100, 100, isolation=isolation,
                     trust=run_trust)


FULL = Isolation(IsolationLevel.FULL, (Layer.NAMESPACES, Layer.OWN_USER))
LIMITS = Isolation(IsolationLevel.LIMITS_ONLY, (Layer.OWN_USER, Layer.SECCOMP),
                   ((Layer.NAMESPACES, "Operation not permitted"),))


def test_a_run_that_proved_everything_is_simply_graded():
    assert _row(FULL, trust.require(_report(), accept_readable_secrets=False)).status_text() == "graded"


def test_readable_secrets_stop_the_run_with_the_fix_and_the_flag():
    with pytest.raises(trust.GraderUntrusted, match="chmod -R o-rwx") as refused:
        trust.require(_report(Guarantee.SECRETS_UNREADABLE), accept_readable_secrets=False)
    assert UNSAFE_FLAG in str(refused.value)


def test_the_unsafe_flag_grades_and_every_row_says_so():
    run_trust = trust.require(_report(Guarantee.SECRETS_UNREADABLE), accept_readable_secrets=True)
    status = _row(LIMITS, run_trust).status_text()
    assert status.startswith("graded (")
    assert UNSAFE_FLAG in status
    assert "does not hold: secrets unreadable" in status


def test_writable_outputs_stop_the_run_even_with_the_flag():
    with pytest.raises(trust.GraderUntrusted, match="could write"):
        trust.require(_report(Guarantee.OUTPUTS_UNWRITABLE), accept_readable_secrets=True)


def test_a_weaker_run_keeps_a_short_status_and_puts_the_detail_in_the_results():
    row = _row(LIMITS, trust.require(_report(Guarantee.NO_NETWORK), accept_readable_secrets=False))
    assert row.status_text() == "graded (weaker isolation; does not hold: no network)"
    results = row.to_json()
    assert results["status"] == row.status_text()
    assert results["isolation"]["text"].startswith("limits only, with unprivileged user, seccomp (no namespaces")
    assert results["guarantees"] == {"held": ["secrets unreadable", "outputs unwritable", "no signals",
                                              "workers apart"], "broken": [["no network", "what the worker managed"]]}


def test_a_guarantee_holds_for_the_run_only_where_it_held_in_every_shard():
    combined = trust.combined([RunTrust(_report()), RunTrust(_report(Guarantee.NO_SIGNALS))])
    assert not combined.guarantees.holds(Guarantee.NO_SIGNALS)
    assert combined.guarantees.holds(Guarantee.NO_NETWORK)
    assert trust.combined([RunTrust(None)]) == RunTrust(None)


@pytest.mark.parametrize("slots", [1, 2, 3, 6])
def test_every_assignment_and_every_job_slot_get_a_canary(slots):
    canaries = trust.canaries(ASSIGNMENTS, slots)
    assert len(canaries) == slots
    assert all(shard for shard in canaries)
    assert {c.assignment_id for shard in canaries for c in shard} == set(ASSIGNMENTS)
    keys = [c.key for shard in canaries for c in shard]
    assert len(keys) == len(set(keys))
    assert all(c.canary and "\0" in c.student_id for shard in canaries for c in shard)


def test_a_failing_canary_stops_the_run_with_what_failed():
    [[canary]] = trust.canaries(ASSIGNMENTS[:1], 1)
    record = SubmissionRecord([TestOutcome("test_x[cpu]", "test_x", "softmax_naive", TestStatus.TIMEOUT,
                                           finding("stage_timed_out"))])
    with pytest.raises(trust.GraderUntrusted, match="test_x.cpu.: not run: an earlier test"):
        trust.check_canaries({canary.key: record}, [canary.key])
    with pytest.raises(trust.GraderUntrusted, match="did not earn full marks"):
        trust.check_canaries({}, [canary.key])  # a canary that never reported


def _canary_failing_with(status: TestStatus, key: str, **fields) -> str:
    [[canary]] = trust.canaries(ASSIGNMENTS[:1], 1)
    record = SubmissionRecord([TestOutcome("test_x[cpu]", "test_x", "softmax_naive", status, finding(key, **fields))])
    with pytest.raises(trust.GraderUntrusted) as refused:
        trust.check_canaries({canary.key: record}, [canary.key])
    return str(refused.value)


def test_a_canary_out_of_memory_names_the_memory_limit_only():
    message = _canary_failing_with(TestStatus.ERROR, "memory_limit", doing=finding("doing.answering"),
                                   limit="1536 MiB")
    assert "more memory" in message
    assert "fewer --jobs" in message
    assert "--timeout" not in message
    assert "chmod" not in message


def test_a_canary_killed_by_a_signal_says_so_without_other_advice():
    message = _canary_failing_with(TestStatus.ERROR, "crashed", doing=finding("doing.answering"), error="EOF")
    assert "killed by a signal" in message
    assert "--timeout" not in message
    assert "chmod" not in message


def test_a_canary_out_of_time_advises_more_time_only():
    message = _canary_failing_with(TestStatus.TIMEOUT, "timeout", limit="3", doing=finding("doing.answering"))
    assert "larger --timeout" in message
    assert "chmod" not in message
    assert "memory" not in message


def test_a_python_installation_the_workers_cannot_read_refuses_before_any_canary(monkeypatch, tmp_path):
    closed = tmp_path / "closed"
    (closed / "venv").mkdir(parents=True)
    closed.chmod(0o700)
    monkeypatch.setattr(trust, "python_paths", lambda: [str(closed / "venv")])
    report = GuaranteeReport(tuple(Guarantee), (), unreadable_python=(str(closed / "venv" / "os.py"),))
    with pytest.raises(trust.GraderUntrusted) as refused:
        trust.require(report, accept_readable_secrets=False)
    message = str(refused.value)
    assert f"could not read the Python installation ({closed / 'venv' / 'os.py'})" in message
    first_closed_folder, _ = closed_to_others(str(closed / "venv"))  # the first on the way: tmp_path's, or this one
    assert f"chmod o+rx {first_closed_folder}" in message
    assert "--timeout" not in message


def test_a_write_counts_only_where_it_reaches_the_real_folder(tmp_path):
    """A worker that wrote at the kit's path into a stand-in folder of its own scratch tmpfs (the
    parents of a kept path under /tmp) did not write into the kit: the guarantees compare the
    folder it saw with the real one."""
    from autograder.sandbox.guarantees import is_the_real_folder

    real = tmp_path.stat()
    stand_in = tmp_path / "stand-in"
    stand_in.mkdir()
    assert is_the_real_folder(str(tmp_path), real.st_dev, real.st_ino)
    assert not is_the_real_folder(str(tmp_path), stand_in.stat().st_dev, stand_in.stat().st_ino)
    assert is_the_real_folder(str(tmp_path / "gone"), real.st_dev, real.st_ino)  # unknown: counted as written

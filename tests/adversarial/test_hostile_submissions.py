"""No trick earns a point, harms another student, or outlives grading (issue 5).

One grading run of the real command (root, as in CI) over a class of hostile students, each the
solution with one answer cell replaced (see hostile_corpus.py), plus the untouched solution of
every assignment as the control. Every test below reads that one run.
"""

from __future__ import annotations

import json

import pytest
from containment import CANARY_TEXT, GradingRun, control_id
from hostile_corpus import Hostile, check_answer_cells_exist, hostile_submissions

from autograder.student.curriculum import ASSIGNMENTS

pytestmark = pytest.mark.slow

HOSTILES = hostile_submissions()


def test_the_corpus_is_large_enough():
    check_answer_cells_exist()
    assert len(HOSTILES) >= 30
    assert len({hostile.student_id for hostile in HOSTILES}) == len(HOSTILES)


@pytest.mark.parametrize("hostile", HOSTILES, ids=lambda hostile: hostile.student_id)
def test_the_trick_earns_nothing_and_costs_nothing_else(hostile_run: GradingRun, hostile: Hostile):
    row = hostile_run.grades[(hostile.student_id, hostile.assignment)]
    assert row["status"] == "graded", row
    earned = hostile_run.stage_points(hostile.student_id, hostile.assignment)
    control = hostile_run.stage_points(control_id(hostile.assignment), hostile.assignment)
    for stage in hostile.targets:
        assert control.get(stage, 0) > 0, f"the solution earns nothing on {stage}: the check would prove nothing"
        assert earned.get(stage, 0) == 0, (
            f"{hostile.student_id} earned {earned[stage]} on {stage} with a trick ({hostile.why});"
            f" its messages: {hostile_run.messages(hostile.student_id, hostile.assignment, stage)}")
    if hostile.others_keep:
        for stage, points in control.items():
            if stage in hostile.targets or stage in hostile.ignore:
                continue
            assert earned.get(stage, 0) == points, (
                f"{hostile.student_id}'s trick on {hostile.targets or 'nothing'} cost it {stage}:"
                f" {earned.get(stage, 0)} instead of {points};"
                f" {hostile_run.messages(hostile.student_id, hostile.assignment, stage)}")


def test_grading_completes_with_every_row(hostile_run: GradingRun):
    assert hostile_run.report["returncode"] == 0, hostile_run.stdout[-3000:] + hostile_run.stderr[-3000:]
    students = {h.student_id for h in HOSTILES} | {control_id(a) for a in ASSIGNMENTS}
    assert set(hostile_run.grades) == {(student, a) for student in students for a in ASSIGNMENTS}
    for hostile in HOSTILES:  # the other notebooks of a hostile student are simply not there
        for assignment in set(ASSIGNMENTS) - {hostile.assignment}:
            assert hostile_run.grades[(hostile.student_id, assignment)]["status"] == "missing"


def test_nothing_is_left_running(hostile_run: GradingRun):
    assert hostile_run.report["own_pid_namespace"], "unshare was not available: only worker uids were checked"
    assert hostile_run.report["leftovers"] == []


def test_no_file_outside_the_output_folder_changes(hostile_run: GradingRun):
    assert hostile_run.changes == [], (
        "files outside the output folder changed during grading (if someone was editing the kit at the"
        f" same time, rerun): {hostile_run.changes[:20]}")
    assert hostile_run.context.canary.read_text() == CANARY_TEXT


def test_workers_leave_nothing_in_the_machines_scratch_folders(hostile_run: GradingRun):
    assert hostile_run.scratch_leftovers == []


def test_no_student_code_ran_in_the_grader_or_a_later_python(hostile_run: GradingRun):
    assert sorted(p.name for p in hostile_run.context.markers.iterdir()) == []


def test_the_output_folder_holds_only_what_the_grader_wrote(hostile_run: GradingRun):
    out = hostile_run.context.out
    for (student, assignment), row in hostile_run.grades.items():
        results = hostile_run.results(student, assignment)
        assert (results["student_id"], results["assignment_id"]) == (student, assignment)
        assert round(sum(test["points"] for test in results["tests"]), 2) == float(row["score"])
    expected = {out / "grades.csv"}
    for (student, assignment), row in hostile_run.grades.items():
        expected |= {out / "results" / student / f"{assignment}.json",
                     out / "feedback" / student / f"{assignment}.html"}
        if row["status"].startswith("graded"):  # the code it was graded on
            expected.add(out / "answers" / student / f"{assignment}.py")
    written = {path for path in out.rglob("*") if path.is_file()}
    unexpected = [str(path) for path in written - expected if path.parent != out]  # top level: reports
    assert unexpected == []
    assert not [path for path in written if path.name.startswith(".")], "a temporary file was left"


def test_what_students_send_stays_small_in_the_outputs(hostile_run: GradingRun):
    out = hostile_run.context.out
    sizes = {str(path): path.stat().st_size for path in out.rglob("*") if path.is_file()}
    large = {path: size for path, size in sizes.items() if size > 512 * 1024 and not path.endswith("grades.csv")}
    assert large == {}


def test_forged_claims_do_not_weaken_the_reported_isolation(hostile_run: GradingRun):
    # One student forged its ready message ("isolation": "none"): the grader believes only what
    # the worker said before any student code ran, so the run reports full isolation.
    assert "weaker isolation" not in hostile_run.stdout
    forged = hostile_run.results("01-forges-its-readiness", "01_attention_scores")
    assert len(json.dumps(forged["load_problems"])) < 300_000

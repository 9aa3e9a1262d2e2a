"""An instructor's term on a class of 21: nbgrader's timestamps against two due dates with a late
penalty, an adjustments file, a regrade that changes nothing, and the similar-submissions page,
through the real commands (`grade`, `similarity`, `report`, `export`)."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from nbgrader.exchange.abc import Exchange
from term_class import ASSIGNMENT, write_term_class

from autograder import cli
from autograder.notebooks.variants import filled, load_solution, load_student, write_submission
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

pytestmark = pytest.mark.slow

SECOND = "02_self_attention"
NBGRADER_FORMAT = Exchange.timestamp_format.default_value  # "%Y-%m-%d %H:%M:%S.%f %Z"
DUE = {ASSIGNMENT: "2025-03-01T23:59:00+01:00", SECOND: "2025-03-08T23:59:00+01:00"}
PENALTY = 10
# timestamp.txt as nbgrader writes it: submit's default format, a custom format with an offset,
# zip_collect's ISO-8601 without one (UTC), and a file that holds no time.
TIMESTAMPS = {
    ("student01", ASSIGNMENT): "2025-03-01 22:00:00.000000 UTC",
    ("source", ASSIGNMENT): "2025-03-02 09:30:00.000000 UTC",
    ("copier", ASSIGNMENT): "2025-03-03 23:00:00 +0100",
    ("student02", ASSIGNMENT): "2025-03-04 08:00:00",
    ("student04", ASSIGNMENT): "the day before the deadline",
    ("stubs", ASSIGNMENT): "2025-03-21 12:00:00.000000 UTC",
    ("student01", SECOND): "2025-03-08 21:00:00.000000 UTC",
    ("student02", SECOND): "2025-03-09 10:00:00.000000 UTC",
}
# (submitted_at in grades.csv, late_penalty) for the rows above
EXPECTED_TIMES = {
    ("student01", ASSIGNMENT): ("2025-03-01T22:00:00+00:00", "0"),
    ("source", ASSIGNMENT): ("2025-03-02T09:30:00+00:00", "10"),
    ("copier", ASSIGNMENT): ("2025-03-03T22:00:00+00:00", "20"),
    ("student02", ASSIGNMENT): ("2025-03-04T08:00:00+00:00", "30"),
    ("stubs", ASSIGNMENT): ("2025-03-21T12:00:00+00:00", "100"),  # never more than the maximum
    ("student01", SECOND): ("2025-03-08T21:00:00+00:00", "0"),
    ("student02", SECOND): ("2025-03-09T10:00:00+00:00", "10"),
}
ADJUSTMENTS = [
    ("source", ASSIGNMENT, "5", "Regrade: the loop in attention_scores is right"),
    ("student05", ASSIGNMENT, "-3.5", "Answers pasted from a classmate's screen (admitted)"),
    ("student05", ASSIGNMENT, "1", "Asked for help in office hours"),
    ("student01", SECOND, "2", "Regrade request accepted"),
]


@dataclass(frozen=True)
class Term:
    submitted: Path
    out: Path
    grades: dict[tuple[str, str], dict[str, str]]
    result: subprocess.CompletedProcess


def _grade(submitted: Path, out: Path, adjustments: Path) -> subprocess.CompletedProcess:
    due = [argument for assignment, time in DUE.items() for argument in ("--due", f"{assignment}={time}")]
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out), "--jobs", "2",
               *due, "--late-penalty", str(PENALTY), "--adjustments", str(adjustments)]
    return subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=900)


def _rows(out: Path) -> dict[tuple[str, str], dict[str, str]]:
    with (out / "grades.csv").open(newline="") as handle:
        return {(row["student_id"], row["assignment_id"]): row for row in csv.DictReader(handle)}


@pytest.fixture(scope="module")
def term(tmp_path_factory) -> Term:
    root = tmp_path_factory.mktemp("term")
    submitted = root / "submitted"
    write_term_class(submitted)
    complete = filled(load_student(SECOND), load_solution(SECOND), STAGES_BY_ASSIGNMENT[SECOND])
    for student in ("student01", "student02", "student03", "source"):
        write_submission(submitted, student, SECOND, complete)
    for (student, assignment), text in TIMESTAMPS.items():
        (submitted / student / assignment / "timestamp.txt").write_text(text)
    adjustments = root / "adjustments.csv"
    with adjustments.open("w", newline="") as handle:
        csv.writer(handle).writerows([("student_id", "assignment_id", "points", "reason"), *ADJUSTMENTS])
    result = _grade(submitted, root / "out", adjustments)
    assert result.returncode == 0, result.stdout + result.stderr
    return Term(submitted, root / "out", _rows(root / "out"), result)


def _results(term: Term, student: str, assignment: str) -> dict:
    return _results_in(term.out, student, assignment)


def test_grades_csv_keeps_its_columns_first_and_adds_the_term(term):
    with (term.out / "grades.csv").open() as handle:
        assert handle.readline().strip() == \
            "student_id,assignment_id,score,max_score,status,submitted_at,late_penalty"
    assert len({student for student, _ in term.grades}) == 21
    assert len(term.grades) == 21 * 2  # every student gets a row for both notebooks (17 missing the second)


def test_late_penalties_follow_the_timestamps_and_the_two_due_dates(term):
    for key, (submitted_at, penalty) in EXPECTED_TIMES.items():
        row = term.grades[key]
        assert (row["submitted_at"], row["late_penalty"]) == (submitted_at, penalty), key
        assert row["status"] == "graded", key


def test_unknown_times_are_on_time_and_flagged(term):
    assert term.grades[("student03", ASSIGNMENT)]["status"] == "graded (no timestamp.txt: counted as on time)"
    assert term.grades[("student04", ASSIGNMENT)]["status"] == \
        "graded (timestamp.txt holds no time: counted as on time)"
    for key in (("student03", ASSIGNMENT), ("student04", ASSIGNMENT)):
        assert (term.grades[key]["submitted_at"], term.grades[key]["late_penalty"]) == ("", "0")
    missing = term.grades[("student05", SECOND)]
    assert missing["status"] == "missing"
    assert missing["late_penalty"] == "0"
    flagged = [key for key, row in term.grades.items() if row["status"].endswith("counted as on time)")]
    assert len(flagged) == 18  # 25 graded notebooks, 7 with a readable timestamp.txt
    assert f"Counted as on time, with no readable timestamp.txt: {len(flagged)}" in term.result.stdout


def test_score_is_after_penalty_and_adjustments(term):
    adjustments: dict[tuple[str, str], float] = {}
    for student, assignment, points, _ in ADJUSTMENTS:
        adjustments[(student, assignment)] = adjustments.get((student, assignment), 0) + float(points)
    for key, row in term.grades.items():
        details = _results(term, *key) if row["status"] != "missing" else {"tests_score": 0}
        penalty = float(row["late_penalty"] or 0)
        expected = max(0.0, round(details["tests_score"] - penalty + adjustments.get(key, 0), 2))
        assert float(row["score"]) == pytest.approx(expected), key
    assert float(term.grades[("source", ASSIGNMENT)]["score"]) == pytest.approx(95)  # 100 - 10 + 5
    assert float(term.grades[("stubs", ASSIGNMENT)]["score"]) == 0  # never below 0


def test_results_record_time_due_penalty_and_adjustments(term):
    source = _results(term, "source", ASSIGNMENT)
    assert source["submission_time"] == {"submitted_at": "2025-03-02T09:30:00+00:00", "timestamp_problem": None,
                                         "due": DUE[ASSIGNMENT], "days_late": 1, "late_penalty": 10.0}
    assert source["adjustments"] == [{"points": 5.0, "reason": ADJUSTMENTS[0][3]}]
    assert source["score"] == 95
    assert source["tests_score"] == 100
    assert _results(term, "student03", ASSIGNMENT)["submission_time"]["timestamp_problem"] == "missing"


def test_the_feedback_page_shows_time_due_penalty_and_reasons(term):
    page = (term.out / "feedback" / "student05" / f"{ASSIGNMENT}.html").read_text()
    assert "Answers pasted from a classmate&#39;s screen (admitted)" in page
    assert "Asked for help" in page
    assert "\u22123.5" in page
    assert "+1" in page
    page = (term.out / "feedback" / "copier" / f"{ASSIGNMENT}.html").read_text()
    assert "Submitted 2025-03-03 23:00:00 (UTC+01:00); due 2025-03-01 23:59:00 (UTC+01:00)." in page
    assert "Late by 2 days" in page
    assert "Late penalty" in page
    assert "\u221220" in page
    page = (term.out / "feedback" / "student03" / f"{ASSIGNMENT}.html").read_text()
    assert "no timestamp.txt" in page
    assert "counts as on time" in page


def test_a_regrade_of_the_same_inputs_writes_the_same_bytes(term, tmp_path):
    again = tmp_path / "again"
    result = _grade(term.submitted, again, term.out.parent / "adjustments.csv")
    assert result.returncode == 0, result.stdout + result.stderr
    files = sorted(path.relative_to(term.out) for path in term.out.rglob("*") if path.is_file()
                   and path.name != "similarity.html")
    assert files == sorted(path.relative_to(again) for path in again.rglob("*") if path.is_file())
    assert any(path.parts[0] == "answers" for path in files)
    for path in files:
        assert (again / path).read_bytes() == (term.out / path).read_bytes(), path


def test_the_summary_counts_notebooks_not_students(term):
    assert "21 students, 42 notebooks: 25 graded, 17 missing" in term.result.stdout
    assert "Late: 5 of 25 graded notebooks with a due date" in term.result.stdout


def test_similarity_ranks_the_disguised_copy_first(term):
    command = [sys.executable, "-m", "autograder", "similarity", str(term.out)]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{ASSIGNMENT}: 21 answers, 20 with code of their own; most alike: copier and source" in result.stdout
    page = (term.out / "similarity.html").read_text()
    first = re.search(r"<td><code>(\w+)</code> and <code>(\w+)</code></td>", page)
    assert first.groups() == ("copier", "source")
    assert page.count("<mark>") > 10  # the matching regions of the listed pairs, side by side
    assert "<code>stubs</code>" not in page  # a notebook of stubs has no code of its own to compare
    subprocess.run(command, cwd="/", capture_output=True, check=True, timeout=600)
    assert (term.out / "similarity.html").read_text() == page  # the same answers, the same page


def test_the_readers_of_grades_csv_take_the_final_scores(term, capsys):
    assert cli.main(["report", str(term.out)]) == 0
    assert cli.main(["export", str(term.out), "--lms", "canvas"]) == 0
    with (term.out / "canvas_grades.csv").open() as handle:
        exported = {row["Student"]: row for row in csv.DictReader(handle) if row["Student"] != "Points Possible"}
    for (student, assignment), row in term.grades.items():
        assert float(exported[student][assignment]) == float(row["score"])


def test_adjustments_of_notebooks_a_run_does_not_grade_wait_for_it(term, tmp_path):
    command = [sys.executable, "-m", "autograder", "grade", str(term.submitted), "--out", str(tmp_path / "second"),
               "--assignment", SECOND, "--adjustments", str(term.out.parent / "adjustments.csv")]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Not applied in this run: the adjustments of 2 notebooks it did not grade" in result.stdout
    grades = _rows(tmp_path / "second")
    assert {assignment for _, assignment in grades} == {SECOND}
    assert _results_in(tmp_path / "second", "student01", SECOND)["adjustments"] == [
        {"points": 2.0, "reason": "Regrade request accepted"}]


def _results_in(out: Path, student: str, assignment: str) -> dict:
    return json.loads((out / "results" / student / f"{assignment}.json").read_text())

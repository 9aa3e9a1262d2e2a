"""nbgrader: the kit's course directory works with nbgrader's own commands (release_assignment,
submit + collect, zip_collect, export), and `python -m autograder gradebook` puts our grades where
`nbgrader export` finds them."""

from __future__ import annotations

import csv
import dataclasses
import getpass
import os
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest
from nbgrader.utils import parse_utc
from platform_class import ASSIGNMENT, complete_notebook, graded_class, wrong_dim_notebook

from autograder import cli
from autograder.grading.discovery import discover
from autograder.notebooks import building as build_assignments
from autograder.notebooks import grading_rules
from autograder.notebooks.building import COURSE_ID
from autograder.notebooks.self_checks_cell import wheel_name
from autograder.notebooks.variants import notebook_text
from autograder.platforms.nbgrader_gradebook import record_grades
from autograder.records.files import read_outputs
from autograder.records.results import HintCharge, HintUse
from autograder.term.lateness import UTC

pytestmark = pytest.mark.slow


def nbgrader(*args: str, cwd: Path) -> str:
    """Run one nbgrader command as a user would; returns its log, fails the test when it fails."""
    bin_dir = str(Path(sys.executable).parent)  # nbgrader runs alembic through PATH
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    result = subprocess.run([sys.executable, "-m", "nbgrader", *args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, f"nbgrader {' '.join(args)} failed:\n{result.stdout}{result.stderr}"
    return result.stdout + result.stderr


@dataclass(frozen=True)
class Course:
    course: Path
    exchange: Path
    student_notebook: Path  # what build_assignments wrote to assignments/
    submitted_by_user: bytes  # what the student submitted through the exchange
    collected_from_zip: bytes  # what the LMS download held


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Course:
    """The kit's course directory for one notebook, taken through a release and both collects."""
    root = tmp_path_factory.mktemp("nbgrader")
    dist = root / "dist"  # a stand-in for the student wheel `make student-package` builds
    dist.mkdir()
    (dist / wheel_name()).write_bytes(b"the student package")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_assignments, "ASSIGNMENTS", [ASSIGNMENT])
        patch.setattr(build_assignments, "DIST_DIR", dist)
        [student_notebook, *_translations] = build_assignments.build(root / "assignments", root / "course")
    course, exchange = root / "course", root / "exchange"
    exchange.mkdir(mode=0o777)
    exchange_option = f"--Exchange.root={exchange}"
    nbgrader("release_assignment", ASSIGNMENT, exchange_option, cwd=course)

    # A student submits through the exchange; the instructor collects.
    home = root / "student"
    submitted_by_user = notebook_text(complete_notebook()).encode()
    (home / ASSIGNMENT).mkdir(parents=True)
    (home / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").write_bytes(submitted_by_user)
    nbgrader("submit", ASSIGNMENT, f"--course={COURSE_ID}", exchange_option, cwd=home)
    nbgrader("collect", ASSIGNMENT, exchange_option, cwd=course)

    # Submissions downloaded from an LMS: <student_id>_<notebook> files inside a zip.
    collected_from_zip = notebook_text(wrong_dim_notebook()).encode()
    archive = course / "downloaded" / ASSIGNMENT / "archive"
    archive.mkdir(parents=True)
    with zipfile.ZipFile(archive / "lms-download.zip", "w") as download:
        download.writestr(f"bo_{ASSIGNMENT}.ipynb", collected_from_zip)
    nbgrader("zip_collect", ASSIGNMENT, cwd=course)
    return Course(course, exchange, student_notebook, submitted_by_user, collected_from_zip)


def test_release_hands_out_the_student_notebook_and_the_student_package(course):
    released = course.exchange / COURSE_ID / "outbound" / ASSIGNMENT
    assert (released / f"{ASSIGNMENT}.ipynb").read_bytes() == course.student_notebook.read_bytes()
    assert (released / grading_rules.FILE_NAME).read_text(encoding="utf-8") == grading_rules.rules_markdown("en")
    assert (released / wheel_name()).read_bytes() == b"the student package"  # beside it, where the notebook looks


def test_collect_and_zip_collect_fill_the_layout_the_grader_reads(course):
    submitted = course.course / "submitted"
    user = getpass.getuser()
    assert (submitted / user / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes() == course.submitted_by_user
    assert (submitted / "bo" / ASSIGNMENT / f"{ASSIGNMENT}.ipynb").read_bytes() == course.collected_from_zip
    entries = discover(submitted)
    assert sorted((entry.student_id, entry.assignment_id, entry.problem) for entry in entries) == sorted(
        [(user, ASSIGNMENT, None), ("bo", ASSIGNMENT, None)])


def _export(course: Course, name: str) -> dict[str, dict]:
    target = course.course / name
    nbgrader("export", f"--to={target}", cwd=course.course)
    with target.open() as handle:
        return {row["student_id"]: row for row in csv.DictReader(handle)}


def test_gradebook_puts_our_grades_into_nbgrader_export(course, tmp_path_factory, capsys):
    out = graded_class(tmp_path_factory).out
    for _ in range(2):  # a second run updates the same entries
        assert cli.main(["gradebook", str(out), "--course", str(course.course)]) == 0
    assert "Recorded 4 submissions of 5 students" in capsys.readouterr().out  # dee submitted nothing
    exported = _export(course, "export.csv")
    with (out / "grades.csv").open() as handle:
        ours = list(csv.DictReader(handle))
    for row in ours:
        line = exported[row["student_id"]]
        assert line["assignment"] == ASSIGNMENT
        assert float(line["score"]) == pytest.approx(float(row["score"]), abs=1e-9)
        assert float(line["max_score"]) == pytest.approx(float(row["max_score"]), abs=1e-9)
    assert sum(line["assignment"] == ASSIGNMENT for line in exported.values()) == len(exported)


def test_a_hint_charge_comes_off_its_stages_score_in_nbgrader_export(course, tmp_path_factory):
    """A row charged for a hint (issue 41): nbgrader's total is grades.csv's score after the charge."""
    rows = read_outputs(graded_class(tmp_path_factory).out)
    full = next(row for row in rows if row.graded and row.score == row.max_score)
    charged = dataclasses.replace(full, hints=(HintUse("softmax_stable", 3),),
                                  hint_charges=(HintCharge("softmax_stable", 3, 2.5, 2.5),),
                                  score=full.score - 2.5)
    record_grades([charged], course.course)
    try:
        line = _export(course, "charged.csv")[full.student_id]
        assert float(line["score"]) == pytest.approx(charged.score, abs=1e-9)
    finally:
        record_grades([full], course.course)


def test_gradebook_refuses_a_folder_that_is_no_course(tmp_path_factory, tmp_path, capsys):
    out = graded_class(tmp_path_factory).out
    assert cli.main(["gradebook", str(out), "--course", str(tmp_path)]) == 2
    assert "is not an nbgrader course directory" in capsys.readouterr().out


def test_late_work_from_the_timestamps_nbgrader_collected(course, tmp_path):
    """`nbgrader submit` + `collect` wrote timestamp.txt beside the notebook; zip_collect, with no time in
    the file names, wrote none. The penalty reaches grades.csv, and through the gradebook nbgrader's export."""
    submitted, user = course.course / "submitted", getpass.getuser()
    stamp = parse_utc((submitted / user / ASSIGNMENT / "timestamp.txt").read_text())  # nbgrader's own reading
    due = (stamp - timedelta(days=1, hours=1)).replace(tzinfo=UTC)  # 25 hours late: two started days
    out = tmp_path / "out"
    command = [sys.executable, "-m", "autograder", "grade", str(submitted), "--out", str(out),
               "--due", f"{ASSIGNMENT}={due.isoformat()}", "--late-penalty", "15"]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    with (out / "grades.csv").open() as handle:
        ours = {row["student_id"]: row for row in csv.DictReader(handle)}
    assert ours[user]["submitted_at"] == stamp.replace(tzinfo=UTC).isoformat()
    assert ours[user]["late_penalty"] == "30"
    assert ours["bo"]["status"] == "graded (no timestamp.txt: counted as on time)"
    assert cli.main(["gradebook", str(out), "--course", str(course.course)]) == 0
    exported = _export(course, "late.csv")
    assert float(exported[user]["late_submission_penalty"]) == 30
    for student in (user, "bo"):
        assert float(exported[student]["score"]) == pytest.approx(float(ours[student]["score"]), abs=1e-9)


def test_assignments_build_again_after_grades_are_in_the_gradebook(course, tmp_path_factory, capsys):
    """nbgrader refuses to change an assignment that has submissions, and then deletes its release
    folder; the build never opens the course's gradebook, so `make gradebook` then `make assignments`
    works."""
    assert cli.main(["gradebook", str(graded_class(tmp_path_factory).out), "--course", str(course.course)]) == 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build_assignments, "ASSIGNMENTS", [ASSIGNMENT])
        patch.setattr(build_assignments, "DIST_DIR", course.course.parent / "dist")
        [rebuilt, *_] = build_assignments.build(course.course.parent / "assignments-again", course.course)
    released = course.course / "release" / ASSIGNMENT
    assert (released / f"{ASSIGNMENT}.ipynb").read_bytes() == rebuilt.read_bytes() == \
        course.student_notebook.read_bytes()
    assert (released / wheel_name()).read_bytes() == b"the student package"
    assert "Recorded" in capsys.readouterr().out

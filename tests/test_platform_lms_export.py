"""``python -m autograder export``: grades files that Canvas's and Moodle's gradebook imports accept.

The columns follow each platform's documented import format:
- Canvas (Grades > Import): a student identity (``Student`` name, ``ID`` or ``SIS User ID``), plus
  ``SIS Login ID`` and ``Section``, then one column per assignment; an optional ``Points Possible``
  row as Canvas's own export writes it.
- Moodle (Grades > Import > CSV file): a header row; one column the teacher maps to the user (an
  email address, username or ID number) and a numeric column per grade item.
"""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest
from platform_class import ASSIGNMENT, graded_class

from autograder.platforms.lms_export import Lms, RosterError, export_grades, read_roster
from autograder.records.files import read_outputs

pytestmark = pytest.mark.slow

CANVAS_IDENTITIES = {"Student", "ID", "SIS User ID"}  # at least one of them
CANVAS_REQUIRED = {"SIS Login ID", "Section"}
MOODLE_USER_FIELDS = {"Email address", "Username", "ID number"}  # what "Identify user by" maps from

ROSTER = (
    "student_id,name,canvas_id,sis_user_id,login,email,id_number,section\n"
    "ada,\"Lovelace, Ada\",101,S-1,ada.l,ada@example.edu,1001,Section A\n"
    "ben,\"Babbage, Ben\",102,S-2,ben.b,ben@example.edu,1002,Section A\n"
    "cy,=HYPERLINK(\"x\"),103,S-3,cy.c,cy@example.edu,1003,Section B\n"
    "dee,\"Dee, Dee\",104,S-4,dee.d,dee@example.edu,1004,Section B\n"
    "zed,\"Zed, Zoe\",105,S-5,zed.z,zed@example.edu,1005,Section B\n"
)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    return graded_class(tmp_path_factory)


def _export(graded, tmp_path, lms: str, *extra: str) -> tuple[subprocess.CompletedProcess, list[list[str]]]:
    target = tmp_path / f"{lms}.csv"
    command = [sys.executable, "-m", "autograder", "export", str(graded.out), "--lms", lms, "--output", str(target),
               *extra]
    result = subprocess.run(command, cwd="/", capture_output=True, text=True, timeout=120)
    rows = list(csv.reader(target.open(newline="", encoding="utf-8"))) if target.exists() else []
    return result, rows


def _scores(graded) -> dict[str, str]:
    with (graded.out / "grades.csv").open(newline="") as handle:
        return {row["student_id"]: row["score"] for row in csv.DictReader(handle)}


def test_canvas_file_has_the_documented_columns_and_every_score(graded, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    result, rows = _export(graded, tmp_path, "canvas", "--roster", str(roster))
    assert result.returncode == 0, result.stdout + result.stderr
    header, points, *students = rows
    assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert CANVAS_IDENTITIES & set(header)
    assert set(header) >= CANVAS_REQUIRED
    assert header[5:] == [ASSIGNMENT]
    assert points[0] == "Points Possible"
    assert points[5] == "100"
    by_login = {row[3]: row for row in students}
    grades = _scores(graded)
    assert float(by_login["ada.l"][5]) == float(grades["ada"]) == 100
    assert by_login["ada.l"][:5] == ["Lovelace, Ada", "101", "S-1", "ada.l", "Section A"]
    assert float(by_login["dee.d"][5]) == float(grades["dee"]) == 0  # nothing submitted: 0, as in grades.csv
    assert by_login["cy.c"][0].startswith("'=")  # a roster cell is never a spreadsheet formula


def test_moodle_file_has_a_user_column_and_numeric_grades(graded, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    result, rows = _export(graded, tmp_path, "moodle", "--roster", str(roster))
    assert result.returncode == 0, result.stdout + result.stderr
    header, *students = rows
    assert set(header) >= MOODLE_USER_FIELDS
    assert header[-1] == ASSIGNMENT
    emails = {row[header.index("Email address")] for row in students}
    # zed, in the roster with no submission folder, gets a row of zeros too
    assert emails == {"ada@example.edu", "ben@example.edu", "cy@example.edu", "dee@example.edu", "zed@example.edu"}
    for row in students:
        assert 0 <= float(row[-1]) <= 100


def test_mismatches_between_roster_and_grades_are_reported(graded, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    result, rows = _export(graded, tmp_path, "canvas", "--roster", str(roster))
    assert "Not in the roster, so left out: 1 graded students (eve)" in result.stdout
    assert "In the roster without a submission folder, so 0 for every notebook: 1 (zed)" in result.stdout
    # A blank would read as "not graded yet" in the gradebook: a student who handed in nothing gets 0.
    assert [row[5] for row in rows if row[3] == "zed.z"] == ["0"]


def test_without_a_roster_the_student_ids_stand_in(graded):
    export = export_grades(read_outputs(graded.out), Lms.CANVAS)
    rows = list(csv.reader(export.text.splitlines()))
    assert sorted(row[0] for row in rows[2:]) == sorted(_scores(graded))
    assert export.not_in_roster == export.without_submission == []


@pytest.mark.parametrize(("text", "message"), [
    ("name,email\nAda,ada@example.edu\n", "has no student_id column"),
    ("student_id,name\nada,Ada\nada,Ada again\n", "appears twice"),
    ("student_id,name\n,Nobody\n", "the student_id is empty"),
])
def test_a_bad_roster_is_refused_with_what_to_fix(tmp_path, text, message):
    roster = tmp_path / "roster.csv"
    roster.write_text(text)
    with pytest.raises(RosterError, match=message):
        read_roster(roster)


def test_a_bad_roster_exits_2(graded, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("name\nAda\n")
    result, rows = _export(graded, tmp_path, "moodle", "--roster", str(roster))
    assert result.returncode == 2
    assert "has no student_id column" in result.stdout
    assert rows == []

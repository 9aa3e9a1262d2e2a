"""Grades for a learning platform's gradebook import: Canvas or Moodle, from ``grades.csv``.

``python -m autograder export <out> --lms canvas|moodle [--roster roster.csv]`` writes one CSV
with a row per student and a column per notebook, in the columns each platform documents:

- **Canvas** (Grades > Import): ``Student``, ``ID``, ``SIS User ID``, ``SIS Login ID``,
  ``Section``, then one column per assignment (a column Canvas does not know becomes a new
  assignment), after a ``Points Possible`` row.
- **Moodle** (Grades > Import > CSV file): any header row; the teacher maps one identity column
  (``Email address``, ``Username`` or ``ID number``) to the user, and each notebook's column to a
  grade item.

The roster maps the kit's student ids (the folder names) to the platform's: a CSV with a
``student_id`` column and any of ``name``, ``canvas_id``, ``sis_user_id``, ``login``, ``email``,
``id_number``, ``section``. Without a roster, the student id stands in for the name and login.
Students graded but absent from the roster are reported and left out (they get no made-up
identity); roster students with no submission folder get a 0 for every notebook, as a missing
notebook does in grades.csv, so that the gradebook shows a 0 rather than a blank, and are reported.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from autograder.records.files import csv_safe
from autograder.records.results import GradedRow
from autograder.worker.compat import StrEnum

ROSTER_COLUMNS = ("student_id", "name", "canvas_id", "sis_user_id", "login", "email", "id_number", "section")


class Lms(StrEnum):
    CANVAS = "canvas"
    MOODLE = "moodle"


# The identity columns each platform's import reads, and which roster column fills each.
IDENTITY_COLUMNS: dict[Lms, tuple[tuple[str, str], ...]] = {
    Lms.CANVAS: (("Student", "name"), ("ID", "canvas_id"), ("SIS User ID", "sis_user_id"),
                 ("SIS Login ID", "login"), ("Section", "section")),
    Lms.MOODLE: (("Full name", "name"), ("Email address", "email"), ("Username", "login"),
                 ("ID number", "id_number")),
}


class RosterError(Exception):
    """The roster cannot be used; the message says what to fix."""


@dataclass
class Export:
    """The import file's text and what did not match between grades and roster."""

    text: str
    not_in_roster: list[str]  # graded student ids the roster lacks
    without_submission: list[str]  # roster student ids never graded (a 0 for every notebook)


def read_roster(path: Path) -> dict[str, dict[str, str]]:
    """The roster's rows by student id (see the module's docstring for its columns)."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:  # a spreadsheet's BOM is no column name
            reader = csv.DictReader(handle)
            header = [name.strip() for name in reader.fieldnames or []]
            if "student_id" not in header:
                raise RosterError(f"{path} has no student_id column; its first row should name columns among"
                                  f" {', '.join(ROSTER_COLUMNS)}")
            roster: dict[str, dict[str, str]] = {}
            for number, record in enumerate(reader, start=2):
                entry = {key.strip(): (value or "").strip() for key, value in record.items() if key}
                student_id = entry.get("student_id", "")
                if not student_id:
                    raise RosterError(f"{path}, line {number}: the student_id is empty")
                if student_id in roster:
                    raise RosterError(f"{path}, line {number}: student_id {student_id!r} appears twice")
                roster[student_id] = entry
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f"{path} cannot be read as a UTF-8 CSV file ({error})") from None
    return roster


def _default_identity(student_id: str) -> dict[str, str]:
    return {"student_id": student_id, "name": student_id, "login": student_id}


def export_grades(rows: Iterable[GradedRow], lms: Lms, roster: dict[str, dict[str, str]] | None = None) -> Export:
    """The import file for ``lms`` from a grading run's rows (scores of missing or unreadable
    notebooks are 0, as in grades.csv, and so are those of roster students with no folder)."""
    rows = list(rows)
    assignments = sorted({row.assignment_id for row in rows})
    scores: dict[str, dict[str, float]] = {}
    max_scores: dict[str, float] = {}
    for row in rows:
        scores.setdefault(row.student_id, {})[row.assignment_id] = row.score
        max_scores[row.assignment_id] = row.max_score
    graded = sorted(scores)
    identities = roster if roster is not None else {student: _default_identity(student) for student in graded}

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    identity = IDENTITY_COLUMNS[lms]
    writer.writerow([column for column, _ in identity] + assignments)
    if lms is Lms.CANVAS:  # the row Canvas's own export writes: the new assignments' points
        writer.writerow(["Points Possible"] + [""] * (len(identity) - 1)
                        + [f"{max_scores[assignment]:g}" for assignment in assignments])
    for student in sorted(identities):
        person, earned = identities[student], scores.get(student, {})
        writer.writerow([csv_safe(person.get(source, "")) for _, source in identity]
                        + [f"{earned.get(assignment, 0.0):g}" for assignment in assignments])
    return Export(buffer.getvalue(), sorted(set(graded) - set(identities)), sorted(set(identities) - set(graded)))

"""Grade adjustments after grading (``grade --adjustments FILE.csv``), each with its reason.

The file has a row per adjustment, with the columns ``student_id,assignment_id,points,reason``
(others are ignored): ``points`` may be negative, and a (student, assignment) may have several
rows, all counted. Student ids are the submission folders' names, as grades.csv writes them.
A row that names no student of the class, an assignment of no notebook, no number or no reason
is refused with its line number before anything is graded.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Collection
from pathlib import Path

from autograder.records.files import csv_read
from autograder.records.results import Adjustment
from autograder.student.curriculum import ASSIGNMENTS
from autograder.worker.text import clean_text

COLUMNS = ("student_id", "assignment_id", "points", "reason")
MAX_REASON_CHARS = 500  # the reason is shown on the student's page


class AdjustmentsError(Exception):
    """The adjustments file cannot be used; the message names the file, the line and the fix."""


def read_adjustments(path: Path, students: Collection[str]) -> dict[tuple[str, str], tuple[Adjustment, ...]]:
    """The adjustments in ``path`` by (student_id, assignment_id), in the file's order; ``students``
    are the class's student ids. Raises AdjustmentsError."""
    try:
        with path.open(newline="", encoding="utf-8-sig") as handle:  # a spreadsheet's BOM is no column name
            reader = csv.DictReader(handle)
            header = [name.strip() for name in reader.fieldnames or []]
            missing = [column for column in COLUMNS if column not in header]
            if missing:
                raise AdjustmentsError(f"{path} lacks the column(s) {', '.join(missing)}: its first line must name"
                                       f" the columns {','.join(COLUMNS)}")
            found: dict[tuple[str, str], list[Adjustment]] = {}
            line = reader.line_num + 1
            for record in reader:
                entry = {key.strip(): (value or "").strip() for key, value in record.items() if key}
                key, adjustment = _adjustment(entry, students, f"{path}, line {line}")
                found.setdefault(key, []).append(adjustment)
                line = reader.line_num + 1
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise AdjustmentsError(f"{path} cannot be read as a UTF-8 CSV file ({error})") from None
    return {key: tuple(adjustments) for key, adjustments in found.items()}


def _adjustment(entry: dict[str, str], students: Collection[str], where: str) -> tuple[tuple[str, str], Adjustment]:
    student_id, assignment_id = csv_read(entry["student_id"]), entry["assignment_id"]
    if student_id not in students:
        raise AdjustmentsError(f"{where}: no student {student_id!r} in this class; use the submission folder's name,"
                               " as the student_id column of grades.csv writes it")
    if assignment_id not in ASSIGNMENTS:
        raise AdjustmentsError(f"{where}: no assignment {assignment_id!r}; use one of {', '.join(ASSIGNMENTS)}")
    try:
        points = float(entry["points"])
    except ValueError:
        points = math.nan
    if not math.isfinite(points):
        raise AdjustmentsError(f"{where}: points must be a number of points to add (negative to take away),"
                               f" not {entry['points']!r}")
    if not entry["reason"]:
        raise AdjustmentsError(f"{where}: the reason is empty; say why, as the student will read it on the"
                               " feedback page")
    return (student_id, assignment_id), Adjustment(points, clean_text(entry["reason"], MAX_REASON_CHARS))

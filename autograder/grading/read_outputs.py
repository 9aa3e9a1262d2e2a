"""Read back what ``python -m autograder grade`` wrote, for the commands that run after it.

``grades.csv`` decides which rows exist; each row's tests and load problems come from its
``results/<student_id>/<assignment_id>.json``.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from autograder.grading.engine import GradedSubmission


class OutputsError(Exception):
    """The folder does not hold the outputs of a grading run; the message says what to do."""


def read_outputs(out: Path) -> list[GradedSubmission]:
    """One GradedSubmission per row of ``<out>/grades.csv``, in the file's order."""
    grades = out / "grades.csv"
    if not grades.is_file():
        raise OutputsError(f"{grades} does not exist: run `python -m autograder grade <submitted> --out {out}`"
                           " first")
    rows = []
    try:
        with grades.open(newline="", encoding="utf-8") as handle:
            for record in csv.DictReader(handle):
                details_file = out / "results" / record["student_id"] / f"{record['assignment_id']}.json"
                details = json.loads(details_file.read_text(encoding="utf-8")) if details_file.is_file() else {}
                rows.append(GradedSubmission(
                    record["student_id"], record["assignment_id"], record["status"], float(record["score"]),
                    float(record["max_score"]), details.get("tests", []),
                    load_problems=details.get("load_problems", []),
                ))
    except (KeyError, TypeError, ValueError) as error:  # json.JSONDecodeError is a ValueError
        raise OutputsError(f"{out} holds malformed grading outputs ({type(error).__name__}: {error});"
                           " grade again to rewrite them") from None
    return rows

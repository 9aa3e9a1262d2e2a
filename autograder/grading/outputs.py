"""Write what a grading run produces (grades.csv, one results JSON and one feedback page each),
and read it back for the commands that run afterwards.

Only the trusted process writes here, after the workers are gone, and every file is written
atomically (a temporary file renamed into place), so a reader never sees half a result.
Nothing depends on time or order of completion: regrading the same input gives the same bytes.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from autograder.feedback.page import feedback_html
from autograder.grading.results import CSV_COLUMNS, GradedRow, ResultsFormatError, row_order


class OutputsError(Exception):
    """The folder does not hold the outputs of a grading run; the message says what to do."""


def write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def grades_csv(rows: list[GradedRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in sorted(rows, key=row_order):
        writer.writerow(row.csv_fields())
    return buffer.getvalue()


def results_json(row: GradedRow) -> str:
    return json.dumps(row.to_json(), indent=2, ensure_ascii=False) + "\n"


def write_outputs(out: Path, rows: list[GradedRow]) -> None:
    """Write all three outputs and remove stale per-student files from an earlier run."""
    produced = set()
    for row in rows:
        for path, text in (
            (out / "results" / row.student_id / f"{row.assignment_id}.json", results_json(row)),
            (out / "feedback" / row.student_id / f"{row.assignment_id}.html", feedback_html(row)),
        ):
            write_atomically(path, text)
            produced.add(path)
    for folder, pattern in (("results", "*/*.json"), ("feedback", "*/*.html")):
        for stale in (out / folder).glob(pattern):
            if stale not in produced:
                stale.unlink()
    write_atomically(out / "grades.csv", grades_csv(rows))


def read_outputs(out: Path) -> list[GradedRow]:
    """One GradedRow per row of ``<out>/grades.csv``, in the file's order; each row's tests and load
    problems come from its ``results/<student_id>/<assignment_id>.json``."""
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
                rows.append(GradedRow.from_json({**details, **record, "score": record["score"],
                                                 "max_score": record["max_score"]}, record["status"]))
    except (KeyError, TypeError, ValueError, ResultsFormatError) as error:  # json.JSONDecodeError is a ValueError
        raise OutputsError(f"{out} holds malformed grading outputs ({type(error).__name__}: {error});"
                           " grade again to rewrite them") from None
    return rows

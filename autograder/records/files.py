"""The files of a grading run as records: grades.csv and the results JSON, written whole and read back.

Every output file is written atomically (a temporary file renamed into place), so a reader never
sees half a result; ``read_outputs`` gives back the ``GradedRow``s that grades.csv and the results
files hold, for the commands that run after grading (report, platforms, merge). Below the
feedback pages and the term, which read and write these files too; the grading run's own writer
(``autograder.grading.outputs``) adds the feedback pages and the graded code.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from pathlib import Path

from autograder.records.results import CSV_COLUMNS, GradedRow, ResultsFormatError, row_order


class OutputsError(Exception):
    """The folder does not hold the outputs of a grading run; the message says what to do."""


def _umask() -> int:
    """The process's umask (it can only be read by setting it, so it is set back at once)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def write_atomically(path: Path, text: str, *, private: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed into place. The file's mode
    follows the umask, as a plain ``open`` would (0644 under the usual 022, so a TA's account or a
    web server can read feedback pages); ``private`` makes it 0600, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(handle, 0o600 if private else 0o666 & ~_umask())
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


# A spreadsheet reads a cell that starts with one of these as a formula (CSV injection).
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value: str) -> str:
    """A value a spreadsheet shows as text: a leading ' defuses a formula (OWASP's advice). A value
    that starts with ' gets one more, so that ``csv_read`` gives back every value exactly (the
    folders ``=x`` and ``'=x`` stay two students)."""
    return "'" + value if value.startswith((*_FORMULA_STARTS, "'")) else value


def csv_read(value: str) -> str:
    """A value as it was before ``csv_safe``."""
    return value[1:] if value.startswith("'") else value


def grades_csv(rows: list[GradedRow]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row in sorted(rows, key=row_order):
        writer.writerow([csv_safe(field) for field in row.csv_fields()])
    return buffer.getvalue()


def results_json(row: GradedRow) -> str:
    return json.dumps(row.to_json(), indent=2, ensure_ascii=False) + "\n"


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
                record = {key: csv_read(value) for key, value in record.items()}
                details_file = out / "results" / record["student_id"] / f"{record['assignment_id']}.json"
                details = json.loads(details_file.read_text(encoding="utf-8")) if details_file.is_file() else {}
                rows.append(GradedRow.from_json({**details, **record, "score": record["score"],
                                                 "max_score": record["max_score"]}, record["status"]))
    except (KeyError, TypeError, ValueError, ResultsFormatError) as error:  # json.JSONDecodeError is a ValueError
        raise OutputsError(f"{out} holds malformed grading outputs ({type(error).__name__}: {error});"
                           " grade again to rewrite them") from None
    return rows

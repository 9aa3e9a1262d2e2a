"""Write what a grading run produces (grades.csv, one results JSON and one feedback page each),
and read it back for the commands that run afterwards.

Only the trusted process writes here, after the workers are gone, into the run's staging folder
(``autograder.grading.publish`` swaps it in whole), and every file is written atomically (a
temporary file renamed into place), so a reader never sees half a result. Nothing depends on time
or order of completion: regrading the same input gives the same bytes.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from autograder.feedback.page import feedback_html
from autograder.grading.results import CSV_COLUMNS, GradedRow, ResultsFormatError, each_row, row_order


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


def write_outputs(out: Path, rows: list[GradedRow], *, private: bool = False,
                  answers: Mapping[tuple[str, str], str] | None = None) -> list[GradedRow]:
    """Write every row's files, then grades.csv, into ``out``: a fresh folder, the staging folder
    of the run (``autograder.grading.publish``), so that no file of an earlier run is left beside
    them. Returns the rows as written: a row whose files could not be made or written becomes an
    ``error`` row, with files of its own that say so, and the others go on. The files follow the
    umask; ``private`` makes them, and the folders under ``out``, their owner's only.
    ``answers``: the graded code of each (student_id, assignment_id), kept in ``answers/``.
    """
    if private:
        for folder in (out, *(out / name for name, _ in PER_STUDENT_FILES)):
            folder.mkdir(parents=True, exist_ok=True)
            folder.chmod(0o700)

    def write_row(row: GradedRow) -> GradedRow:
        files = {out / "results" / row.student_id / f"{row.assignment_id}.json": results_json(row),
                 out / "feedback" / row.student_id / f"{row.assignment_id}.html": feedback_html(row)}
        answer = (answers or {}).get((row.student_id, row.assignment_id)) if row.graded else None
        if answer is not None:
            files[out / "answers" / row.student_id / f"{row.assignment_id}.py"] = answer
        for path, text in files.items():
            write_atomically(path, text, private=private)
        return row

    written = each_row(rows, "write its results and feedback page", write_row)
    for before, row in zip(rows, written, strict=True):
        if row is not before:  # it failed part way: its files now say why (a graded row's answer goes)
            (out / "answers" / row.student_id / f"{row.assignment_id}.py").unlink(missing_ok=True)
            with contextlib.suppress(Exception):
                write_row(row)
    write_atomically(out / "grades.csv", grades_csv(written), private=private)
    return written


# (folder, pattern) under the outputs; answers/ keeps the graded code (autograder.term.answers)
PER_STUDENT_FILES = (("results", "*/*.json"), ("feedback", "*/*.html"), ("answers", "*/*.py"))
SHARD_RECORD = "shard.json"  # what a `grade --shard K/N` run was: K, N and the devices it tested


def write_shard_record(out: Path, shard: tuple[int, int] | None, devices: list[str], *, private: bool = False) -> None:
    """Record which share of the class ``out`` holds (``merge`` checks that all N are there, graded
    on the same devices); a run over the whole class writes none."""
    if shard is None:
        return
    number, count = shard
    write_atomically(out / SHARD_RECORD, json.dumps({"shard": number, "of": count, "devices": devices}) + "\n",
                     private=private)


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

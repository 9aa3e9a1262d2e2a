"""Write what a grading run produces: grades.csv, and one results JSON, feedback page and graded
code file per row (the files themselves, and reading them back: ``autograder.records.files``).

Only the trusted process writes here, after the workers are gone, into the run's staging folder
(``autograder.grading.publish`` swaps it in whole), and every file is written atomically (a
temporary file renamed into place), so a reader never sees half a result. Nothing depends on time
or order of completion: regrading the same input gives the same bytes.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping
from pathlib import Path

from autograder.feedback.page import feedback_html
from autograder.records.files import grades_csv, results_json, write_atomically
from autograder.records.results import GradedRow, each_row


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

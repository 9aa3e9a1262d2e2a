"""The code a grading run graded, kept as ``<out>/answers/<student_id>/<assignment_id>.py`` for
the commands that come after it (``similarity``) and for the instructor answering a regrade
request: the imports and the definitions of the answer cells, as the grading contract reads them
(``autograder.reading.notebook``), without the demo cells."""

from __future__ import annotations

from pathlib import Path

from autograder.reading.notebook import NotebookError, extract_notebook_file
from autograder.records.results import GradedRow, each_row
from autograder.records.submissions import SubmissionEntry
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT

ANSWERS_FOLDER = "answers"
MAX_ANSWER_CHARS = 256 * 1024  # far more than any answer needs; a file stays small whatever a notebook holds


def graded_code(notebook: Path, assignment_id: str) -> str | None:
    """The graded code of a notebook, one block after another; None when it cannot be read."""
    try:
        extracted = extract_notebook_file(notebook, STAGES_BY_ASSIGNMENT[assignment_id])
    except (NotebookError, OSError, RecursionError, ValueError):
        return None
    code = "\n\n".join(block.source for block in extracted.blocks) + "\n"
    return code[:MAX_ANSWER_CHARS]


def graded_answers(rows: list[GradedRow], entries: list[SubmissionEntry]
                   ) -> tuple[list[GradedRow], dict[tuple[str, str], str]]:
    """The rows (one whose code cannot be kept becomes an ``error`` row) and the graded code of
    every graded row, by (student_id, assignment_id)."""
    path_of = {entry.key: entry.path for entry in entries}
    answers = {}

    def keep(row: GradedRow) -> GradedRow:
        if row.graded:
            code = graded_code(path_of[(row.student_id, row.assignment_id)], row.assignment_id)
            if code is not None:
                answers[(row.student_id, row.assignment_id)] = code
        return row

    return each_row(rows, "keep the graded code in answers/", keep), answers


def answer_path(out: Path, student_id: str, assignment_id: str) -> Path:
    return out / ANSWERS_FOLDER / student_id / f"{assignment_id}.py"

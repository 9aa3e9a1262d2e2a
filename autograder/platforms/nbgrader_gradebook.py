"""Record a grading run in an nbgrader gradebook, so that formgrader and ``nbgrader export`` show it.

    python -m autograder gradebook <out> [--course course/]

Every stage becomes a grade cell of the assignment's notebook, named after the stage like its
answer cell, worth the stage's points in the rubric; every submission that reached the grader
gets each stage's points as the cell's automatic score. A student whose notebook is missing is
added without a submission, which ``nbgrader export`` scores 0. Running it again updates the same
entries. A late penalty (``grade --late-penalty``) becomes the submission's
``late_submission_penalty``, with its timestamp and the assignment's due date; adjustments
(``grade --adjustments``) become extra credit on the stage worth the most, and a hint charge comes
off its stage's automatic score; so ``nbgrader export``
gives each submission the score of grades.csv. These grade cells are not in the master notebook;
``make assignments`` never opens this gradebook, so recording grades here never blocks it.
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from nbgrader.api import Grade, Gradebook, GradeCell, MissingEntry, SubmittedNotebook
from nbgrader.coursedir import CourseDirectory
from nbgrader.utils import parse_utc
from sqlalchemy.exc import SAWarning
from traitlets.config.loader import PyFileConfigLoader

from autograder.grading.discovery import MISSING
from autograder.platforms.nbgrader_commands import alembic_on_path
from autograder.records.results import GradedRow
from autograder.student.curriculum import ASSIGNMENTS

CONFIG_FILE = "nbgrader_config.py"


class GradebookError(Exception):
    """The course directory or the grades cannot be recorded; the message says what to do."""


@dataclass(frozen=True)
class RecordedGrades:
    """What was written: the gradebook's address and how many entries."""

    db_url: str
    students: int
    submissions: int


def course_database(course_dir: Path) -> tuple[str, str]:
    """The gradebook URL and course id of an nbgrader course directory, from its config file."""
    config_file = course_dir / CONFIG_FILE
    if not config_file.is_file():
        raise GradebookError(f"{course_dir} is not an nbgrader course directory (it has no {CONFIG_FILE}):"
                             " run `make assignments` to build course/, or pass --course <your course>")
    try:
        config = PyFileConfigLoader(CONFIG_FILE, path=str(course_dir)).load_config()
    except Exception as error:  # noqa: BLE001 - the file is Python: whatever it raises means it cannot be used
        raise GradebookError(f"cannot read {config_file}: {type(error).__name__}: {error}") from None
    coursedir = CourseDirectory(config=config)
    coursedir.root = str(course_dir.resolve())  # the folder may have moved since its config was written
    return coursedir.db_url, coursedir.course_id


def stage_points(row: GradedRow, total: float, maxima: bool = False) -> dict[str, float]:
    """A row's points (or maximum points) per stage, to 0.01, adding up to ``total``.

    The rubric's per-test shares are rounded, so the stages' sums can miss the notebook's score
    in grades.csv by a few hundredths; that remainder goes to the stage worth the most.
    """
    points = {stage.stage: stage.max_points if maxima else stage.points for stage in row.stage_totals()}
    if points:
        largest = max(points, key=lambda stage: (points[stage], stage))
        points[largest] = round(points[largest] + total - sum(points.values()), 2)
    return points


def _stage_maxima(rows: list[GradedRow]) -> dict[str, float]:
    graded = [row for row in rows if row.graded]
    return stage_points(graded[0], graded[0].max_score, maxima=True) if graded else {}


def _grade(gradebook: Gradebook, submitted_notebook: SubmittedNotebook, cell: GradeCell) -> Grade:
    """The grade of one cell in a submitted notebook, created when the cell is newer than it."""
    for grade in submitted_notebook.grades:
        if grade.cell_id == cell.id:
            return grade
    grade = Grade(cell_id=cell.id, notebook=submitted_notebook)
    gradebook.db.add(grade)
    return grade


def _record_assignment(gradebook: Gradebook, assignment_id: str, rows: list[GradedRow]) -> int:
    """Write one assignment's cells, students and scores; returns the number of submissions."""
    maxima = _stage_maxima(rows)
    due_dates = {row.submission_time.due for row in rows if row.submission_time and row.submission_time.due}
    gradebook.update_or_create_assignment(assignment_id, duedate=parse_utc(due_dates.pop()) if due_dates else None)
    gradebook.update_or_create_notebook(assignment_id, assignment_id)
    cells = {stage: gradebook.update_or_create_grade_cell(stage, assignment_id, assignment_id,
                                                          max_score=max_points, cell_type="code")
             for stage, max_points in maxima.items()}
    submissions = 0
    for row in rows:
        gradebook.update_or_create_student(row.student_id)
        if row.status == MISSING or not cells:
            continue
        try:
            gradebook.find_submission(assignment_id, row.student_id)
        except MissingEntry:
            gradebook.add_submission(assignment_id, row.student_id)
        submitted = gradebook.find_submission_notebook(assignment_id, assignment_id, row.student_id)
        points = stage_points(row, row.tests_score)
        for charge in row.hint_charges:  # a stage's hint charge comes off that stage's points (never below 0)
            points[charge.stage] = round(points.get(charge.stage, 0.0) - charge.points, 2)
        extra_credit = round(sum(adjustment.points for adjustment in row.adjustments), 2)
        largest = max(cells, key=lambda stage: (cells[stage].max_score, stage))
        for stage, cell in cells.items():
            grade = _grade(gradebook, submitted, cell)
            grade.auto_score = points.get(stage, 0.0)
            grade.extra_credit = extra_credit if stage == largest and extra_credit else None
            grade.needs_manual_grade = False
        time = row.submission_time
        submitted.late_submission_penalty = time.penalty if time else 0.0
        submitted.assignment.timestamp = parse_utc(time.submitted_at) if time and time.submitted_at else None
        submissions += 1
    gradebook.db.commit()
    return submissions


def record_grades(rows: list[GradedRow], course_dir: Path) -> RecordedGrades:
    """Write every row into the gradebook of the nbgrader course at ``course_dir``."""
    db_url, course_id = course_database(course_dir)
    by_assignment: dict[str, list[GradedRow]] = defaultdict(list)
    for row in rows:
        by_assignment[row.assignment_id].append(row)
    ordered = sorted(by_assignment, key=lambda a: (ASSIGNMENTS.index(a) if a in ASSIGNMENTS else len(ASSIGNMENTS), a))
    with warnings.catch_warnings(), alembic_on_path(), Gradebook(db_url, course_id=course_id) as gradebook:
        # nbgrader's own add_submission triggers SQLAlchemy's harmless "not in session" warning.
        warnings.filterwarnings("ignore", category=SAWarning)
        submissions = sum(_record_assignment(gradebook, a, by_assignment[a]) for a in ordered)
    return RecordedGrades(db_url, len({row.student_id for row in rows}), submissions)

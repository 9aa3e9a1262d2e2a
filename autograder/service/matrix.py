"""The class page's data: a matrix of students (rows) by assignments (columns) holding the score
that counts, with its late and adjusted marks, and each student's total; the rows the reader asked
for (filtered by name or id, sorted, one page of them); and per assignment the score histogram and
the stages most students fail, as bars an SVG draws.

Built from ``gradebook.class_rows`` (the rows grades.csv writes), so the page and the file never
disagree: a bounded number of queries for any class size. Reading and scoring every stored
grading of 1,000 students takes seconds, so each web process keeps the last matrix it built and
builds it again only when what it was built from changed: its fingerprint (``_fingerprint``, a
few aggregate queries) counts and dates the submissions, gradings, adjustments, policies and
class lists. The students' names are read on every request (one query), never kept.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Max, Sum

from autograder.service import gradebook
from autograder.service.models import (
    Adjustment,
    AssignmentPolicy,
    Grading,
    LtiMembership,
    LtiResourceLink,
    Submission,
)

PAGE_SIZE = 50
HISTOGRAM_BINS = 10  # of 10 % of the maximum each; 100 % falls in the last


@dataclass(frozen=True)
class Cell:
    """One student's counted result for one assignment."""

    score: float
    max_score: float
    status: str  # grades.csv's status: graded, missing, unreadable: ...
    submission_id: int | None  # the submission that counts (None: none does)
    days_late: int
    late_penalty: float
    adjustment: float  # the points all adjustments added (negative: took)
    adjusted: bool

    @property
    def counts(self) -> bool:
        return self.submission_id is not None


@dataclass(frozen=True)
class StudentRow:
    student_id: str
    name: str
    cells: tuple[Cell, ...]  # in the matrix's assignment order

    @property
    def total(self) -> float:
        return round(sum(cell.score for cell in self.cells), 2)


@dataclass(frozen=True)
class Bar:
    """One bar of a chart: what it counts and how many."""

    label: str
    count: int


@dataclass(frozen=True)
class AssignmentSummary:
    assignment_id: str
    graded: int  # students whose counted submission was graded
    histogram: tuple[Bar, ...]  # students per score band, of the graded
    failed_stages: tuple[Bar, ...]  # students failing each stage, most first (stages nobody fails left out)


@dataclass(frozen=True)
class Matrix:
    assignments: tuple[str, ...]
    max_total: float
    rows: tuple[StudentRow, ...]  # by student id
    summaries: tuple[AssignmentSummary, ...]


_built: dict[str, tuple] = {}  # "matrix": (fingerprint, Matrix), this process's last
_building = threading.Lock()


def _fingerprint() -> tuple:
    """What the matrix is built from, in a few aggregate queries: an upload, a finished grading (a
    regrade's included), a submission moved to another account, an adjustment, a policy or a
    class list changes it."""
    return (tuple(Submission.objects.aggregate(Count("id"), Max("id"), Sum("user_id")).values()),  # and a move
            tuple(Grading.objects.aggregate(Count("id"), Max("id"), Max("finished_at")).values()),
            tuple(Adjustment.objects.aggregate(Count("id"), Max("id")).values()),
            tuple(AssignmentPolicy.objects.values_list()),
            tuple(LtiMembership.objects.aggregate(Count("id"), Max("id"), Max("fetched_at")).values()),
            tuple(LtiResourceLink.objects.aggregate(Count("id"), Max("id")).values()))


def class_matrix() -> Matrix:
    """The whole class: its rows grouped by student, with their names, and each assignment's summary."""
    fingerprint = _fingerprint()
    with _building:
        kept = _built.get("matrix")
        if kept is None or kept[0] != fingerprint:
            kept = _built["matrix"] = (fingerprint, _build())
    matrix = kept[1]
    names = dict(get_user_model().objects.values_list("username", "first_name"))  # faster than 1,000 ids IN (...)
    return dataclasses.replace(matrix, rows=tuple(dataclasses.replace(row, name=names.get(row.student_id, ""))
                                                  for row in matrix.rows))


def _build() -> Matrix:
    rows = gradebook.class_rows()
    assignments = tuple(dict.fromkeys(row.assignment_id for row, _, _ in rows))
    cells: dict[str, dict[str, Cell]] = {}
    graded_rows = []
    for row, status, item in rows:
        time = row.submission_time
        cells.setdefault(row.student_id, {})[row.assignment_id] = Cell(
            row.score, row.max_score, status, item.submission.id if item else None,
            time.days_late if time else 0, time.penalty if time else 0.0,
            round(sum(adjustment.points for adjustment in row.adjustments), 2), bool(row.adjustments))
        if item is not None and row.graded:
            graded_rows.append(row)
    students = tuple(StudentRow(student, "", tuple(by_assignment[a] for a in assignments))
                     for student, by_assignment in cells.items())
    max_total = round(sum(students[0].cells[i].max_score for i in range(len(assignments))), 2) if students else 0.0
    return Matrix(assignments, max_total, students, tuple(_summary(a, graded_rows) for a in assignments))


def _summary(assignment_id: str, graded_rows: list) -> AssignmentSummary:
    mine = [row for row in graded_rows if row.assignment_id == assignment_id]
    bands = Counter(min(HISTOGRAM_BINS - 1, int(HISTOGRAM_BINS * row.score / row.max_score)) if row.max_score > 0
                    else 0 for row in mine)
    width = 100 // HISTOGRAM_BINS
    histogram = tuple(Bar(f"{band * width}–{(band + 1) * width} %", bands[band]) for band in range(HISTOGRAM_BINS))
    failed = Counter(total.stage for row in mine for total in row.stage_totals() if not total.all_passed)
    stages = tuple(Bar(stage, count) for stage, count in failed.most_common())
    return AssignmentSummary(assignment_id, len(mine), histogram, stages)


SORTS = ("name", "total")  # and any assignment id


def chosen_rows(matrix: Matrix, search: str, sort: str, descending: bool) -> list[StudentRow]:
    """The rows whose id or name holds ``search`` (any case), in the order asked for: by name (the
    student id), by total, or by an assignment's score (a tie: by id)."""
    needle = search.strip().casefold()
    rows = [row for row in matrix.rows
            if not needle or needle in row.student_id.casefold() or needle in row.name.casefold()]
    rows.sort(key=lambda row: row.student_id)
    if sort == "total":
        rows.sort(key=lambda row: row.total, reverse=descending)
    elif sort in matrix.assignments:
        column = matrix.assignments.index(sort)
        rows.sort(key=lambda row: row.cells[column].score, reverse=descending)
    elif descending:
        rows.reverse()
    return rows


def page_of(rows: list[StudentRow], number: str | int | None) -> Page:
    """One page of ``rows``: the last for a number past it, the first for one that is not a number."""
    return Paginator(rows, PAGE_SIZE).get_page(number)

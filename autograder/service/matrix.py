"""The class page's data: a matrix of students (rows) by assignments (columns) holding the score
that counts, with its late and adjusted marks, and each student's total; the rows the reader asked
for (filtered by name or id, sorted, one page of them); and per assignment the score histogram and
the stages most students fail, as bars an SVG draws.

Built from ``gradebook.class_rows`` (the rows grades.csv writes), so the page and the file never
disagree: a bounded number of queries for any class size. Reading and scoring every stored
grading of 1,000 students takes seconds, so each web process keeps the last matrix it built (under
a lock) with its fingerprint (``Fingerprint``: a few aggregate queries over the submissions, the
done gradings, adjustments, policies and class lists). When the fingerprint differs, it builds
again only the rows of the students that changed (``_updated``): a new submission or adjustment
(an id above the last build's largest), a grading done since (the done gradings' ids, kept and
compared: the workers' clocks are not trusted to order them); ``class_rows`` reads just theirs.
It builds the whole matrix again where it cannot tell who changed: a policy, class list, resource
link or LTI identity changed, something was deleted or moved between accounts (``service accounts
merge``), an assignment appeared or its maximum changed. Each cell keeps what the summaries need
(whether it was graded, its failed stages), so the histograms and the stages most failed are
counted again from the cells, not from every row. The students' names are read on every request
(one query), never kept.
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
    GradingState,
    LtiIdentity,
    LtiMembership,
    LtiResourceLink,
    Submission,
)
from autograder.service.policy import max_score
from autograder.student.curriculum import ASSIGNMENTS

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
    graded: bool  # it counts and was graded: the summaries count it
    failed_stages: tuple[str, ...]  # the stages with a failing test, of a graded cell (the summaries' bars)

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


@dataclass(frozen=True)
class Fingerprint:
    """What the matrix is built from, in a few aggregate queries (the sums of ``user_id`` change
    when a row moves to another account, and with the counts tell a move or a deletion apart
    from new rows)."""

    submissions: tuple  # count, largest id, sum of user ids
    done_gradings: tuple  # count, sum of ids: a grading done, whatever the clock of its worker's machine
    adjustments: tuple  # count, largest id, sum of user ids
    policies: tuple
    class_lists: tuple  # the LTI class lists, resource links and identities (a merge moves these)


@dataclass(frozen=True)
class _Kept:
    """A process's last matrix, with what an update needs to tell which students changed since."""

    fingerprint: Fingerprint
    matrix: Matrix
    done_gradings: frozenset[int]  # the ids of the gradings done when it was built
    maxima: tuple[float, ...]  # each assignment's maximum, which a missing cell shows


_built: dict[str, _Kept] = {}  # "matrix": this process's last
_building = threading.Lock()


def _fingerprint() -> Fingerprint:
    done = Grading.objects.filter(state=GradingState.DONE)
    return Fingerprint(
        tuple(Submission.objects.aggregate(Count("id"), Max("id"), Sum("user_id")).values()),
        tuple(done.aggregate(Count("id"), Sum("id")).values()),
        tuple(Adjustment.objects.aggregate(Count("id"), Max("id"), Sum("user_id")).values()),
        tuple(AssignmentPolicy.objects.values_list()),
        (tuple(LtiMembership.objects.aggregate(Count("id"), Max("id"), Max("fetched_at")).values()),
         tuple(LtiResourceLink.objects.aggregate(Count("id"), Max("id")).values()),
         tuple(LtiIdentity.objects.aggregate(Count("id"), Max("id"), Sum("user_id")).values())))


def class_matrix() -> Matrix:
    """The whole class: its rows grouped by student, with their names, and each assignment's summary."""
    fingerprint = _fingerprint()
    with _building:
        kept = _built.get("matrix")
        if kept is None or kept.fingerprint != fingerprint:
            kept = _built["matrix"] = (kept and _updated(kept, fingerprint)) or _kept_build(fingerprint)
    matrix = kept.matrix
    names = dict(get_user_model().objects.values_list("username", "first_name"))  # faster than 1,000 ids IN (...)
    return dataclasses.replace(matrix, rows=tuple(dataclasses.replace(row, name=names.get(row.student_id, ""))
                                                  for row in matrix.rows))


def _done_gradings() -> frozenset[int]:
    return frozenset(Grading.objects.filter(state=GradingState.DONE).values_list("id", flat=True))


def _maxima(assignments: tuple[str, ...]) -> tuple[float, ...]:
    return tuple(max_score(assignment) for assignment in assignments)


def _kept_build(fingerprint: Fingerprint) -> _Kept:
    done = _done_gradings()  # before the rows: a grading done meanwhile is looked at again by the next update
    matrix = _build()
    return _Kept(fingerprint, matrix, done, _maxima(matrix.assignments))


def _updated(kept: _Kept, fingerprint: Fingerprint) -> _Kept | None:
    """``kept`` brought up to date by building again only the rows of the students whose data
    changed: those with a new submission or adjustment (an id above the last build's largest) or a
    grading done since (the done gradings' ids compared: workers' clocks may disagree). None (build
    it all) when it cannot tell who changed: a policy, a class list, a resource link or an LTI
    identity changed; something was deleted or moved between accounts (the counts or the sums of
    user ids are not the last ones plus the new rows'); an assignment or a maximum changed."""
    was = kept.fingerprint
    if fingerprint.policies != was.policies or fingerprint.class_lists != was.class_lists:
        return None
    changed: set[int] = set()
    for model, (count, largest, user_sum), (count_now, _, user_sum_now) in (
            (Submission, was.submissions, fingerprint.submissions),
            (Adjustment, was.adjustments, fingerprint.adjustments)):
        new = list(model.objects.filter(id__gt=largest or 0).values_list("user_id", flat=True))
        if count_now != count + len(new) or (user_sum_now or 0) != (user_sum or 0) + sum(new):
            return None
        changed.update(new)
    done = _done_gradings()
    if not kept.done_gradings <= done:
        return None
    changed.update(Grading.objects.filter(id__in=done - kept.done_gradings).values_list("submission__user_id",
                                                                                         flat=True))
    if not changed:
        return dataclasses.replace(kept, fingerprint=fingerprint, done_gradings=done)
    assignments, rows = _student_rows(gradebook.class_rows(user_ids=changed))
    old = kept.matrix
    if (rows and assignments != old.assignments) or _maxima(old.assignments) != kept.maxima:
        return None
    students = {row.student_id: row for row in old.rows} | rows
    return _Kept(fingerprint, _matrix(old.assignments, students), done, kept.maxima)


def _build() -> Matrix:
    """The whole matrix from every row."""
    return _matrix(*_student_rows(gradebook.class_rows()))


def _student_rows(rows: list) -> tuple[tuple[str, ...], dict[str, StudentRow]]:
    """``class_rows``'s rows as the matrix's: its assignments (every one of the curriculum, then any
    other a row names, so the columns do not change with who has submitted), and a row of cells per
    student, ``missing`` where grades.csv has no row."""
    assignments = tuple(dict.fromkeys((*ASSIGNMENTS, *(row.assignment_id for row, _, _ in rows))))
    cells: dict[str, dict[str, Cell]] = {}
    for row, status, item in rows:
        time = row.submission_time
        graded = item is not None and row.graded
        failed = tuple(total.stage for total in row.stage_totals() if not total.all_passed) if graded else ()
        cells.setdefault(row.student_id, {})[row.assignment_id] = Cell(
            row.score, row.max_score, status, item.submission.id if item else None,
            time.days_late if time else 0, time.penalty if time else 0.0,
            round(sum(adjustment.points for adjustment in row.adjustments), 2), bool(row.adjustments), graded, failed)
    missing: dict[str, Cell] = {}  # made when first needed: its maximum costs a query

    def cell(by_assignment: dict[str, Cell], assignment: str) -> Cell:
        if assignment in by_assignment:
            return by_assignment[assignment]
        if assignment not in missing:
            missing[assignment] = Cell(0.0, max_score(assignment), "missing", None, 0, 0.0, 0.0, False, False, ())
        return missing[assignment]

    return assignments, {student: StudentRow(student, "", tuple(cell(by_assignment, a) for a in assignments))
                         for student, by_assignment in cells.items()}


def _matrix(assignments: tuple[str, ...], students: dict[str, StudentRow]) -> Matrix:
    """The matrix of these rows (by student id, as grades.csv orders them), with its summaries
    counted from the cells."""
    rows = tuple(students[student] for student in sorted(students))
    max_total = round(sum(cell.max_score for cell in rows[0].cells) if rows else sum(_maxima(assignments)), 2)
    return Matrix(assignments, max_total, rows,
                  tuple(_summary(a, [row.cells[i] for row in rows if row.cells[i].graded])
                        for i, a in enumerate(assignments)))


def _summary(assignment_id: str, graded: list[Cell]) -> AssignmentSummary:
    bands = Counter(min(HISTOGRAM_BINS - 1, int(HISTOGRAM_BINS * cell.score / cell.max_score)) if cell.max_score > 0
                    else 0 for cell in graded)
    width = 100 // HISTOGRAM_BINS
    histogram = tuple(Bar(f"{band * width}–{(band + 1) * width} %", bands[band]) for band in range(HISTOGRAM_BINS))
    failed = Counter(stage for cell in graded for stage in cell.failed_stages)
    stages = tuple(Bar(stage, count) for stage, count in failed.most_common())
    return AssignmentSummary(assignment_id, len(graded), histogram, stages)


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

"""The class as ``grade`` would write it: one row per student and assignment (the submission
that counts, after the term), ``missing`` where a student has none, and grades.csv's bytes."""

from __future__ import annotations

import csv
import io
import tempfile
from collections import defaultdict
from collections.abc import Collection
from pathlib import Path

from django.contrib.auth import get_user_model

from autograder.records.files import csv_safe
from autograder.records.results import CSV_COLUMNS, GradedRow, row_order
from autograder.records.results import Adjustment as TermAdjustment
from autograder.service.models import Adjustment, LtiMembership, LtiResourceLink, Submission
from autograder.service.policy import (
    ScoredSubmission,
    counted,
    max_score,
    missing_row,
    policy_for,
    scored,
)
from autograder.student.curriculum import ASSIGNMENTS
from autograder.term.answers import answer_path, graded_code


def class_rows(user_ids: Collection[int] | None = None) -> list[tuple[GradedRow, str, ScoredSubmission | None]]:
    """(row, grades.csv status, counted submission) for every student who submitted anything and
    every assignment anyone submitted, as ``grade`` makes a row per student folder and assignment;
    and, where an LMS's class list was fetched (``lti/roster.py``), every student on it and every
    assignment linked in their courses, ``missing`` until they submit.

    ``user_ids``: only these accounts' rows (still for every assignment of the class), as the class
    page updates the students that changed (``matrix.py``); grades.csv takes every row.

    A bounded number of queries, whatever the class's size (the class page of 1,000 students is
    built from them): the submissions without their notebooks, their gradings, every adjustment,
    and a policy and a maximum per assignment; the rest is grouped here."""
    submissions = Submission.objects.select_related("user").defer("notebook").prefetch_related("gradings")
    listed = LtiMembership.objects.values_list("identity__user__username", flat=True)
    if user_ids is not None:
        submissions = submissions.filter(user_id__in=user_ids)
        listed = listed.filter(identity__user_id__in=user_ids)
    submissions = list(submissions)
    linked = set(LtiResourceLink.objects.filter(context__members__isnull=False).values_list("assignment_id",
                                                                                           flat=True))
    submitted = set(Submission.objects.order_by().values_list("assignment_id", flat=True).distinct())
    students = sorted({s.user.username for s in submissions} | set(listed))
    assignments = [a for a in ASSIGNMENTS if a in linked or a in submitted]
    users = {user.username: user for user in get_user_model().objects.filter(username__in=students)}
    by_pair: dict[tuple[int, str], list[Submission]] = defaultdict(list)
    for submission in submissions:
        by_pair[submission.user_id, submission.assignment_id].append(submission)
    adjusted: dict[tuple[int, str], list[TermAdjustment]] = defaultdict(list)
    adjustments = Adjustment.objects.filter(assignment_id__in=assignments)
    if user_ids is not None:
        adjustments = adjustments.filter(user_id__in=user_ids)
    for adjustment in adjustments:  # in their order, as adjustments_of
        adjusted[adjustment.user_id, adjustment.assignment_id].append(TermAdjustment(adjustment.points,
                                                                                     adjustment.reason))
    rows = []
    for assignment_id in assignments:
        policy = policy_for(assignment_id)
        maximum = max_score(assignment_id)
        for student_id in students:
            user = users[student_id]
            adjustments = tuple(adjusted.get((user.id, assignment_id), ()))
            best = counted([scored(s, policy, adjustments) for s in by_pair.get((user.id, assignment_id), ())], policy)
            if best is None:
                row = missing_row(student_id, assignment_id, maximum)
                rows.append((row, row.status.text(), None))
            else:
                rows.append((best.row, best.status_text, best))
    return sorted(rows, key=lambda item: row_order(item[0]))


def grades_csv(rows: list[tuple[GradedRow, str, ScoredSubmission | None]]) -> str:
    """grades.csv as ``grade`` writes it (the stored status: the worker's, with its isolation notes)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for row, status, _ in rows:
        fields = row.csv_fields()
        fields[4] = status
        writer.writerow([csv_safe(field) for field in fields])
    return buffer.getvalue()


def answers_folder(rows: list[tuple[GradedRow, str, ScoredSubmission | None]], out: Path) -> Path:
    """The counted notebooks' graded code in ``out/answers/`` (as ``grade`` keeps it), for ``similarity``
    (the notebooks read here, in one query: ``class_rows`` leaves them out)."""
    counted_ids = [item.submission.id for row, _, item in rows if item is not None and row.graded]
    notebooks = dict(Submission.objects.filter(id__in=counted_ids).values_list("id", "notebook"))
    for row, _, item in rows:
        if item is None or not row.graded:
            continue
        notebook = out / "notebooks" / f"{row.assignment_id}.ipynb"
        notebook.parent.mkdir(parents=True, exist_ok=True)
        notebook.write_bytes(bytes(notebooks[item.submission.id]))
        code = graded_code(notebook, row.assignment_id)
        if code is not None:
            path = answer_path(out, row.student_id, row.assignment_id)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(code, encoding="utf-8")
    return out


def similarity_page(pairs: int = 10) -> str:
    from autograder.feedback.similarity_page import similarity_html
    from autograder.term.similarity import class_similarity

    with tempfile.TemporaryDirectory(prefix="attention-kit-similarity-") as folder:
        out = answers_folder(class_rows(), Path(folder))
        (out / "answers").mkdir(exist_ok=True)
        return similarity_html(class_similarity(out, pairs))


def report_page() -> str:
    from autograder.feedback.report import report_html

    return report_html([row for row, _, _ in class_rows()])

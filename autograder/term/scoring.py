"""A graded row's final score: the hidden tests' points (and the rubric's points for right
predictions, if any), less what its hints cost (if the rubric charges for them), less any late
penalty, plus any adjustments, never below 0. The tests' own points stay as they were; the row records the
submission time, the due date, the penalty and each adjustment with its reason."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime, timezone

from autograder.records.results import Adjustment, GradedRow, SubmissionTime, each_row
from autograder.records.submissions import SubmissionEntry
from autograder.term.lateness import days_late, late_penalty, read_timestamp


@dataclass(frozen=True)
class TermPolicy:
    """What ``grade`` applies after the tests: ``--due``, ``--late-penalty`` and ``--adjustments``."""

    due_dates: dict[str, datetime] = field(default_factory=dict)
    late_penalty_percent: float = 0.0
    adjustments: dict[tuple[str, str], tuple[Adjustment, ...]] = field(default_factory=dict)
    # When the run grades: a submission time more than a day after it is none (term.lateness).
    graded_at: datetime = field(default_factory=lambda: datetime.now(timezone.utc))  # not datetime.UTC: 3.10 too


def submission_time(row: GradedRow, entry: SubmissionEntry, policy: TermPolicy) -> SubmissionTime:
    """When the row's notebook was submitted, against its due date, and what lateness cost.

    Only a graded notebook's folder is read (the others score 0 whatever their time); a time
    that is unknown never makes a submission late.
    """
    due = policy.due_dates.get(row.assignment_id)
    due_text = due.isoformat() if due else None
    if not row.graded:
        return SubmissionTime(due=due_text)
    read = read_timestamp(entry.path.parent, policy.graded_at)
    if read.moment is None:
        return SubmissionTime(None, read.problem, due_text)
    days = days_late(read.moment, due) if due else 0
    return SubmissionTime(read.moment.isoformat(), None, due_text, days,
                          late_penalty(days, policy.late_penalty_percent, row.max_score))


def apply_term(rows: list[GradedRow], entries: list[SubmissionEntry], policy: TermPolicy) -> list[GradedRow]:
    """``rows`` with their submission times, late penalties and adjustments, and the scores after
    them; a row whose folder holds something that cannot be handled becomes an ``error`` row."""
    entry_of = {entry.key: entry for entry in entries}

    def applied(row: GradedRow) -> GradedRow:
        time = submission_time(row, entry_of[(row.student_id, row.assignment_id)], policy)
        adjustments = policy.adjustments.get((row.student_id, row.assignment_id), ())
        adjusted = sum(adjustment.points for adjustment in adjustments)
        score = row.before_term - time.penalty + adjusted
        return dataclasses.replace(row, score=max(0.0, round(score, 2)), submission_time=time, adjustments=adjustments)

    return each_row(rows, "apply late work and adjustments", applied)

"""An assignment's rules, applied to stored submissions: limits, lateness by the server's clock,
which submission counts, what a student sees before the due date, what hints cost (the rubric's
prices unless the policy sets its own), and each student's row as ``grade`` would write it (the
term applied to the stored results, never to the tests' points).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from autograder.records.hint_charges import HintPrices, hint_charges
from autograder.records.results import Adjustment as TermAdjustment
from autograder.records.results import GradedRow, HintCharge, RowKind, RowStatus, SubmissionTime
from autograder.service.models import (
    Adjustment,
    AssignmentPolicy,
    Counting,
    Grading,
    GradingState,
    Submission,
    Visibility,
)
from autograder.student.curriculum import STAGES_BY_ASSIGNMENT
from autograder.term.lateness import days_late, late_penalty


def policy_for(assignment_id: str) -> AssignmentPolicy:
    policy, _ = AssignmentPolicy.objects.get_or_create(assignment_id=assignment_id)
    return policy


@dataclass(frozen=True)
class LimitReached:
    """Why an upload must wait, and until when (None: it never will be allowed)."""

    reason: str  # "per_hour" | "total" | "closed" | "not_accepting"
    next_allowed: datetime | None = None


def upload_refusal(user, policy: AssignmentPolicy, now: datetime) -> LimitReached | None:
    """Whether ``user`` may upload to ``policy``'s assignment at ``now``."""
    if not policy.accepting:
        return LimitReached("not_accepting")
    if policy.closes_at is not None and now >= policy.closes_at:
        return LimitReached("closed")
    mine = Submission.objects.filter(user=user, assignment_id=policy.assignment_id)
    if policy.total_limit is not None and mine.count() >= policy.total_limit:
        return LimitReached("total")
    if policy.per_hour_limit is not None:
        recent = list(mine.filter(received_at__gt=now - timedelta(hours=1)).order_by("received_at")
                      .values_list("received_at", flat=True))
        if len(recent) >= policy.per_hour_limit:
            # The oldest upload of the last hour leaves the window an hour after it came in.
            return LimitReached("per_hour", recent[len(recent) - policy.per_hour_limit] + timedelta(hours=1))
    return None


def submission_time(received_at: datetime, policy: AssignmentPolicy, max_score: float) -> SubmissionTime:
    """The time the server received the notebook, against the due date, and what lateness cost."""
    submitted = received_at.astimezone(timezone.utc).isoformat()
    if policy.due_at is None:
        return SubmissionTime(submitted)
    days = days_late(received_at, policy.due_at)
    return SubmissionTime(submitted, None, policy.due_at.astimezone(timezone.utc).isoformat(), days,
                          late_penalty(days, policy.late_penalty_percent, max_score))


def latest_grading(submission: Submission) -> Grading | None:
    """The submission's newest finished grading (a regrade replaces the first once it is done)."""
    done = [grading for grading in submission.gradings.all() if grading.state == GradingState.DONE]
    return max(done, key=lambda grading: grading.round) if done else None


@dataclass(frozen=True)
class ScoredSubmission:
    """A submission with its newest finished grading and its row after the term."""

    submission: Submission
    grading: Grading | None
    row: GradedRow | None  # None while it waits for its first grading
    status_text: str = ""  # grades.csv's status, as the worker wrote it

    @property
    def score(self) -> float | None:
        return self.row.score if self.row else None


def term_row(submission: Submission, grading: Grading, policy: AssignmentPolicy,
             adjustments: tuple[TermAdjustment, ...] = ()) -> GradedRow:
    """The graded row with the server's receipt time, the late penalty and ``adjustments``, under
    the user name of the submission's account now (``service accounts merge`` may have moved it)."""
    stored = grading.row
    row = dataclasses.replace(GradedRow.from_json(stored), language=submission.language,
                              student_id=submission.user.username)
    if not row.graded:
        return dataclasses.replace(row, submission_time=SubmissionTime(due=_due(policy)), adjustments=adjustments,
                                   score=max(0.0, round(sum(a.points for a in adjustments), 2)))
    row = dataclasses.replace(row, hint_charges=charged_hints(row, policy))
    time = submission_time(submission.received_at, policy, row.max_score)
    score = row.before_term - time.penalty + sum(a.points for a in adjustments)
    return dataclasses.replace(row, score=max(0.0, round(score, 2)), submission_time=time, adjustments=adjustments)


def charged_hints(row: GradedRow, policy: AssignmentPolicy) -> tuple[HintCharge, ...]:
    """What ``row``'s hints cost: as the grader charged them by the rubric, unless the policy sets
    the assignment's own prices (the web process never reads the rubric: the stored row holds it)."""
    if policy.hint_charges is None:
        return row.hint_charges
    return hint_charges(row, policy_prices(policy))


def policy_prices(policy: AssignmentPolicy) -> HintPrices:
    """The prices the policy stores (validated when it was saved, by ``web/policy_form.py``)."""
    return HintPrices.from_table(policy.hint_charges or {}, STAGES_BY_ASSIGNMENT[policy.assignment_id])


def _due(policy: AssignmentPolicy) -> str | None:
    return policy.due_at.astimezone(timezone.utc).isoformat() if policy.due_at else None


def scored(submission: Submission, policy: AssignmentPolicy,
           adjustments: tuple[TermAdjustment, ...] = ()) -> ScoredSubmission:
    grading = latest_grading(submission)
    if grading is None or grading.row is None:
        return ScoredSubmission(submission, grading, None)
    return ScoredSubmission(submission, grading, term_row(submission, grading, policy, adjustments),
                            str(grading.row.get("status", "graded")))


def counted(submissions: list[ScoredSubmission], policy: AssignmentPolicy) -> ScoredSubmission | None:
    """The submission that counts: the latest graded one, or the best (the earlier one on a tie)."""
    graded = [item for item in submissions if item.row is not None]
    if not graded:
        return None
    if policy.counts == Counting.BEST:
        return max(graded, key=lambda item: (item.row.score, -item.submission.received_at.timestamp()))
    return max(graded, key=lambda item: (item.submission.received_at, item.submission.id))


@dataclass(frozen=True)
class Standing:
    """Where one graded submission stands among its author's for the assignment: whether it is the
    one that counts now, which one does, and which counted just before it came in (what a student
    who submits again must be told they replaced, or did not)."""

    counts: bool
    counted: ScoredSubmission
    before: ScoredSubmission | None  # the one that counted among those received before it

    def change(self, score: float, counts: str) -> str:
        """What a student should be told beyond the score: "replaced" (under "latest", this lower
        score took a higher one's place), "best_counts" (under "best", a higher one still counts),
        or "" (the first, or the better one)."""
        if counts == Counting.LATEST and self.counts and self.before and self.before.row.score > score:
            return "replaced"
        if counts == Counting.BEST and not self.counts and self.counted.row.score > score:
            return "best_counts"
        return ""


def standing(submission: Submission, policy: AssignmentPolicy) -> Standing | None:
    """``submission``'s standing under ``policy``'s counting rule; None while it is not graded."""
    adjustments = adjustments_of(submission.user, submission.assignment_id)
    mine = (Submission.objects.filter(user=submission.user, assignment_id=submission.assignment_id)
            .select_related("user").prefetch_related("gradings"))
    items = [scored(other, policy, adjustments) for other in mine]
    now = counted(items, policy)
    if now is None or not any(item.submission.id == submission.id and item.row for item in items):
        return None
    earlier = [item for item in items if (item.submission.received_at, item.submission.id)
               < (submission.received_at, submission.id)]
    return Standing(now.submission.id == submission.id, now, counted(earlier, policy))


def adjustments_of(user, assignment_id: str) -> tuple[TermAdjustment, ...]:
    return tuple(TermAdjustment(adjustment.points, adjustment.reason)
                 for adjustment in Adjustment.objects.filter(user=user, assignment_id=assignment_id))


def visibility(policy: AssignmentPolicy, now: datetime) -> str:
    """What a student sees now: everything once the due date has passed."""
    if policy.due_at is not None and now >= policy.due_at:
        return Visibility.EVERYTHING
    return policy.visibility_before_due


def max_score(assignment_id: str) -> float:
    """The assignment's maximum, as its graded rows record it (the web process never reads the rubric)."""
    row = (Grading.objects.filter(submission__assignment_id=assignment_id, state=GradingState.DONE)
           .values_list("row", flat=True).first())
    return float(row["max_score"]) if row else 100.0


def missing_row(student_id: str, assignment_id: str, maximum: float) -> GradedRow:
    return GradedRow(student_id, assignment_id, RowStatus(RowKind.MISSING), 0.0, maximum)

"""The scores owed to platforms' gradebooks, as rows: made in the transaction that changes a score,
and moved pending -> sending -> sent (or failed) by the sender, never lost.

- ``queue_scores``: after a grading is recorded (``queue.finish``), an adjustment, or a resend,
  one passback per link the person launched for the assignment, with the score that counts now
  (the assignment's policy: latest or best, the late penalty by the server's clock, adjustments).
  Each gets a timestamp later than the one before for that person and line item.
- ``claim_due``: a sender takes a due passback only when no older one of the same person and line
  item waits or is on its way, so the LMS gets them in order; a claim is a conditional UPDATE.
- ``delivered``, ``retry_later`` (backoff, doubling from ``passback_retry_seconds`` up to an hour,
  failed after ``passback_give_up_hours``), ``refused`` (failed at once, with why), ``held``.
- ``recover_stale``: a passback whose sender died while sending goes back to pending.
- ``retry_now``: the instructor's button: failed ones again (unless a newer score was sent since:
  then they are superseded, never sent after it), pending ones at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from autograder.service.models import (
    LtiLinkUser,
    LtiResourceLink,
    PassbackState,
    ScorePassback,
    Submission,
)
from autograder.service.policy import adjustments_of, counted, policy_for, scored

STALE_CLAIM = timedelta(minutes=2)  # a send takes at most a few timeouts of 15 s
LONGEST_WAIT = timedelta(hours=1)
ONE_STEP = timedelta(milliseconds=1)
WAITING = (PassbackState.PENDING, PassbackState.SENDING)


def queue_scores(user, assignment_id: str, reason: str) -> int:
    """Owe each link ``user`` launched for ``assignment_id`` the score that counts now; how many.
    Call it inside the transaction that changed the score."""
    with transaction.atomic():
        # Locked, so that two scores of one person made at once get their timestamps in order.
        link_users = list(LtiLinkUser.objects.select_for_update().filter(identity__user=user,
                                                                         link__assignment_id=assignment_id))
        if not link_users:
            return 0
        policy = policy_for(assignment_id)
        adjustments = adjustments_of(user, assignment_id)
        submissions = (Submission.objects.filter(user=user, assignment_id=assignment_id).select_related("user")
                       .prefetch_related("gradings"))
        best = counted([scored(submission, policy, adjustments) for submission in submissions], policy)
        if best is None:
            return 0  # nothing graded yet
        now = timezone.now()
        for link_user in link_users:
            last = ScorePassback.objects.filter(link_user=link_user).order_by("-timestamp").first()
            timestamp = max(now, last.timestamp + ONE_STEP) if last else now
            ScorePassback.objects.create(link_user=link_user, submission=best.submission, reason=reason,
                                         score_given=best.row.score, score_maximum=best.row.max_score,
                                         timestamp=timestamp, created_at=now, not_before=now)
        return len(link_users)


def claim_due(sender_id: str, limit: int = 20) -> list[ScorePassback]:
    """Up to ``limit`` due passbacks for ``sender_id``, each the oldest one waiting for its person
    and line item."""
    now = timezone.now()
    taken = []
    due = ScorePassback.objects.filter(state=PassbackState.PENDING, not_before__lte=now).order_by("id")
    for passback in due[:limit * 5]:
        if ScorePassback.objects.filter(link_user_id=passback.link_user_id, id__lt=passback.id,
                                        state__in=WAITING).exists():
            continue  # an older score goes first
        if ScorePassback.objects.filter(id=passback.id, state=PassbackState.PENDING).update(
                state=PassbackState.SENDING, claimed_by=sender_id, claimed_at=now, attempts=F("attempts") + 1):
            taken.append(ScorePassback.objects.select_related(
                "link_user__identity", "link_user__link__context__deployment__platform", "submission").get(
                id=passback.id))
            if len(taken) == limit:
                break
    return taken


def _mine(passback: ScorePassback, sender_id: str):
    return ScorePassback.objects.filter(id=passback.id, state=PassbackState.SENDING, claimed_by=sender_id)


def delivered(passback: ScorePassback, sender_id: str) -> bool:
    return bool(_mine(passback, sender_id).update(state=PassbackState.SENT, sent_at=timezone.now(), last_error=""))


def backoff(attempts: int) -> timedelta:
    """The wait before the next try, after ``attempts`` tries: doubling, at most an hour."""
    first = timedelta(seconds=settings.CONFIG.passback_retry_seconds)
    return min(first * 2 ** max(0, attempts - 1), LONGEST_WAIT)


def retry_later(passback: ScorePassback, sender_id: str, why: str, soon: bool = False) -> None:
    """Back to pending with ``why``, after the backoff (``soon``: at once, e.g. for a new line item),
    or failed once ``passback_give_up_hours`` have passed since it was made."""
    now = timezone.now()
    if now - passback.created_at > timedelta(hours=settings.CONFIG.passback_give_up_hours):
        _mine(passback, sender_id).update(state=PassbackState.FAILED, last_error=f"{why} (given up after"
                                          f" {settings.CONFIG.passback_give_up_hours:g} hours of tries)")
        return
    _mine(passback, sender_id).update(state=PassbackState.PENDING, claimed_by="",
                                      not_before=now if soon else now + backoff(passback.attempts), last_error=why)


def refused(passback: ScorePassback, sender_id: str, why: str) -> None:
    _mine(passback, sender_id).update(state=PassbackState.FAILED, last_error=why)


def held(passback: ScorePassback, sender_id: str, until, why: str) -> None:
    """Not sent yet, and not a try: the score may not be shown before ``until``."""
    _mine(passback, sender_id).update(state=PassbackState.PENDING, claimed_by="", not_before=until, last_error=why,
                                      attempts=F("attempts") - 1)


def recover_stale(now=None) -> int:
    now = now or timezone.now()
    return ScorePassback.objects.filter(state=PassbackState.SENDING, claimed_at__lt=now - STALE_CLAIM).update(
        state=PassbackState.PENDING, claimed_by="", not_before=now)


def retry_now() -> int:
    """The instructor's "try again now": failed passbacks (but those a newer sent score replaced)
    and waiting ones, at once; how many."""
    now = timezone.now()
    count = 0
    with transaction.atomic():
        for passback in ScorePassback.objects.select_for_update().filter(state=PassbackState.FAILED):
            newer_sent = ScorePassback.objects.filter(link_user_id=passback.link_user_id, id__gt=passback.id,
                                                      state=PassbackState.SENT).exists()
            passback.state = PassbackState.SUPERSEDED if newer_sent else PassbackState.PENDING
            passback.not_before = now
            passback.save(update_fields=["state", "not_before"])
            count += not newer_sent
        count += ScorePassback.objects.filter(state=PassbackState.PENDING, not_before__gt=now).update(not_before=now)
    return count


def claim_line_item(link: LtiResourceLink, sender_id: str) -> bool:
    """Whether ``sender_id`` may find or make ``link``'s line item now (one sender at a time)."""
    now = timezone.now()
    return bool(LtiResourceLink.objects.filter(id=link.id).filter(
        lineitem_claimed_by__in=["", sender_id]).update(lineitem_claimed_by=sender_id, lineitem_claimed_at=now)
        or LtiResourceLink.objects.filter(id=link.id, lineitem_claimed_at__lt=now - STALE_CLAIM).update(
        lineitem_claimed_by=sender_id, lineitem_claimed_at=now))


def release_line_item(link: LtiResourceLink, sender_id: str, url: str | None) -> None:
    fields = {"lineitem_claimed_by": "", "lineitem_claimed_at": None}
    if url is not None:
        fields["lineitem_url"] = url
    LtiResourceLink.objects.filter(id=link.id, lineitem_claimed_by=sender_id).update(**fields)

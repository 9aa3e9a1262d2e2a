"""The grading queue over the database, the same on SQLite and PostgreSQL.

- ``enqueue``: a ``Grading`` row and its django-tasks task, in the caller's transaction.
- ``claim``: queued -> running by one worker (a conditional UPDATE: two workers never both win).
- ``finish``: running -> done with the row, only while this worker's claim still stands, so a
  result is recorded once even if a job ran twice (and the LMS owed its score once).
- ``recover``: the jobs of a worker that died (its process gone, or no heartbeat for
  ``STALE_AFTER``) go back to the queue, with a fresh task; so does a queued job whose task that
  worker had taken but not yet claimed.
"""

from __future__ import annotations

import os
import socket
from datetime import timedelta

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from autograder.service.lti.passback import queue_scores
from autograder.service.models import Grading, GradingState, GradingWorker, Submission, WorkerState
from autograder.service.tasks import grade

STALE_AFTER = timedelta(seconds=60)  # a worker heartbeats every few seconds while it lives
POLL_AT_MOST = 5  # seconds between a waiting student's looks at the queue, far back in it


def enqueue(submission: Submission, round_number: int = 1) -> Grading:
    """Queue a grading of ``submission`` (call inside the transaction that makes it durable)."""
    grading = Grading.objects.create(submission=submission, round=round_number, queued_at=timezone.now())
    grade.enqueue(grading.id)
    return grading


def regrade(submissions) -> int:
    """A new round for each of ``submissions`` (a regrade after the tests changed); how many."""
    count = 0
    with transaction.atomic():
        for submission in submissions:
            last = submission.gradings.order_by("-round").first()
            enqueue(submission, (last.round if last else 0) + 1)
            count += 1
    return count


def claim(grading_id: int, worker_id: str) -> Grading | None:
    """Take a queued grading for ``worker_id``; None when it is not queued (done, or taken)."""
    taken = Grading.objects.filter(id=grading_id, state=GradingState.QUEUED).update(
        state=GradingState.RUNNING, worker_id=worker_id, claimed_at=timezone.now(), attempts=F("attempts") + 1)
    return Grading.objects.select_related("submission", "submission__user").get(id=grading_id) if taken else None


def finish(grading: Grading, worker_id: str, row: dict, tests_score: float) -> bool:
    """Record the result, unless the claim was lost (the job was given to another worker), and, in
    the same transaction, the score the LMS is owed when the student came through LTI."""
    with transaction.atomic():
        done = Grading.objects.filter(id=grading.id, state=GradingState.RUNNING, worker_id=worker_id,
                                      attempts=grading.attempts).update(
            state=GradingState.DONE, row=row, tests_score=tests_score, finished_at=timezone.now())
        if done:
            GradingWorker.objects.filter(worker_id=worker_id).update(graded=F("graded") + 1)
            queue_scores(grading.submission.user, grading.submission.assignment_id,
                         "graded" if grading.round == 1 else "regraded")
    return bool(done)


def release(grading: Grading, worker_id: str) -> None:
    """Give a claimed grading back to the queue (the worker could not grade it now)."""
    with transaction.atomic():
        if Grading.objects.filter(id=grading.id, state=GradingState.RUNNING, worker_id=worker_id).update(
                state=GradingState.QUEUED, worker_id=""):
            grade.enqueue(grading.id)


def living_workers(now=None):
    """The grading workers that have not stopped and whose heartbeat is fresh, whatever their state."""
    now = now or timezone.now()
    return GradingWorker.objects.exclude(state=WorkerState.STOPPED).filter(heartbeat_at__gte=now - STALE_AFTER)


def _dead(worker: GradingWorker, now) -> bool:
    if worker.state == WorkerState.STOPPED or worker.heartbeat_at < now - STALE_AFTER:
        return True
    if worker.host == socket.gethostname():
        try:
            os.kill(worker.pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
    return False


def recover(now=None) -> int:
    """Queue again every running grading whose worker is gone; how many."""
    now = now or timezone.now()
    dead = [worker.worker_id for worker in GradingWorker.objects.exclude(state=WorkerState.STOPPED)
            if _dead(worker, now)]
    GradingWorker.objects.filter(worker_id__in=dead).update(state=WorkerState.STOPPED)
    stopped = GradingWorker.objects.filter(state=WorkerState.STOPPED).values_list("worker_id", flat=True)
    orphans = Grading.objects.filter(state=GradingState.RUNNING).filter(
        Q(worker_id__in=list(stopped)) | ~Q(worker_id__in=GradingWorker.objects.values_list("worker_id", flat=True)))
    count = 0
    with transaction.atomic():
        for grading in orphans.select_for_update():
            if Grading.objects.filter(id=grading.id, state=GradingState.RUNNING, worker_id=grading.worker_id).update(
                    state=GradingState.QUEUED, worker_id=""):
                grade.enqueue(grading.id)
                count += 1
    for grading_id in _fail_orphaned_tasks(list(stopped)):
        count += _dispatch_again(grading_id)
    return count


def _fail_orphaned_tasks(worker_ids: list[str]) -> list[int]:
    """django-tasks leaves a task RUNNING when its worker dies (django-tasks issue #46): mark such
    tasks failed, so that its own views of the queue stay true; the gradings they were to run."""
    from django_tasks_db.models import DBTaskResult

    from autograder.service.tasks import QUEUE

    failed = []
    for result in DBTaskResult.objects.filter(status="RUNNING", queue_name=QUEUE):
        orphaned = bool(result.worker_ids) and result.worker_ids[-1] in worker_ids
        if orphaned and DBTaskResult.objects.filter(id=result.id, status="RUNNING").update(
                status="FAILED", finished_at=timezone.now()):
            failed.extend(result.args_kwargs["args"][:1])
    return failed


def _dispatch_again(grading_id: int) -> int:
    """A fresh task for a grading still queued whose task died with its worker: the worker took
    the task and was killed before it claimed the grading, so no task would ever run it. 1 when one
    was enqueued (none when the grading is claimed or done, or another task waits for it)."""
    from django_tasks_db.models import DBTaskResult

    from autograder.service.tasks import QUEUE

    with transaction.atomic():
        if not Grading.objects.select_for_update().filter(id=grading_id, state=GradingState.QUEUED).exists():
            return 0
        waiting = DBTaskResult.objects.filter(queue_name=QUEUE, status__in=["READY", "RUNNING"])
        if any(result.args_kwargs["args"][:1] == [grading_id] for result in waiting):
            return 0
        grade.enqueue(grading_id)
        return 1


def position(grading: Grading) -> int:
    """1 for the next grading to run (or running now), 2 behind it, ..."""
    return Grading.objects.filter(state__in=[GradingState.QUEUED, GradingState.RUNNING], id__lt=grading.id).count() + 1


def poll_after(place: int) -> int:
    """Seconds before a waiting student's queue page, or CI job, looks again: every second near
    the front of the queue, less often further back, at most every ``POLL_AT_MOST`` seconds. Each
    look costs the web about 10 ms of CPU, and a rush is when the CPU is short: 200 students looking
    every second while they wait would take more of it than the grading of their notebooks."""
    return min(POLL_AT_MOST, max(1, -(-place // 4)))

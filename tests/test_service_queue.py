"""The queue's recovery on the service's real database, in this process: a grading worker killed in
the moment between taking a django-tasks task and claiming its grading leaves the grading queued
with no task that will run it; ``recover`` gives it a fresh one, once. (The live service killed
mid-queue, with real workers, is tried in tests/test_service_recovery.py, where this moment was
first met: one of six submissions never graded.)"""

from __future__ import annotations

from datetime import timedelta

from service_harness import notebook_bytes

A01 = "01_attention_scores"


def _queued_grading(student_id: str):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from autograder.service import accounts
    from autograder.service.models import Grading

    token = accounts.make_api_token(accounts.person(student_id))
    answer = Client(HTTP_HOST="localhost", HTTP_AUTHORIZATION=f"Bearer {token}").post(
        "/api/v1/submissions", {"assignment": A01, "notebook": SimpleUploadedFile(
            f"{A01}.ipynb", notebook_bytes("ada_full_marks", A01, run=student_id))})
    assert answer.status_code == 201, answer.content
    return Grading.objects.get(submission_id=answer.json()["id"])


def _tasks_for(grading_id: int, status: str) -> list:
    from django_tasks_db.models import DBTaskResult

    return [result for result in DBTaskResult.objects.filter(status=status)
            if result.args_kwargs["args"] == [grading_id]]


def _dead_worker(worker_id: str) -> None:
    """A worker on another machine whose heartbeat stopped two minutes ago."""
    from django.utils import timezone

    from autograder.service.models import GradingWorker, WorkerState

    long_ago = timezone.now() - timedelta(minutes=2)
    GradingWorker.objects.create(worker_id=worker_id, host="another-machine", pid=1, started_at=long_ago,
                                 heartbeat_at=long_ago, state=WorkerState.READY)


def test_a_task_taken_by_a_worker_that_died_before_claiming_it_is_dispatched_again(service_data):
    from autograder.service import queue
    from autograder.service.models import GradingState

    grading = _queued_grading("q_taken")
    [task] = _tasks_for(grading.id, "READY")
    _dead_worker("q-dead-worker")
    task.claim("q-dead-worker")  # what django-tasks' worker does first; then it was killed

    assert queue.recover() >= 1
    grading.refresh_from_db()
    assert grading.state == GradingState.QUEUED
    assert grading.attempts == 0
    assert [result.id for result in _tasks_for(grading.id, "FAILED")] == [task.id]
    assert len(_tasks_for(grading.id, "READY")) == 1  # a fresh task runs it
    queue.recover()
    assert len(_tasks_for(grading.id, "READY")) == 1  # and only one


def test_a_claimed_grading_of_a_dead_worker_is_queued_again_with_one_fresh_task(service_data):
    from autograder.service import queue
    from autograder.service.models import GradingState

    grading = _queued_grading("q_claimed")
    [task] = _tasks_for(grading.id, "READY")
    _dead_worker("q-dead-claimer")
    task.claim("q-dead-claimer")
    assert queue.claim(grading.id, "q-dead-claimer") is not None

    queue.recover()
    grading.refresh_from_db()
    assert (grading.state, grading.worker_id, grading.attempts) == (GradingState.QUEUED, "", 1)
    assert len(_tasks_for(grading.id, "READY")) == 1  # one, not one for the row and one for the task

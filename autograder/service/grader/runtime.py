"""The grading worker process (``python -m autograder service worker``, started by ``serve``).

It registers itself in the database, starts a warm grader (guarantees and canaries first), then
runs django-tasks' database worker loop, which hands it each queued grading. While it lives, a
heartbeat thread says so and requeues the jobs of workers that died. A worker whose grader cannot
prove its guarantees grades nothing: it says why in the database (the instructor's page shows it)
and tries again later. The start-up checks and canaries are run again every
``recheck_seconds`` (an hour by default), between jobs.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone

from autograder.grading.engine import GradingError
from autograder.grading.trust import GraderUntrusted
from autograder.probes.errors import SandboxError
from autograder.records.jobs import GradeOptions
from autograder.service import queue
from autograder.service.grader.warm import WarmGrader
from autograder.service.models import Grading, GradingWorker, WorkerState
from autograder.service.tasks import QUEUE

HEARTBEAT_SECONDS = 3.0
RETRY_UNTRUSTED_SECONDS = 300.0
POLL_SECONDS = 0.05


@dataclass
class _Running:
    worker_id: str
    grader: WarmGrader | None = None
    loop: object | None = None  # the django-tasks Worker while it runs
    needs_restart: bool = False
    stop: threading.Event = field(default_factory=threading.Event)


_RUNNING: _Running | None = None


def grade_job(grading_id: int) -> None:
    """Grade one queued grading (django-tasks calls this in the worker process). A worker claims
    one notebook at a time: whatever waits stays in the queue for whichever worker is free first,
    so a notebook that loops until its time runs out delays no other student's."""
    running = _RUNNING
    if running is None or running.grader is None:
        raise RuntimeError("grade_job runs only inside a grading worker")
    grading = queue.claim(grading_id, running.worker_id)
    if grading is None:
        return  # done already, or another worker has it
    submission = grading.submission
    started = time.monotonic()
    try:
        row = running.grader.grade(grading.id, submission.user.username, submission.assignment_id,
                                   bytes(submission.notebook))
    except BaseException as error:
        queue.release(grading, running.worker_id)  # the grader's failure is never the student's
        _log_job(grading, running.worker_id, started, f"released (the grader failed: {type(error).__name__})")
        running.needs_restart = True
        if running.loop is not None:
            running.loop.running = False
        raise
    recorded = queue.finish(grading, running.worker_id, row.to_json(), row.tests_score)
    _log_job(grading, running.worker_id, started, row.status.kind.value if recorded else
             "not recorded (its claim was lost: another worker grades it)")


def _log_job(grading: Grading, worker_id: str, started: float, outcome: str) -> None:
    """One line per grading job on the worker's output, for the operator: which submission, which
    worker, how long, what came of it (no student's name: the submission id leads to it)."""
    print(f"grading job submission={grading.submission_id} grading={grading.id} round={grading.round}"
          f" worker={worker_id} seconds={time.monotonic() - started:.2f} outcome={outcome}", flush=True)


def _report(worker_id: str, state: str, message: str = "", checked: bool = False) -> None:
    fields = {"state": state, "message": message[-4000:], "heartbeat_at": timezone.now()}
    if checked:
        fields["checked_at"] = timezone.now()
    GradingWorker.objects.filter(worker_id=worker_id).update(**fields)


def _heartbeat(running: _Running) -> None:
    """Say that this worker lives; requeue dead workers' jobs; ask for the hourly re-check."""
    try:
        while not running.stop.wait(HEARTBEAT_SECONDS):
            try:
                GradingWorker.objects.filter(worker_id=running.worker_id).update(heartbeat_at=timezone.now())
                queue.recover()
            except Exception:  # noqa: BLE001 - a busy database now is no reason to stop beating
                traceback.print_exc()
            grader = running.grader
            if grader is not None and time.monotonic() - grader.started_at > settings.CONFIG.recheck_seconds:
                running.needs_restart = True
                if running.loop is not None:
                    running.loop.running = False
    finally:
        connection.close()


def _task_loop(running: _Running):
    from django_tasks_db.management.commands.db_worker import Worker

    return Worker(queue_names=[QUEUE], interval=POLL_SECONDS, batch=False, backend_name="default",
                  startup_delay=False, max_tasks=None, worker_id=running.worker_id[:64], excluded_queue_names=[])


def _stop_now(signum: int, frame: object) -> None:
    """SIGTERM or SIGINT while no job runs (the grader starting, a wait before trying again): stop
    now. The grader's processes are closed on the way out, and the worker exits 0. In the task
    loop, django-tasks' own handler lets the job in hand finish first."""
    raise SystemExit(0)


def _handle_stop_signals() -> None:
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _stop_now)


def run(options: GradeOptions) -> int:
    global _RUNNING
    _handle_stop_signals()
    worker_id = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"
    now = timezone.now()
    GradingWorker.objects.create(worker_id=worker_id, host=socket.gethostname(), pid=os.getpid(), started_at=now,
                                 heartbeat_at=now)
    running = _RUNNING = _Running(worker_id)
    queue.recover()
    beat = threading.Thread(target=_heartbeat, args=(running,), daemon=True)
    beat.start()
    try:
        while not running.stop.is_set():
            _report(worker_id, WorkerState.STARTING)
            try:
                running.grader = WarmGrader(options)
                running.grader.start()
            except (GraderUntrusted, GradingError, SandboxError) as error:
                running.grader = None
                _report(worker_id, WorkerState.REFUSING, str(error), checked=True)
                print(f"grading worker {worker_id} refuses to grade:\n{error}", file=sys.stderr, flush=True)
                running.stop.wait(RETRY_UNTRUSTED_SECONDS)
                continue
            _report(worker_id, WorkerState.READY, checked=True)
            print(f"grading worker {worker_id} ready (guarantees proved, canaries passed)", flush=True)
            running.needs_restart = False
            running.loop = _task_loop(running)
            running.loop.configure_signals()
            running.loop.run()
            _handle_stop_signals()
            running.grader.close()
            running.grader = None
            if not running.needs_restart:
                break
            close_old_connections()
    finally:
        running.stop.set()
        if running.grader is not None:
            running.grader.close()
        _report(worker_id, WorkerState.STOPPED)
    return 0

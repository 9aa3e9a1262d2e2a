"""The grading task, dispatched through django-tasks' database backend (django-tasks-db).

The web process only enqueues it, in the same transaction that stores the submission; the
grading worker runs it. The ``Grading`` row stays the truth (``autograder.service.queue``): a
task whose worker died is found by its stale row and enqueued again.
"""

from __future__ import annotations

from django_tasks import task

QUEUE = "grading"


@task(queue_name=QUEUE)
def grade(grading_id: int) -> None:
    # Imported here: only a grading worker runs this, and the web process never imports the grader.
    from autograder.service.grader.runtime import grade_job

    grade_job(grading_id)

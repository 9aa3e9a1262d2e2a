"""A seeded class in the service's database, fast: ``students`` students x the four assignments,
stored as the service stores them (users, submissions, done gradings whose ``row`` is a graded
row's ``to_json()`` as the grading worker records it, adjustments and a due date), with
``bulk_create``, for the class page's benchmark (``tools.bench_gradebook``) and tests.

The mix, the same for a given ``seed``: each student has a skill that decides, stage by stage,
whether their hidden tests pass; most submit each assignment once or twice; one in ten never
submits the last assignment (a ``missing`` cell); one in twenty submits the first one late; one
in fifty has an adjustment. Needs Django set up on the service's settings.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import sys
from datetime import datetime, timedelta, timezone

from autograder.course.rubric import max_score
from autograder.records.results import GradedRow, RowKind, RowStatus, ScoredTest, TestStatus
from autograder.student.curriculum import ASSIGNMENTS, STAGES_BY_ASSIGNMENT

TESTS_PER_STAGE = 3
START = datetime(2026, 3, 1, 9, 0, tzinfo=timezone.utc)
DUE = START + timedelta(days=7)


def graded_row(student_id: str, assignment_id: str, skill: float, chance: random.Random) -> GradedRow:
    """A graded row as the grader makes one: three hidden tests per stage, each stage passed or
    failed as a whole (a student who got a stage wrong fails all its tests)."""
    stages = STAGES_BY_ASSIGNMENT[assignment_id]
    maximum = max_score(assignment_id)
    points = maximum / (len(stages) * TESTS_PER_STAGE)
    tests = []
    for stage in stages:
        passed = chance.random() < skill
        tests += [ScoredTest(f"test_{stage}_{index}", stage, points if passed else 0.0, points,
                             TestStatus.PASSED if passed else TestStatus.FAILED) for index in range(TESTS_PER_STAGE)]
    score = round(sum(test.points for test in tests), 2)
    return GradedRow(student_id, assignment_id, RowStatus(RowKind.GRADED), score, maximum, tuple(tests))


def seed_class(students: int, prefix: str = "student", seed: int = 0) -> list[str]:
    """Adds the class, in one transaction; returns its student ids. The first assignment is given a
    due date. (Django's modules are imported here: ``main`` sets Django up first.)"""
    from django.db import transaction

    with transaction.atomic():
        return _seed(students, prefix, seed)


def _seed(students: int, prefix: str, seed: int) -> list[str]:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    from autograder.service.models import Adjustment, Grading, GradingState, Submission
    from autograder.service.policy import policy_for

    chance = random.Random(seed)
    policy = policy_for(ASSIGNMENTS[0])
    policy.due_at, policy.late_penalty_percent = DUE, 10
    policy.save()
    password = make_password(None)
    ids = [f"{prefix}{index:04d}" for index in range(students)]
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=student, first_name=f"Name {student.title()}", password=password)
         for student in ids])
    users = {user.username: user for user in get_user_model().objects.filter(username__in=ids)}
    planned = []  # (submission, its graded row)
    adjustments = []
    for index, student in enumerate(ids):
        skill = chance.uniform(0.2, 1.0)
        for number, assignment in enumerate(ASSIGNMENTS):
            if number == len(ASSIGNMENTS) - 1 and index % 10 == 9:
                continue  # never submitted
            for attempt in range(chance.choice([1, 1, 2])):
                received = START + timedelta(days=number * 7 + attempt, hours=chance.uniform(0, 20))
                if number == 0 and index % 20 == 7 and attempt == 0:
                    received = DUE + timedelta(hours=30)  # two days late
                notebook = f'{{"student": "{student}", "assignment": "{assignment}", "attempt": {attempt}}}'.encode()
                submission = Submission(user=users[student], assignment_id=assignment, received_at=received,
                                        sha256=hashlib.sha256(notebook).hexdigest(), size=len(notebook),
                                        filename=f"{assignment}.ipynb", notebook=notebook)
                planned.append((submission, graded_row(student, assignment, min(1.0, skill + 0.1 * attempt), chance)))
            if index % 50 == 3:
                adjustments.append(Adjustment(user=users[student], assignment_id=assignment, points=5.0,
                                              reason="Regrade request: the test was too strict", created_by="seed"))
    Submission.objects.bulk_create([submission for submission, _ in planned])
    Grading.objects.bulk_create([
        Grading(submission=submission, round=1, state=GradingState.DONE, attempts=1, worker_id="seed",
                queued_at=submission.received_at, claimed_at=submission.received_at,
                finished_at=submission.received_at + timedelta(seconds=2), row=row.to_json(),
                tests_score=row.tests_score) for submission, row in planned])
    Adjustment.objects.bulk_create(adjustments)
    return ids


def main(argv: list[str] | None = None) -> int:
    """``python -m tools.seed_class --students N [--prefix P]``, in the service's environment
    (``KIT_SERVICE_DATA``, or ``KIT_SERVICE_DATABASE_URL``), as the service's other commands."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, required=True)
    parser.add_argument("--prefix", default="student")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    os.environ["DJANGO_SETTINGS_MODULE"] = "autograder.service.settings"  # a foreign one never applies here
    import django

    django.setup()
    seed_class(args.students, args.prefix, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())

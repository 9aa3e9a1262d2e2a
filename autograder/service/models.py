"""The database: the service's only truth, shared by the web process and the grading workers.

A submission is a row with its bytes, their hash and the server's receipt time; each grading of
it (the first, and one per regrade) is a ``Grading`` row whose state moves queued -> running ->
done, claimed by one worker at a time. Students and instructors are Django users (username =
student id; ``is_staff`` = instructor). Sign-in links and API tokens are kept only as hashes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from autograder.student.curriculum import ASSIGNMENTS

ASSIGNMENT_CHOICES = [(assignment, assignment) for assignment in ASSIGNMENTS]


class Visibility(models.TextChoices):
    """What a student sees of a graded submission before the due date (everything after it)."""

    EVERYTHING = "everything", "everything: score and feedback page"
    SCORE = "score", "the score only"
    PUBLIC = "public", "the public checks only (the notebook's own check())"


class Counting(models.TextChoices):
    LATEST = "latest", "the latest submission"
    BEST = "best", "the best submission"


class AssignmentPolicy(models.Model):
    """How one assignment runs in the service. Times are the server's."""

    assignment_id = models.CharField(max_length=64, primary_key=True, choices=ASSIGNMENT_CHOICES)
    accepting = models.BooleanField(default=True)
    due_at = models.DateTimeField(null=True, blank=True)
    late_penalty_percent = models.FloatField(default=0.0)  # of the maximum, per started day late
    closes_at = models.DateTimeField(null=True, blank=True)  # the hard deadline: no upload after it
    visibility_before_due = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.EVERYTHING)
    counts = models.CharField(max_length=8, choices=Counting.choices, default=Counting.LATEST)
    per_hour_limit = models.PositiveIntegerField(null=True, blank=True)
    total_limit = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["assignment_id"]


class SignInLink(models.Model):
    """A personal sign-in link (``autograder.service.accounts``): only its hash is kept."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="signin_links")
    token_hash = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)


class ApiToken(models.Model):
    """A student's token for CI in their repository: only its hash and a short prefix are kept."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)
    created_at = models.DateTimeField(auto_now_add=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)


class Submission(models.Model):
    """One upload, stored whole before it is acknowledged."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="submissions")
    assignment_id = models.CharField(max_length=64, choices=ASSIGNMENT_CHOICES)
    received_at = models.DateTimeField(db_index=True)  # the server's clock, never the student's
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    filename = models.CharField(max_length=255)
    notebook = models.BinaryField()  # the .ipynb (taken out of an otter zip when one was uploaded)
    language = models.CharField(max_length=8, default="en")
    via = models.CharField(max_length=8, default="web")  # web | api

    class Meta:
        ordering = ["-received_at", "-id"]
        indexes = [models.Index(fields=["user", "assignment_id", "received_at"])]


class GradingState(models.TextChoices):
    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"


class Grading(models.Model):
    """One grading of a submission: the first (round 1) or a regrade. ``row`` is the results JSON
    of ``grade`` (before the term: late penalty and adjustments are applied when shown)."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="gradings")
    round = models.PositiveIntegerField(default=1)
    state = models.CharField(max_length=8, choices=GradingState.choices, default=GradingState.QUEUED, db_index=True)
    attempts = models.PositiveIntegerField(default=0)  # claims: more than 1 after a worker died mid-job
    worker_id = models.CharField(max_length=64, blank=True)
    queued_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    row = models.JSONField(null=True, blank=True)
    tests_score = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["submission", "round"], name="one_grading_per_round")]


class Adjustment(models.Model):
    """Points added to (or taken from) a student's counted score for an assignment, with a reason."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="adjustments")
    assignment_id = models.CharField(max_length=64, choices=ASSIGNMENT_CHOICES)
    points = models.FloatField()
    reason = models.CharField(max_length=500)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.CharField(max_length=150)

    class Meta:
        ordering = ["created_at", "id"]


class WorkerState(models.TextChoices):
    STARTING = "starting", "starting: start-up checks and canary"
    READY = "ready", "ready: guarantees proved, canary passed"
    REFUSING = "refusing", "refusing to grade"
    STOPPED = "stopped", "stopped"


class GradingWorker(models.Model):
    """A grading worker process, as it last reported itself (the instructor's page shows them)."""

    worker_id = models.CharField(max_length=64, primary_key=True)
    host = models.CharField(max_length=255)
    pid = models.IntegerField()
    started_at = models.DateTimeField()
    heartbeat_at = models.DateTimeField()
    state = models.CharField(max_length=16, choices=WorkerState.choices, default=WorkerState.STARTING)
    message = models.TextField(blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)  # the last start-up checks and canary
    graded = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-started_at"]

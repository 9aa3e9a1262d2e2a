"""The database: the service's only truth, shared by the web process and the grading workers.

A submission is a row with its bytes, their hash and the server's receipt time; each grading of
it (the first, and one per regrade) is a ``Grading`` row whose state moves queued -> running ->
done, claimed by one worker at a time. Students and instructors are Django users (username =
student id; ``is_staff`` = instructor). Sign-in links and API tokens are kept only as hashes.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

# An assignment id is a plain string here, with no choices: a choices list would be frozen into the
# migrations, so a new notebook would need one. What may be stored is checked against the curriculum
# (autograder.student.curriculum.ASSIGNMENTS) where an id comes in: uploads, the API, the instructor's
# pages and commands, LTI launches.


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

    assignment_id = models.CharField(max_length=64, primary_key=True)
    accepting = models.BooleanField(default=True)
    due_at = models.DateTimeField(null=True, blank=True)
    late_penalty_percent = models.FloatField(default=0.0)  # of the maximum, per started day late
    closes_at = models.DateTimeField(null=True, blank=True)  # the hard deadline: no upload after it
    visibility_before_due = models.CharField(max_length=16, choices=Visibility.choices, default=Visibility.EVERYTHING)
    counts = models.CharField(max_length=8, choices=Counting.choices, default=Counting.LATEST)
    per_hour_limit = models.PositiveIntegerField(null=True, blank=True)
    total_limit = models.PositiveIntegerField(null=True, blank=True)
    # What the hints cost (autograder.records.hint_charges): None, the rubric's prices; a table
    # ({"every_stage": [...], "<stage>": [...]}; {} for no charge), this assignment's own.
    hint_charges = models.JSONField(null=True, blank=True)

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
    assignment_id = models.CharField(max_length=64)
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
    assignment_id = models.CharField(max_length=64)
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


# -- LTI 1.3 Advantage (autograder.service.lti): platforms, people, courses, links, scores ------------
class LtiPlatform(models.Model):
    """A learning platform (an LMS) registered with the service: what its administrator gave when
    the tool was added there. Launches are verified with its keys (``key_set_url``)."""

    name = models.CharField(max_length=100, unique=True)  # a label of the instructor's ("moodle")
    issuer = models.CharField(max_length=255)
    client_id = models.CharField(max_length=255)
    auth_login_url = models.URLField(max_length=1024)  # its OpenID Connect authorization endpoint
    auth_token_url = models.URLField(max_length=1024)  # its OAuth 2 token endpoint (grade passback)
    key_set_url = models.URLField(max_length=1024)  # its public keys (JWKS)
    auth_audience = models.CharField(max_length=1024, blank=True)  # the token endpoint's audience, if not its URL
    # More hosts ("host" or "host:port") whose grade and class list services its launches may name,
    # besides those of the addresses above (lti/endpoints.py): hosted Canvas serves them elsewhere.
    service_hosts = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["issuer", "client_id"], name="one_registration_per_client")]


class LtiDeployment(models.Model):
    """A deployment of the tool on a platform (an LMS may deploy one registration several times)."""

    platform = models.ForeignKey(LtiPlatform, on_delete=models.CASCADE, related_name="deployments")
    deployment_id = models.CharField(max_length=255)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "deployment_id"], name="one_deployment_id")]


class ToolKey(models.Model):
    """One of the tool's own RSA key pairs. The newest unretired one signs (deep linking responses,
    the client assertions of grade passback); a retired one stays in the published JWKS for a day,
    for platforms that cached it."""

    kid = models.CharField(max_length=64, unique=True)  # the public key's JWK thumbprint
    private_pem = models.TextField()
    public_jwk = models.JSONField()
    created_at = models.DateTimeField()
    retired_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class LtiIdentity(models.Model):
    """A person of a platform (its ``sub``), and the service's user they are."""

    platform = models.ForeignKey(LtiPlatform, on_delete=models.CASCADE, related_name="identities")
    subject = models.CharField(max_length=255)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="lti_identities")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["platform", "subject"], name="one_identity_per_subject")]


class LtiContext(models.Model):
    """A course on a platform (a launch's context), with the endpoints of its services as the
    latest launch gave them."""

    deployment = models.ForeignKey(LtiDeployment, on_delete=models.CASCADE, related_name="contexts")
    context_id = models.CharField(max_length=255)
    title = models.CharField(max_length=255, blank=True)
    lineitems_url = models.URLField(max_length=1024, blank=True)  # Assignment and Grade Services
    ags_scopes = models.JSONField(default=list)
    memberships_url = models.URLField(max_length=1024, blank=True)  # Names and Role Provisioning

    class Meta:
        constraints = [models.UniqueConstraint(fields=["deployment", "context_id"], name="one_context_id")]


class LtiResourceLink(models.Model):
    """A link to one of the kit's assignments in a course (placed by deep linking). Its scores go
    to ``lineitem_url``: the line item its launches name, else one found or made on the platform."""

    context = models.ForeignKey(LtiContext, on_delete=models.CASCADE, related_name="links")
    resource_link_id = models.CharField(max_length=255)
    assignment_id = models.CharField(max_length=64)
    title = models.CharField(max_length=255, blank=True)
    lineitem_url = models.URLField(max_length=1024, blank=True)
    # A sender finding or making the line item holds it (two would otherwise make two line items).
    lineitem_claimed_by = models.CharField(max_length=64, blank=True)
    lineitem_claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["context", "resource_link_id"], name="one_resource_link_id")]


class LtiLinkUser(models.Model):
    """A person who launched a link: their score for its assignment goes to its line item."""

    link = models.ForeignKey(LtiResourceLink, on_delete=models.CASCADE, related_name="people")
    identity = models.ForeignKey(LtiIdentity, on_delete=models.CASCADE, related_name="links")
    last_launch_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["link", "identity"], name="one_link_user")]


class LtiMembership(models.Model):
    """A student on a course's class list, as the LMS's Names and Role Provisioning gave it when it
    was last fetched (``lti/roster.py``): the class table lists them, submissions or not."""

    context = models.ForeignKey(LtiContext, on_delete=models.CASCADE, related_name="members")
    identity = models.ForeignKey(LtiIdentity, on_delete=models.CASCADE, related_name="memberships")
    fetched_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["context", "identity"], name="one_membership")]


class LtiNonce(models.Model):
    """A nonce the tool sent with a login: a launch may carry it once, within a few minutes."""

    value = models.CharField(max_length=128, unique=True)
    created_at = models.DateTimeField(db_index=True)
    used_at = models.DateTimeField(null=True, blank=True)


class PassbackState(models.TextChoices):
    PENDING = "pending", "waiting to be sent"
    SENDING = "sending", "being sent"
    SENT = "sent", "sent"
    FAILED = "failed", "failed: the LMS refused it, or kept failing"
    SUPERSEDED = "superseded", "superseded: a newer score was sent"


class ScorePassback(models.Model):
    """One score on its way to a platform's gradebook (Assignment and Grade Services), kept until it
    is delivered: like a ``Grading``, the row is the truth. A person's scores for one line item are
    sent one at a time, oldest first, each with a ``timestamp`` later than the one before, so that
    the LMS never takes an older score over a newer one."""

    link_user = models.ForeignKey(LtiLinkUser, on_delete=models.CASCADE, related_name="passbacks")
    submission = models.ForeignKey(Submission, on_delete=models.SET_NULL, null=True, blank=True)  # the one that counts
    reason = models.CharField(max_length=16)  # graded | adjusted | resent
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    timestamp = models.DateTimeField()  # when the tool decided this score (AGS's timestamp)
    created_at = models.DateTimeField()
    state = models.CharField(max_length=12, choices=PassbackState.choices, default=PassbackState.PENDING)
    not_before = models.DateTimeField()  # the next try (backoff), or the due date for a hidden score
    attempts = models.PositiveIntegerField(default=0)
    claimed_by = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)  # why the last try failed, in the instructor's words

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["state", "not_before"])]

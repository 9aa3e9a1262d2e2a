"""The platform's own records: what an LMS keeps about its courses and gradebooks."""

from django.db import models


class Course(models.Model):
    course_id = models.CharField(max_length=64, primary_key=True)
    title = models.CharField(max_length=200)


class Member(models.Model):
    """A person enrolled in a course (Names and Role Provisioning lists them)."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE)
    user_id = models.CharField(max_length=100)
    name = models.CharField(max_length=200)
    role = models.CharField(max_length=300)

    @property
    def login(self) -> str:
        """The name they sign in with here (``user_id`` is the LMS's id for them: ``lms-<login>``)."""
        return self.user_id.removeprefix("lms-")


class LineItem(models.Model):
    """A gradebook column."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE)
    label = models.CharField(max_length=200)
    score_maximum = models.FloatField()
    resource_id = models.CharField(max_length=200, blank=True)
    tag = models.CharField(max_length=200, blank=True)
    resource_link_id = models.CharField(max_length=200, blank=True)
    made_by = models.CharField(max_length=20)  # "deep linking" (the platform) or "tool" (AGS)


class ResourceLink(models.Model):
    """A tool link placed in a course."""

    course = models.ForeignKey(Course, on_delete=models.CASCADE)
    title = models.CharField(max_length=200)
    url = models.CharField(max_length=500)
    custom = models.JSONField(default=dict)
    line_item = models.ForeignKey(LineItem, on_delete=models.SET_NULL, null=True)


class Score(models.Model):
    """The score a column holds for a person now."""

    line_item = models.ForeignKey(LineItem, on_delete=models.CASCADE)
    user_id = models.CharField(max_length=100)
    score_given = models.FloatField()
    score_maximum = models.FloatField()
    comment = models.TextField(blank=True)
    timestamp = models.DateTimeField()
    submitted_at = models.CharField(max_length=64, blank=True)


class ScoreReceipt(models.Model):
    """Every score posted to the platform, in the order it arrived, and what the platform did with it."""

    line_item_id = models.IntegerField()
    user_id = models.CharField(max_length=100)
    score_given = models.FloatField(null=True)
    timestamp = models.CharField(max_length=64)
    comment = models.TextField(blank=True)
    submitted_at = models.CharField(max_length=64, blank=True)
    outcome = models.CharField(max_length=20)  # created | success | oldtimestamp
    received_at = models.DateTimeField(auto_now_add=True)


class PendingLaunch(models.Model):
    """A launch the platform started (its lti_message_hint), until the tool's login comes back."""

    hint = models.CharField(max_length=64, primary_key=True)
    course = models.ForeignKey(Course, on_delete=models.CASCADE)
    link = models.ForeignKey(ResourceLink, on_delete=models.CASCADE, null=True)  # None: deep linking
    user_id = models.CharField(max_length=100)
    name = models.CharField(max_length=200)
    roles = models.JSONField()
    lifetime = models.IntegerField(default=300)  # seconds the id_token lives (negative: expired)
    audience = models.CharField(max_length=200, blank=True)  # another client id (misconfiguration)
    deployment = models.CharField(max_length=200, blank=True)  # another deployment id
    # Services the launch names elsewhere than this platform (a platform pointing the tool at
    # another host): its gradebook (line items) and its class list.
    lineitems = models.CharField(max_length=500, blank=True)
    memberships = models.CharField(max_length=500, blank=True)

"""Storing an upload: checked, then stored with its hash and the server's time and queued, all in
one transaction that commits before the reply is sent. A refused upload stores nothing."""

from __future__ import annotations

import hashlib
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from autograder.service import queue
from autograder.service.models import Submission
from autograder.service.policy import policy_for, upload_refusal
from autograder.service.web.common import moment
from autograder.service.web.uploads import Refusal, check_upload
from autograder.student.curriculum import ASSIGNMENTS

DUPLICATE_WINDOW = timedelta(seconds=1)


def store_upload(user, assignment_id: str, filename: str, data: bytes | None, via: str) -> Submission:
    """The stored and queued submission, or Refusal."""
    if assignment_id not in ASSIGNMENTS:
        raise Refusal("unknown_assignment", {"assignment": assignment_id[:64]})
    if data is None:
        raise Refusal("no_file")
    config = settings.CONFIG
    checked = check_upload(filename, data, assignment_id, config.max_upload_bytes, config.upload_bytes_unzipped)
    digest = hashlib.sha256(checked.content).hexdigest()
    with transaction.atomic():
        # One upload of a student at a time: the limits and the duplicate check see every earlier one.
        get_user_model().objects.select_for_update().filter(id=user.id).first()
        now = timezone.now()
        policy = policy_for(assignment_id)
        refusal = upload_refusal(user, policy, now)
        if refusal is not None:
            fields = {"next_allowed": moment(refusal.next_allowed), "closes_at": moment(policy.closes_at)}
            raise Refusal(refusal.reason, fields)
        if Submission.objects.filter(user=user, assignment_id=assignment_id, sha256=digest,
                                     received_at__gt=now - DUPLICATE_WINDOW).exists():
            raise Refusal("duplicate")
        submission = Submission.objects.create(user=user, assignment_id=assignment_id, received_at=now, sha256=digest,
                                               size=len(checked.content), filename=checked.filename,
                                               notebook=checked.content, language=checked.language, via=via)
        queue.enqueue(submission)
    return submission

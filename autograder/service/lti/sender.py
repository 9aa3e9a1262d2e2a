"""The passback sender: delivers owed scores to platforms' gradebooks (Assignment and Grade
Services, through pylti1p3next), one process per ``serve`` (or ``python -m autograder service
passback``), any number of them on one database.

For each due passback (``passback.claim_due``) it finds the link's line item (the one the launch
named; else one with the assignment as its resource id; else it makes one), posts the score with
its timestamp, the submission's time and a comment linking to the feedback page, and records the
outcome. A platform that cannot be reached, times out, answers 5xx or 429 is tried again with
backoff; a line item deleted in the LMS is found or made again; a refusal (4xx) fails at once,
with the LMS's answer for the instructor. Nothing a platform does stops the loop.
"""

from __future__ import annotations

import os
import secrets
import socket
import sys
import threading
import traceback
from datetime import timedelta

import requests
from django.conf import settings
from django.core.cache import cache
from django.db import close_old_connections
from django.utils import timezone
from pylti1p3.assignments_grades import AssignmentsGradesService
from pylti1p3.contrib.django import DjangoServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.grade import Grade
from pylti1p3.lineitem import LineItem

from autograder.service.lti import endpoints
from autograder.service.lti import passback as owed
from autograder.service.lti.deep_linking import LINE_ITEM_TAG
from autograder.service.lti.titles import assignment_title
from autograder.service.lti.tool import PlatformSession, registration
from autograder.service.models import ScorePassback, Visibility
from autograder.service.policy import policy_for, visibility

POLL_SECONDS = 1.0
RETRIED_STATUSES = {408, 425, 429, 500, 502, 503, 504}
HIDDEN_WAIT = timedelta(hours=1)  # a hidden score without a due date is looked at again hourly


class Connector(DjangoServiceConnector):
    """pylti1p3's connector (access tokens kept in Django's cache until they expire), which can
    also forget a token the LMS no longer takes."""

    def forget_token(self, scopes: list[str]) -> None:
        cache.delete(self._get_cache_key(self._scope_key(sorted(scopes))))


class _Again(Exception):
    """Try this passback again: ``soon`` at once (nothing was wrong with it), else after the backoff."""

    def __init__(self, why: str, soon: bool = False):
        super().__init__(why)
        self.soon = soon


class _Refused(Exception):
    """The LMS refused this passback for good: fail it, saying why."""


def _status_text(error: LtiServiceException) -> str:
    response = error.response
    body = " ".join((response.text or "").split())[:200]
    return f"HTTP {response.status_code}{': ' + body if body else ''}"


def _line_item_url(ags: AssignmentsGradesService, passback: ScorePassback, sender_id: str) -> str:
    """The link's line item: the one its launches named, else the assignment's, found or made."""
    link = passback.link_user.link
    if link.lineitem_url:
        return link.lineitem_url
    if not ags.can_read_lineitem() and not ags.can_create_lineitem():
        raise _Refused("the LMS names no gradebook column for this link and does not let the tool make one")
    if not owed.claim_line_item(link, sender_id):
        raise _Again("another sender is finding or making this link's gradebook column", soon=False)
    url = None
    try:
        found = ags.find_lineitem_satisfying(
            lambda item: item.get("resourceLinkId") == link.resource_link_id
            or (item.get("resourceId") == link.assignment_id and item.get("tag") == LINE_ITEM_TAG))
        if found is None:
            title = assignment_title(link.assignment_id)
            found = ags.create_lineitem(LineItem().set_label(title).set_score_maximum(passback.score_maximum)
                                        .set_resource_id(link.assignment_id).set_tag(LINE_ITEM_TAG)
                                        .set_resource_link_id(link.resource_link_id))
        url = found.get_id()
        if not url:
            raise _Again("the LMS gave a gradebook column without an id")
        return url
    finally:
        owed.release_line_item(link, sender_id, url)


def _grade(passback: ScorePassback) -> Grade:
    grade = (Grade().set_score_given(passback.score_given).set_score_maximum(passback.score_maximum)
             .set_timestamp(passback.timestamp.isoformat(timespec="milliseconds"))
             .set_activity_progress("Completed").set_grading_progress("FullyGraded")
             .set_user_id(passback.link_user.identity.subject))
    if passback.submission is not None:
        grade.set_submitted_at(passback.submission.received_at.isoformat(timespec="milliseconds"))
        grade.set_comment(f"Feedback: {settings.CONFIG.base_url}/submissions/{passback.submission_id}/feedback")
    return grade


def _send(passback: ScorePassback, sender_id: str) -> None:
    """One try; raises _Again or _Refused when it did not deliver."""
    link = passback.link_user.link
    context = link.context
    platform = context.deployment.platform
    for url in filter(None, (context.lineitems_url, link.lineitem_url)):
        endpoints.check(platform, url, "the gradebook its launches name")  # before any request, the token's too
    connector = Connector(registration(platform), PlatformSession(platform))
    ags = AssignmentsGradesService(connector, {"scope": context.ags_scopes, "lineitems": context.lineitems_url or None,
                                               "lineitem": link.lineitem_url or None})
    if not ags.can_put_grade():
        raise _Refused("the LMS's launches give this tool no right to send scores (no score scope)")
    scopes = context.ags_scopes
    try:
        connector.get_access_token(scopes)
    except LtiServiceException as error:
        raise _Again(f"the LMS refused the tool an access token ({_status_text(error)}); check that it has the"
                     f" tool's key set URL, {settings.CONFIG.base_url}/lti/jwks") from None
    url = _line_item_url(ags, passback, sender_id)
    try:
        ags.put_grade(_grade(passback), LineItem({"id": url}))
    except LtiServiceException as error:
        status = error.response.status_code
        if status == 404:
            owed.release_line_item(link, sender_id, "")  # deleted in the LMS: found or made again
            link.lineitem_url = ""
            link.save(update_fields=["lineitem_url"])
            raise _Again("the LMS's gradebook column for this link was deleted; it is found or made again",
                         soon=True) from None
        if status == 401:
            connector.forget_token(scopes)
            raise _Again(f"the LMS did not take the tool's access token ({_status_text(error)})", soon=True) from None
        if status in RETRIED_STATUSES:
            raise _Again(f"the LMS could not take the score now ({_status_text(error)})") from None
        raise _Refused(f"the LMS refused the score ({_status_text(error)})") from None


def deliver(passback: ScorePassback, sender_id: str) -> None:
    """Try to deliver one claimed passback, and record what happened."""
    policy = policy_for(passback.link_user.link.assignment_id)
    now = timezone.now()
    if visibility(policy, now) == Visibility.PUBLIC:
        until = policy.due_at if policy.due_at and policy.due_at > now else now + HIDDEN_WAIT
        owed.held(passback, sender_id, until, "held: before the due date the assignment shows only the public checks")
        return
    try:
        _send(passback, sender_id)
    except _Again as again:
        owed.retry_later(passback, sender_id, str(again), soon=again.soon)
    except (_Refused, endpoints.ForeignEndpoint) as refusal:
        owed.refused(passback, sender_id, str(refusal))
    except requests.RequestException as error:
        owed.retry_later(passback, sender_id, f"the LMS could not be reached ({type(error).__name__}: {error})"[:500])
    except LtiException as error:
        owed.refused(passback, sender_id, f"the LMS's answer could not be used ({error})"[:500])
    except Exception as error:  # noqa: BLE001 - a platform's oddity must not stop the other passbacks
        owed.retry_later(passback, sender_id, f"the tool failed while sending ({type(error).__name__}: {error})"[:500])
    else:
        owed.delivered(passback, sender_id)


def run(stop: threading.Event | None = None) -> int:
    """Deliver owed scores until ``stop`` is set (SIGTERM)."""
    stop = stop or threading.Event()
    sender_id = f"{socket.gethostname()[:40]}-{os.getpid()}-{secrets.token_hex(3)}"
    while not stop.is_set():
        try:
            owed.recover_stale()
            claimed = owed.claim_due(sender_id)
            for passback in claimed:
                deliver(passback, sender_id)
        except Exception:  # noqa: BLE001 - a busy or restarting database: try again
            traceback.print_exc(file=sys.stderr)
            close_old_connections()
            claimed = []
        if not claimed:
            stop.wait(POLL_SECONDS)
    return 0


def serve_unprivileged(web_user: str) -> int:
    """The sender as ``serve`` runs it, in a child: as root, it loads what sending needs, then
    leaves root for the web user (it needs no privilege, and holds the tool's key)."""
    import signal

    if os.geteuid() == 0:
        from autograder.service.privileges import drop_privileges
        from autograder.service.webserver import SENDER_PACKAGES, import_everything

        for package in SENDER_PACKAGES:
            import_everything(package)
        drop_privileges(web_user)
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    return run(stop)

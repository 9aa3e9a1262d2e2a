"""Names and Role Provisioning: a course's class list from its LMS, so that the class table lists
the students who have submitted nothing yet.

``fetch`` asks the platform for a course's members (the ``context_memberships_url`` its launches
gave, through pylti1p3next's ``NamesRolesProvisioningService``) and records each active Learner
as a person of the platform (the very user their first launch will find, with the same user
name) and a member of the course. Whoever is no longer listed, or is listed Inactive or Deleted,
stops being a member (their submissions stay). Teachers, and roles the service does not know, are
not recorded: the class list holds students only.
"""

from __future__ import annotations

import requests
from django.db import transaction
from django.utils import timezone
from pylti1p3.contrib.django import DjangoServiceConnector
from pylti1p3.exception import LtiException, LtiServiceException
from pylti1p3.names_roles import NamesRolesProvisioningService

from autograder.service.lti import endpoints
from autograder.service.lti.launch import CLAIM, STUDENT, course_role, identity_for
from autograder.service.lti.tool import PlatformSession, registration
from autograder.service.models import LtiContext, LtiMembership


class RosterUnavailable(Exception):
    """The class list could not be fetched; the message says why, for the instructor."""


def _members(context: LtiContext) -> list[dict]:
    if not context.memberships_url:
        raise RosterUnavailable("its launches name no class list: turn on Names and Role Provisioning for the"
                                " tool in the LMS, then open the tool once from the course")
    platform = context.deployment.platform
    connector = DjangoServiceConnector(registration(platform), PlatformSession(platform))
    service = NamesRolesProvisioningService(connector, {"context_memberships_url": context.memberships_url})
    try:
        endpoints.check(platform, context.memberships_url, "the class list its launches name")
        return service.get_members()
    except endpoints.ForeignEndpoint as error:
        raise RosterUnavailable(str(error)) from None
    except LtiServiceException as error:
        raise RosterUnavailable(f"the LMS refused the class list (HTTP {error.response.status_code})") from None
    except requests.RequestException as error:
        raise RosterUnavailable(f"the LMS could not be reached ({type(error).__name__})") from None
    except (LtiException, ValueError) as error:
        raise RosterUnavailable(f"the LMS's answer could not be read ({error})") from None


def fetch(context: LtiContext) -> int:
    """Fetch ``context``'s class list and record its students; how many are on it now."""
    platform = context.deployment.platform
    students = [member for member in _members(context) if member.get("user_id")
                and member.get("status", "Active") == "Active"
                and course_role({CLAIM + "roles": member.get("roles") or []}) == STUDENT]
    now = timezone.now()
    with transaction.atomic():
        identities = [identity_for(platform, str(member["user_id"])[:255], member.get("lis_person_sourcedid"))
                      for member in students]
        LtiMembership.objects.filter(context=context).exclude(identity__in=identities).delete()
        for identity in identities:
            LtiMembership.objects.update_or_create(context=context, identity=identity, defaults={"fetched_at": now})
    return len(identities)


def fetch_all() -> list[tuple[LtiContext, int | RosterUnavailable]]:
    """Every known course's class list: how many students each has, or why it could not be fetched."""
    results = []
    for context in LtiContext.objects.select_related("deployment__platform").order_by("id"):
        try:
            results.append((context, fetch(context)))
        except RosterUnavailable as why:
            results.append((context, why))
    return results

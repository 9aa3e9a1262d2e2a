"""A launch from a platform: its checks, the role it gives, and who and what it is.

pylti1p3next does the checks; ``ServiceLaunch`` runs them in an order that spends nothing on a
forged token and names each refusal:

1. the state: the launch comes back to the browser that started the login (its cookie);
2. the issuer and audience: a registered platform, and this tool's client id;
3. the signature, against the platform's published keys, with the expiry and issue time allowed
   ``LEEWAY_SECONDS`` of clock skew;
4. the deployment: registered for that platform;
5. the message: a resource link or deep linking request of LTI 1.3.0;
6. the nonce: one the tool issued at the login, in the last ``NONCE_LIFETIME``, used once (so a
   replayed launch is refused), and spent only now, once the signature has held.

Then ``accept`` maps the role (a launch without a known one creates nothing) and records the
person, the course and the link, in one transaction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

import jwt
import requests
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from pylti1p3.contrib.django import DjangoMessageLaunch
from pylti1p3.contrib.django.session import DjangoSessionService
from pylti1p3.exception import LtiException
from pylti1p3.roles import AbstractRole, TeacherRole, TeachingAssistantRole

from autograder.service.lti.endpoints import ForeignEndpoint
from autograder.service.lti.tool import PlatformSession, Refused, ServiceToolConf, platform_for
from autograder.service.models import (
    LtiContext,
    LtiDeployment,
    LtiIdentity,
    LtiLinkUser,
    LtiNonce,
    LtiResourceLink,
)
from autograder.student.curriculum import ASSIGNMENTS

LEEWAY_SECONDS = 60  # clocks of platforms and of the service may differ this much
NONCE_LIFETIME = timedelta(minutes=10)  # from the login to its launch
ALGORITHMS = ("RS256", "RS384", "RS512")  # LTI's; never "none" or a shared-secret one
CLAIM = "https://purl.imsglobal.org/spec/lti/claim/"
AGS_CLAIM = "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint"
NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice"
ASSIGNMENT_PARAMETER = "assignment"  # the custom parameter a deep-linked link carries
INSTRUCTOR, STUDENT = "instructor", "student"


class NonceOnce(DjangoSessionService):
    """pylti1p3's session service, with nonces kept in the database and spent once."""

    def save_nonce(self, nonce: str) -> None:
        now = timezone.now()
        LtiNonce.objects.filter(created_at__lt=now - 2 * NONCE_LIFETIME).delete()
        LtiNonce.objects.create(value=nonce[:128], created_at=now)

    def check_nonce(self, nonce: str) -> bool:
        """Spend the nonce: True for the first launch that carries it, within its lifetime."""
        now = timezone.now()
        return bool(LtiNonce.objects.filter(value=nonce[:128], used_at__isnull=True,
                                            created_at__gt=now - NONCE_LIFETIME).update(used_at=now))


class ServiceLaunch(DjangoMessageLaunch):
    """A launch POSTed by a platform, checked as the module says."""

    def __init__(self, request):
        # No requests session yet: it is the platform's own (``validate_registration``), which the
        # launch has not named yet; nothing is requested before.
        super().__init__(request, ServiceToolConf(), session_service=NonceOnce(request))

    def validate_registration(self) -> ServiceLaunch:
        super().validate_registration()
        self._requests_session = PlatformSession(platform_for(self._registration.get_issuer(),
                                                              self._registration.get_client_id()))
        return self

    def validate(self) -> ServiceLaunch:
        self._validated = True  # the steps read the body as they go (pylti1p3's own convention)
        try:
            self._step("state", self.validate_state)
            self._step("malformed", self.validate_jwt_format)
            self._step("malformed", self.validate_registration)
            self.validate_jwt_signature()
            self._step("unknown_deployment", self.validate_deployment)
            self._step("malformed", self.validate_message)
            self._step("replayed", self.validate_nonce)
            self.save_launch_data()
        except BaseException:
            self._validated = False
            raise
        return self

    def _step(self, reason: str, check) -> None:
        try:
            check()
        except LtiException as error:
            body = self._jwt.get("body", {}) if isinstance(self._jwt, dict) else {}
            fields = {"deployment": str(body.get(CLAIM + "deployment_id", ""))[:200], "detail": str(error)[:300]}
            raise Refused(reason, fields, str(error)) from None

    def fetch_public_key(self, key_set_url: str):
        try:
            answer = self._requests_session.get(key_set_url)
            answer.raise_for_status()
            return answer.json()
        except (requests.RequestException, ValueError, ForeignEndpoint) as error:
            raise Refused("platform_keys", {"url": key_set_url[:300]}, str(error)) from None

    def validate_jwt_signature(self) -> ServiceLaunch:
        try:
            public_key, algorithm = self.get_public_key()
        except LtiException as error:  # no key of the platform's has the token's key id
            raise Refused("bad_signature", {}, str(error)) from None
        if algorithm not in ALGORITHMS:
            raise Refused("bad_signature", {}, f"algorithm {algorithm!r}")
        client_id = self._registration.get_client_id()
        try:
            body = jwt.decode(self._get_id_token(), public_key, algorithms=[algorithm], audience=client_id,
                              issuer=self._registration.get_issuer(), leeway=LEEWAY_SECONDS,
                              options={"require": ["exp", "iat", "aud", "iss", "nonce"]})
        except (jwt.ExpiredSignatureError, jwt.ImmatureSignatureError) as error:
            raise Refused("expired", {}, str(error)) from None
        except jwt.InvalidAudienceError as error:
            raise Refused("wrong_audience", {"audience": str(self._jwt["body"].get("aud"))[:200]}, str(error)) from None
        except (jwt.MissingRequiredClaimError, jwt.InvalidIssuerError) as error:
            raise Refused("malformed", {"detail": str(error)}, str(error)) from None
        except jwt.InvalidTokenError as error:  # the signature, or a token that cannot be read
            raise Refused("bad_signature", {}, str(error)) from None
        audiences = body["aud"] if isinstance(body["aud"], list) else [body["aud"]]
        if len(audiences) > 1 and body.get("azp") != client_id:  # OpenID Connect's rule for several audiences
            raise Refused("wrong_audience", {"audience": str(body.get("azp"))[:200]}, "azp")
        return self


def course_role(body: dict) -> str | None:
    """``INSTRUCTOR`` for a teacher (Instructor, Administrator or Teaching Assistant of the
    course), ``STUDENT`` for a Learner, None for anything else (a Mentor, a Content Developer, no
    role in the course): the service gives no page to a role it does not know."""
    if TeacherRole(body).check() or TeachingAssistantRole(body).check():
        return INSTRUCTOR
    parse = AbstractRole(body).parse_role_str
    if any(parse(role) in (("Learner", "membership"), ("Learner", None)) for role in body.get(CLAIM + "roles", [])):
        return STUDENT
    return None


@dataclass(frozen=True)
class Accepted:
    """What a checked launch is: who, in which role, and what they came for."""

    user: object
    role: str
    deep_linking: bool
    link: LtiResourceLink | None  # a resource link launch's link (and its assignment)
    context: LtiContext  # the course it came from


def _username(platform, wanted: str, taken) -> str:
    """A new person's user name: ``wanted`` (the institution's id for them when the platform sends
    one, what a roster says; else the platform's), never another person's (a platform cannot take
    over a name)."""
    wanted = re.sub(r"[\x00-\x1f/\\]", "_", wanted).strip()[:100] or "lti-user"
    candidates = [wanted, f"{wanted}@{platform.name}"] + [f"{wanted}@{platform.name}-{n}" for n in range(2, 1000)]
    return next(name for name in candidates if not taken(name))


def identity_for(platform, subject: str, sourcedid: str | None) -> LtiIdentity:
    """The service's user for a platform's person (``sub``), made the first time the service hears
    of them: at their launch, or on a class list (Names and Role Provisioning)."""
    users = get_user_model().objects
    identity = LtiIdentity.objects.select_related("user").filter(platform=platform, subject=subject).first()
    if identity is None:
        user = users.create(username=_username(platform, str(sourcedid or subject),
                                               lambda name: users.filter(username=name).exists()))
        identity = LtiIdentity.objects.create(platform=platform, subject=subject, user=user)
    return identity


def _person(platform, body: dict, role: str):
    identity = identity_for(platform, body["sub"], (body.get(CLAIM + "lis") or {}).get("person_sourcedid"))
    user = identity.user
    name = body.get("name") or " ".join(part for part in (body.get("given_name"), body.get("family_name")) if part)
    user.first_name = str(name or user.first_name)[:150]
    user.email = str(body.get("email") or user.email)[:254]
    user.is_staff = role == INSTRUCTOR  # the platform says who teaches this course
    user.save()
    return identity


def _context(deployment: LtiDeployment, body: dict) -> LtiContext:
    claim = body.get(CLAIM + "context") or {}
    context, _ = LtiContext.objects.get_or_create(deployment=deployment, context_id=str(claim.get("id", ""))[:255])
    services = body.get(AGS_CLAIM) or {}
    context.title = str(claim.get("title") or claim.get("label") or context.title)[:255]
    context.lineitems_url = str(services.get("lineitems") or context.lineitems_url)[:1024]
    context.ags_scopes = list(services.get("scope") or context.ags_scopes)
    context.memberships_url = str((body.get(NRPS_CLAIM) or {}).get("context_memberships_url")
                                  or context.memberships_url)[:1024]
    context.save()
    return context


def _link(context: LtiContext, body: dict) -> LtiResourceLink:
    claim = body[CLAIM + "resource_link"]
    named = (body.get(CLAIM + "custom") or {}).get(ASSIGNMENT_PARAMETER)
    link = LtiResourceLink.objects.filter(context=context, resource_link_id=str(claim["id"])[:255]).first()
    assignment = named if named in ASSIGNMENTS else (link.assignment_id if link else None)
    if assignment is None:
        raise Refused("no_assignment", {"assignment": str(named or "")[:64]})
    if link is None:
        link = LtiResourceLink(context=context, resource_link_id=str(claim["id"])[:255])
    link.assignment_id = assignment
    link.title = str(claim.get("title") or link.title)[:255]
    lineitem = (body.get(AGS_CLAIM) or {}).get("lineitem")
    if lineitem:
        link.lineitem_url = str(lineitem)[:1024]  # the line item the platform made for this link
    link.save()
    return link


def accept(launch: ServiceLaunch) -> Accepted:
    """Record a checked launch's person, course and link (nothing when the role is refused)."""
    body = launch.get_launch_data()
    role = course_role(body)
    if role is None:
        raise Refused("unknown_role")
    deep_linking = launch.is_deep_link_launch()
    if deep_linking and role != INSTRUCTOR:
        raise Refused("not_instructor")
    platform = platform_for(body["iss"], launch.get_client_id())
    deployment = LtiDeployment.objects.get(platform=platform, deployment_id=body[CLAIM + "deployment_id"])
    with transaction.atomic():
        context = _context(deployment, body)
        link = None if deep_linking else _link(context, body)
        identity = _person(platform, body, role)
        if role == STUDENT:
            LtiLinkUser.objects.update_or_create(link=link, identity=identity,
                                                 defaults={"last_launch_at": timezone.now()})
    return Accepted(identity.user, role, deep_linking, link, context)

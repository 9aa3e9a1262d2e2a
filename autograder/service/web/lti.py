"""The LTI 1.3 pages: the login a platform starts, the launch it posts, the deep linking page, and
the tool's public keys. A platform registers the tool with four addresses (``service lti show``
prints them): the login (``/lti/login``), the launch and deep linking (``/lti/launch``) and the
key set (``/lti/jwks``)."""

from __future__ import annotations

import logging
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import login as sign_in
from django.http import JsonResponse
from django.shortcuts import redirect
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from pylti1p3.contrib.django import DjangoOIDCLogin
from pylti1p3.exception import LtiException, OIDCException

from autograder.service.lti.deep_linking import offers
from autograder.service.lti.keys import published_jwks
from autograder.service.lti.launch import INSTRUCTOR, NonceOnce, ServiceLaunch, accept
from autograder.service.lti.tool import Refused, ServiceToolConf
from autograder.service.web.common import page, say
from autograder.service.web.middleware import POLICY

LOG = logging.getLogger("autograder.service.lti")
REFUSAL_FIELDS = ("issuer", "audience", "deployment", "detail", "url", "assignment")


def launch_url() -> str:
    return f"{settings.CONFIG.base_url}/lti/launch"


def _refused(request, refusal: Refused):
    """The refusal page: what went wrong and what to do; nothing was created."""
    LOG.warning("LTI launch refused (%s): %s", refusal.reason, refusal.detail or refusal.fields)
    fields = {name: "" for name in REFUSAL_FIELDS} | refusal.fields
    status = 400 if refusal.reason == "malformed" else 403
    return page(request, "lti/refused.html", {"why": say(request, f"lti.why.{refusal.reason}", **fields),
                                              "reason": refusal.reason}, status=status)


@csrf_exempt  # a platform's cross-site request: the state cookie and the nonce guard the launch
@require_http_methods(["GET", "POST"])
def login(request):
    """Third-party initiated login: back to the platform's authorization endpoint, with a state
    (in a cookie of this browser) and a nonce (in the database)."""
    try:
        return DjangoOIDCLogin(request, ServiceToolConf(), session_service=NonceOnce(request)).redirect(launch_url())
    except Refused as refusal:
        return _refused(request, refusal)
    except (OIDCException, LtiException) as error:
        return _refused(request, Refused("malformed", {"detail": str(error)[:300]}, str(error)))


@csrf_exempt  # as login
@require_POST
def launch(request):
    message = ServiceLaunch(request)
    try:
        message.validate()
        accepted = accept(message)
    except Refused as refusal:
        return _refused(request, refusal)
    sign_in(request, accepted.user, backend="django.contrib.auth.backends.ModelBackend")
    if accepted.deep_linking:
        offered = offers(message, launch_url(), accepted.context)
        response = page(request, "lti/deep_link.html", {"offered": offered})
        # The one form that leaves the service: each assignment's button (and Cancel) posts to the LMS.
        target = urlsplit(offered.return_url)
        response["Content-Security-Policy"] = POLICY.replace(
            "form-action 'self'", f"form-action 'self' {target.scheme}://{target.netloc}")
        return response
    if accepted.role == INSTRUCTOR:  # the class, by the assignment the link is for
        return redirect(f"/instructor/class?{urlencode({'sort': accepted.link.assignment_id})}")
    return redirect(f"/assignments/{accepted.link.assignment_id}")


@require_GET
def jwks(request):
    response = JsonResponse(published_jwks())
    response["Cache-Control"] = "public, max-age=300"
    return response

"""The platforms registered with the service, as pylti1p3 asks for them (a ToolConf), and what
every request to a platform shares (a timeout, and only the platform's own hosts: endpoints.py).

A platform is found by its issuer and the client id it gave the tool; a launch whose issuer is
known but whose audience is another client id was meant for another tool, and is refused as
such. Deployments are registered per platform.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import requests
from pylti1p3.deployment import Deployment
from pylti1p3.registration import Registration
from pylti1p3.tool_config.abstract import ToolConfAbstract

from autograder.service.lti import endpoints
from autograder.service.lti.keys import current_key, public_pem, published_jwks
from autograder.service.models import LtiDeployment, LtiPlatform

# Seconds to connect to a platform, and to wait for each of its answers: a platform that hangs
# must not hold a launch or the passback sender.
PLATFORM_TIMEOUT = (5.0, 15.0)


@dataclass
class Refused(Exception):
    """Why a launch (or a login) is refused: a reason key of the pages' text, and its fields."""

    reason: str
    fields: dict = field(default_factory=dict)
    detail: str = ""  # what the library said, for the log


class PlatformSession(requests.Session):
    """A requests session for one platform: every call has a timeout (pylti1p3 sets none), and
    goes only to the platform's hosts, each redirect too (ForeignEndpoint otherwise)."""

    def __init__(self, platform: LtiPlatform):
        super().__init__()
        self.platform = platform
        self.headers["User-Agent"] = "attention-kit (pylti1p3next)"

    def request(self, *args, **kwargs):
        kwargs.setdefault("timeout", PLATFORM_TIMEOUT)
        return super().request(*args, **kwargs)

    def send(self, request, **kwargs):
        endpoints.check(self.platform, request.url or "")
        return super().send(request, **kwargs)


def registration(platform: LtiPlatform) -> Registration:
    """pylti1p3's view of a platform, with the tool's current key to sign with."""
    key = current_key()
    return (Registration().set_issuer(platform.issuer).set_client_id(platform.client_id)
            .set_auth_login_url(platform.auth_login_url).set_auth_token_url(platform.auth_token_url)
            .set_auth_audience(platform.auth_audience or None).set_key_set_url(platform.key_set_url)
            .set_tool_private_key(key.private_pem).set_tool_public_key(public_pem(key)))


def platform_for(issuer: str, client_id: str | None) -> LtiPlatform:
    """The registered platform of ``issuer`` and ``client_id`` (None: the issuer's only one)."""
    candidates = list(LtiPlatform.objects.filter(issuer=issuer))
    if not candidates:
        raise Refused("unknown_platform", {"issuer": issuer[:200]})
    if client_id is None:
        if len(candidates) == 1:
            return candidates[0]
        raise Refused("malformed", {"detail": "the login names no client_id, and this platform has several"})
    for platform in candidates:
        if platform.client_id == client_id:
            return platform
    raise Refused("wrong_audience", {"audience": str(client_id)[:200]})


class ServiceToolConf(ToolConfAbstract):
    """The registrations pylti1p3 checks launches against, from the database."""

    def check_iss_has_one_client(self, iss: str) -> bool:
        return False

    def check_iss_has_many_clients(self, iss: str) -> bool:
        return True

    def find_registration_by_issuer(self, iss: str, *args, **kwargs) -> Registration:
        return registration(platform_for(iss, None))

    def find_registration_by_params(self, iss: str, client_id: str | None, *args, **kwargs) -> Registration:
        return registration(platform_for(iss, client_id))

    def find_deployment(self, iss: str, deployment_id: str) -> Deployment | None:
        return self.find_deployment_by_params(iss, deployment_id, None)

    def find_deployment_by_params(self, iss: str, deployment_id: str, client_id: str | None, *args,
                                  **kwargs) -> Deployment | None:
        platform = platform_for(iss, client_id)
        if not LtiDeployment.objects.filter(platform=platform, deployment_id=deployment_id).exists():
            return None
        return Deployment().set_deployment_id(deployment_id)

    def get_jwks(self, iss: str | None = None, client_id: str | None = None, **kwargs) -> dict:
        return published_jwks()
